/**
 * An invite in flight, written straight into the test server's database for the integration
 * tests (the way an admin's invite leaves it, before it is accepted).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Queryable } from '../../server/db/db.ts';
import { hashToken, NO_PASSWORD } from '../../server/domain/admin-users.ts';

/** A person invited to the business who has not accepted yet (no password), with the invite's token (7 days). */
export async function insertInvitedUser(db: Queryable, businessId: string, email: string): Promise<{ userId: string; token: string }> {
  const identityId = randomUUID();
  const userId = randomUUID();
  const token = randomBytes(32).toString('base64url');
  await db.query('INSERT INTO identities (id, email, password_hash) VALUES ($1, $2, $3)', [identityId, email, NO_PASSWORD]);
  await db.query(
    `INSERT INTO spend_users (id, business_id, identity_id, role, first_name, last_name, email, status, change_seq, has_accepted_cardholder_agreement)
     VALUES ($1, $2, $3, 'BUSINESS_USER', 'New', 'Comer', $4, 'INVITED', 1, false)`,
    [userId, businessId, identityId, email],
  );
  await db.query(
    `INSERT INTO user_invites (id, business_id, user_id, token_hash, expires_at) VALUES ($1, $2, $3, $4, now() + interval '7 days')`,
    [randomUUID(), businessId, userId, hashToken(token)],
  );
  return { userId, token };
}
