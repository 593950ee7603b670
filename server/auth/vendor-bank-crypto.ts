import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Queryable } from '../db/db.ts';

/**
 * Vendor bank numbers encrypted at rest: AES-256-GCM (node:crypto), a fresh 12-byte nonce per
 * value, and the vendor id + field name as additional authenticated data, so a ciphertext copied
 * into another vendor's row, or from the routing column into the account column, fails to open
 * instead of paying the wrong account. Stored as `v1.<nonce>.<tag>.<ciphertext>` (base64url).
 *
 * The key: VENDOR_BANK_KEY (32 bytes, hex or base64) when set; otherwise one random key created
 * once in server_keys, like the token signing key, so every API process on the database agrees.
 * A key in the same database protects backups and logs of the table, not a stolen database; set
 * VENDOR_BANK_KEY (from a secret store) in production.
 */
const ALGORITHM = 'aes-256-gcm';
const KEY_NAME = 'vendor_bank';
const VERSION = 'v1';

export function parseBankKey(text: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) throw new Error('VENDOR_BANK_KEY must be 32 bytes, hex or base64');
  return key;
}

export async function loadVendorBankKey(db: Queryable, envKey = process.env.VENDOR_BANK_KEY): Promise<Buffer> {
  return loadServerKey(db, KEY_NAME, envKey);
}

/**
 * A 32-byte key: `envKey` when set, else the random one kept in server_keys under `name` (created
 * once, so every API process on the database agrees). Issue 27's traveller profiles use it too.
 */
export async function loadServerKey(db: Queryable, name: string, envKey: string | undefined): Promise<Buffer> {
  if (envKey) return parseBankKey(envKey);
  await db.query('INSERT INTO server_keys (name, secret) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    name, randomBytes(32).toString('base64'),
  ]);
  const rows = await db.query<{ secret: string }>('SELECT secret FROM server_keys WHERE name = $1', [name]);
  if (!rows[0]) throw new Error(`${name} key missing from server_keys`);
  return parseBankKey(rows[0].secret);
}

/** The context a vendor's bank number is encrypted under: its vendor and column. */
export const bankContext = (vendorId: string, field: 'routing_number' | 'account_number') => `vendor:${vendorId}:${field}`;

/** `context` names where the value belongs (vendor id and field); decrypt must be given the same. */
export function encryptBankValue(key: Buffer, plaintext: string, context: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv(ALGORITHM, key, nonce);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, nonce, cipher.getAuthTag(), body].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

/** Throws on a wrong key, a wrong context or any changed byte (GCM's tag), never returns garbage. */
export function decryptBankValue(key: Buffer, stored: string, context: string): string {
  const [version, nonce, tag, body] = stored.split('.');
  if (version !== VERSION || nonce === undefined || tag === undefined || body === undefined) throw new Error('not a vendor bank ciphertext');
  const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(nonce, 'base64url'));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
