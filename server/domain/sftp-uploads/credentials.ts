import type { SftpCredentials } from '../../../schema/api/calls-sftp.ts';
import { decryptBankValue, encryptBankValue, loadServerKey } from '../../auth/vendor-bank-crypto.ts';
import type { Queryable } from '../../db/db.ts';

/**
 * SFTP credentials at rest: the password or private key (and its passphrase) AES-256-GCM encrypted
 * with the destination id and field as additional data (the vendor bank numbers' scheme), so a
 * ciphertext copied to another destination or field fails to open. The key: SFTP_CREDENTIALS_KEY
 * (32 bytes, hex or base64) when set, else one random key kept in server_keys.
 */
const KEY_NAME = 'sftp_credentials';

export type StoredCredentials = { auth_method: 'password' | 'private_key'; secret_enc: string; passphrase_enc: string | null };

const context = (destinationId: string, field: 'secret' | 'passphrase') => `sftp:${destinationId}:${field}`;

export function loadCredentialsKey(db: Queryable): Promise<Buffer> {
  return loadServerKey(db, KEY_NAME, process.env.SFTP_CREDENTIALS_KEY);
}

export async function sealCredentials(db: Queryable, destinationId: string, c: SftpCredentials): Promise<StoredCredentials> {
  const key = await loadCredentialsKey(db);
  if (c.method === 'password') {
    return { auth_method: 'password', secret_enc: encryptBankValue(key, c.password, context(destinationId, 'secret')), passphrase_enc: null };
  }
  return {
    auth_method: 'private_key',
    secret_enc: encryptBankValue(key, c.private_key, context(destinationId, 'secret')),
    passphrase_enc: c.passphrase ? encryptBankValue(key, c.passphrase, context(destinationId, 'passphrase')) : null,
  };
}

export async function openCredentials(db: Queryable, destinationId: string, s: StoredCredentials): Promise<SftpCredentials> {
  const key = await loadCredentialsKey(db);
  const secret = decryptBankValue(key, s.secret_enc, context(destinationId, 'secret'));
  if (s.auth_method === 'password') return { method: 'password', password: secret };
  const passphrase = s.passphrase_enc ? decryptBankValue(key, s.passphrase_enc, context(destinationId, 'passphrase')) : undefined;
  return { method: 'private_key', private_key: secret, ...(passphrase !== undefined && { passphrase }) };
}
