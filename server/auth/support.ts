import { randomUUID } from 'node:crypto';
import type { Db } from '../db/db.ts';
import { allocateSeqs } from '../db/change-seq.ts';
import { hashPassword, type ScryptParams } from './password.ts';

export const SUPPORT_EMAIL = 'support@ledgerline.test';

/**
 * The admin-support identity (is_support) that may impersonate users. It signs in like anyone,
 * so it gets a spend user in its own small "Ledgerline Support" business. Idempotent.
 */
export async function ensureSupportIdentity(db: Db, password: string, scrypt?: ScryptParams): Promise<string> {
  const [existing] = await db.query<{ id: string }>('SELECT id FROM identities WHERE lower(email) = lower($1)', [SUPPORT_EMAIL]);
  if (existing) return existing.id;
  const hash = await hashPassword(password, scrypt);
  return db.transaction(async (tx) => {
    const identityId = randomUUID();
    const businessId = randomUUID();
    await tx.query('INSERT INTO businesses (id, name, currency) VALUES ($1, $2, $3)', [businessId, 'Ledgerline Support', 'USD']);
    await tx.query('INSERT INTO identities (id, email, password_hash, ofac_status, is_support) VALUES ($1, $2, $3, $4, true)', [
      identityId, SUPPORT_EMAIL, hash, 'PASSED',
    ]);
    const seqs = await allocateSeqs(tx, businessId, 1);
    await tx.query(
      `INSERT INTO spend_users (id, business_id, identity_id, role, first_name, last_name, email, change_seq)
       VALUES ($1, $2, $3, 'BUSINESS_ADMIN', 'Ledgerline', 'Support', $4, $5)`,
      [randomUUID(), businessId, identityId, SUPPORT_EMAIL, seqs?.first ?? 1],
    );
    return identityId;
  });
}
