import { randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../db/db.ts';
import { allocateSeqs } from '../db/change-seq.ts';
import { hashPassword, type ScryptParams } from '../auth/password.ts';
import { DEMO_PASSWORD } from './types.ts';

export const SUPPORT_EMAIL = 'support@ledgerline.test';
/** The shortest LEDGERLINE_SUPPORT_PASSWORD accepted. */
const SUPPORT_PASSWORD_MIN_LENGTH = 12;

/**
 * The support identity's password at seeding: LEDGERLINE_SUPPORT_PASSWORD when set (never a
 * published one: the demo password is refused, and anything shorter than 12), else 24 random
 * characters that the server log prints once. `generated` says which.
 */
export function supportPassword(fromEnv: string | undefined): { password: string; generated: boolean } {
  if (fromEnv === undefined || fromEnv === '') return { password: randomBytes(18).toString('base64url'), generated: true };
  if (fromEnv.length < SUPPORT_PASSWORD_MIN_LENGTH) {
    throw new Error(`LEDGERLINE_SUPPORT_PASSWORD must be at least ${SUPPORT_PASSWORD_MIN_LENGTH} characters.`);
  }
  if (fromEnv === DEMO_PASSWORD) throw new Error('LEDGERLINE_SUPPORT_PASSWORD must not be the published demo password.');
  return { password: fromEnv, generated: false };
}

/**
 * The demo's admin-support identity (is_support), which may impersonate a person of a business
 * only while that business grants support access (Settings → Support access). Created by the
 * demo seed only, never with a fixed password, and with `mfa_required`: its first sign-in must
 * enrol a second factor (bound to its mailbox, as every first enrolment) before it can do
 * anything. It signs in like anyone, so it gets an admin spend user in its own small "Ledgerline
 * Support" business. Returns null when it exists already (nothing changes).
 */
export async function seedSupportIdentity(db: Db, password: string, scrypt?: ScryptParams): Promise<string | null> {
  const [existing] = await db.query<{ id: string }>('SELECT id FROM identities WHERE lower(email) = lower($1)', [SUPPORT_EMAIL]);
  if (existing) return null;
  const hash = await hashPassword(password, scrypt);
  return db.transaction(async (tx) => {
    const identityId = randomUUID();
    const businessId = randomUUID();
    await tx.query('INSERT INTO businesses (id, name, currency) VALUES ($1, $2, $3)', [businessId, 'Ledgerline Support', 'USD']);
    await tx.query(
      `INSERT INTO identities (id, email, password_hash, ofac_status, is_support, mfa_required) VALUES ($1, $2, $3, $4, true, true)`,
      [identityId, SUPPORT_EMAIL, hash, 'PASSED'],
    );
    const seqs = await allocateSeqs(tx, businessId, 1);
    await tx.query(
      `INSERT INTO spend_users (id, business_id, identity_id, role, first_name, last_name, email, change_seq)
       VALUES ($1, $2, $3, 'BUSINESS_ADMIN', 'Ledgerline', 'Support', $4, $5)`,
      [randomUUID(), businessId, identityId, SUPPORT_EMAIL, seqs?.first ?? 1],
    );
    return identityId;
  });
}
