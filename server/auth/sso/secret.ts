import { randomBytes } from 'node:crypto';
import type { Queryable } from '../../db/db.ts';
import { decryptBankValue, encryptBankValue, parseBankKey } from '../vendor-bank-crypto.ts';

/**
 * OIDC client secrets encrypted at rest, the way vendor bank numbers are
 * (auth/vendor-bank-crypto.ts: AES-256-GCM, a fresh nonce per value, the provider id as
 * additional data so a ciphertext copied to another provider's row fails to open). The key:
 * SSO_SECRET_KEY (32 bytes, hex or base64) when set, else one random key kept in server_keys.
 */
const KEY_NAME = 'sso_client_secret';

async function loadSsoSecretKey(db: Queryable, envKey = process.env.SSO_SECRET_KEY): Promise<Buffer> {
  if (envKey) return parseBankKey(envKey);
  await db.query('INSERT INTO server_keys (name, secret) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    KEY_NAME, randomBytes(32).toString('base64'),
  ]);
  const [row] = await db.query<{ secret: string }>('SELECT secret FROM server_keys WHERE name = $1', [KEY_NAME]);
  if (!row) throw new Error('SSO secret key missing from server_keys');
  return parseBankKey(row.secret);
}

const context = (providerId: string) => `sso_provider:${providerId}:client_secret`;

export async function encryptClientSecret(db: Queryable, providerId: string, secret: string): Promise<string> {
  return encryptBankValue(await loadSsoSecretKey(db), secret, context(providerId));
}

export async function decryptClientSecret(db: Queryable, providerId: string, stored: string): Promise<string> {
  return decryptBankValue(await loadSsoSecretKey(db), stored, context(providerId));
}
