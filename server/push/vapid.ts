import webpush from 'web-push';
import type { Queryable } from '../db/db.ts';

/**
 * The server's VAPID key pair (RFC 8292), made once by whichever process asks first and kept in
 * server_keys like the token key, so every API process signs pushes with the same key and a
 * browser's subscription (made with the public key) outlives restarts.
 */
export type VapidKeys = { publicKey: string; privateKey: string };

const NAME = 'vapid_p256';

export async function loadVapidKeys(db: Queryable): Promise<VapidKeys> {
  const made = webpush.generateVAPIDKeys();
  await db.query('INSERT INTO server_keys (name, secret) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [NAME, JSON.stringify(made)]);
  const [row] = await db.query<{ secret: string }>('SELECT secret FROM server_keys WHERE name = $1', [NAME]);
  const keys = JSON.parse(row!.secret) as VapidKeys;
  return { publicKey: keys.publicKey, privateKey: keys.privateKey };
}
