/**
 * Server-side facts for end-to-end assertions, read straight from the test server's database
 * (the `db` handle of server/testing.ts): what was stored, how often, with which keys.
 */
import type { Db } from '../../server/db/db.ts';

/** The business's change counter: every applied write takes one number per row it writes. */
export async function businessSeq(db: Db, businessId: string): Promise<number> {
  const rows = await db.query<{ seq: number }>('SELECT change_seq AS seq FROM businesses WHERE id = $1', [businessId]);
  return Number(rows[0]?.seq ?? Number.NaN);
}

/** Live transactions of the business, or of one cardholder. */
export async function countTransactions(db: Db, businessId: string, userId?: string): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM transactions
      WHERE business_id = $1 AND NOT deleted AND ($2::uuid IS NULL OR user_id = $2::uuid)`,
    [businessId, userId ?? null],
  );
  return Number(rows[0]?.n ?? 0);
}

export interface ChangedRow {
  id: string;
  gl_account_id: string | null;
  memo: string | null;
  change_seq: number;
}

/** Transactions written after `seq` (change_seq > seq), oldest write first. */
export async function rowsChangedAfter(db: Db, businessId: string, seq: number): Promise<ChangedRow[]> {
  const rows = await db.query<ChangedRow>(
    `SELECT id::text AS id, gl_account_id::text AS gl_account_id, memo, change_seq
       FROM transactions WHERE business_id = $1 AND change_seq > $2 ORDER BY change_seq`,
    [businessId, seq],
  );
  return rows.map((r) => ({ ...r, change_seq: Number(r.change_seq) }));
}

/** The newest live transactions by date (the top of the "Date ↓" table), with their cardholder's name. */
export async function newestTransactions(db: Db, businessId: string, n: number): Promise<{ merchant: string; cardholder: string; occurred_at: string }[]> {
  const rows = await db.query<{ merchant: string; cardholder: string; occurred_at: string | Date }>(
    `SELECT t.merchant_name AS merchant, trim(u.first_name || ' ' || u.last_name) AS cardholder, t.occurred_at
       FROM transactions t JOIN spend_users u ON u.id = t.user_id
      WHERE t.business_id = $1 AND NOT t.deleted ORDER BY t.occurred_at DESC, t.id LIMIT $2`,
    [businessId, n],
  );
  return rows.map((r) => ({ ...r, occurred_at: new Date(r.occurred_at).toISOString() }));
}

export async function userByEmail(db: Db, businessId: string, email: string): Promise<{ id: string; name: string; identityId: string }> {
  const rows = await db.query<{ id: string; name: string; identity_id: string }>(
    `SELECT id::text AS id, trim(first_name || ' ' || last_name) AS name, identity_id::text AS identity_id
       FROM spend_users WHERE business_id = $1 AND lower(email) = lower($2)`,
    [businessId, email],
  );
  const row = rows[0];
  if (!row) throw new Error(`no spend user ${email} in business ${businessId}`);
  return { id: row.id, name: row.name, identityId: row.identity_id };
}

/** The Idempotency-Key scope of a user's requests (server/http/register.ts: identity:business). */
export async function keyScope(db: Db, businessId: string, email: string): Promise<string> {
  const user = await userByEmail(db, businessId, email);
  return `${user.identityId}:${businessId}`;
}

export interface StoredKey {
  key: string;
  state: string;
  status: number | null;
}

/** Every stored Idempotency-Key of a scope, in the order the server first saw them. */
export async function idempotencyKeys(db: Db, scope: string): Promise<StoredKey[]> {
  return db.query<StoredKey>(
    'SELECT key, state, status FROM idempotency_keys WHERE scope = $1 ORDER BY created_at, key',
    [scope],
  );
}

/** The seed's GL account by code, and its label as the coding lists show it ("code name"). */
export async function glAccountByCode(db: Db, businessId: string, code: string) {
  const rows = await db.query<{ id: string; label: string }>(
    `SELECT id, code || ' ' || name AS label FROM gl_accounts WHERE business_id = $1 AND code = $2`,
    [businessId, code],
  );
  if (!rows[0]) throw new Error(`seed has no GL account ${code}`);
  return rows[0];
}
