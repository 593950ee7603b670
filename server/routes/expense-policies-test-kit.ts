import { createHash, randomUUID } from 'node:crypto';
import type { ExpensePolicyInput, ExpensePolicyRules } from '../../schema/expense-policy.ts';
import type { Queryable } from '../db/db.ts';
import type { Fixture, FixtureRole } from '../test-fixtures.ts';

/** Test support for the expense-policy routes (issue 29): rows put in place through SQL, policy bodies. */

export const rules = (over: Partial<ExpensePolicyRules> = {}): ExpensePolicyRules => ({
  receipt_required_from: null, memo_required_above: null, coding_required: { gl_account: false, department: false, location: false },
  category_caps: [], blocked_categories: [], per_diem: null, mileage: null, ...over,
});

export const policyBody = (over: Partial<ExpensePolicyInput> = {}): ExpensePolicyInput => ({
  name: 'Company expense policy', description: null, scope: { kind: 'everyone' },
  rules: rules({ receipt_required_from: { amount: 7500, currency: 'USD' }, memo_required_above: { amount: 7500, currency: 'USD' } }),
  enabled: true, ...over,
});

export type TxSpec = {
  amount: number; at: string; currency?: string; state?: string; memo?: string | null; category?: string;
  gl?: string | null; department?: string | null; location?: string | null; synced?: boolean; merchant?: string;
};

/** A card transaction of `role`'s card, stamped with the business's next seq; answers its id. */
export async function insertTx(db: Queryable, f: Fixture, role: FixtureRole, s: TxSpec): Promise<string> {
  const id = randomUUID();
  await db.query(
    `WITH seq AS (UPDATE businesses SET change_seq = change_seq + 1 WHERE id = $2 RETURNING change_seq)
     INSERT INTO transactions (id, business_id, card_id, user_id, merchant_name, merchant_category, amount, currency, occurred_at, state, memo,
                               gl_account_id, department_id, location_id, accounting_synced_at, change_seq)
     SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, change_seq FROM seq`,
    [id, f.businessId, f.cards[role], f.users[role], s.merchant ?? 'Blue Bottle Coffee', s.category ?? 'Restaurants', s.amount, s.currency ?? 'USD',
      s.at, s.state ?? 'CLEARED', s.memo ?? null, s.gl ?? null, s.department ?? null, s.location ?? null, s.synced ? s.at : null],
  );
  return id;
}

export type ClaimSpec = {
  amount: number; date: string; type?: 'OUT_OF_POCKET' | 'MILEAGE' | 'PER_DIEM'; status?: string; memo?: string | null;
  receipts?: string[]; merchant?: string | null; gl?: string | null; department?: string | null;
};

export async function insertClaim(db: Queryable, f: Fixture, role: FixtureRole, s: ClaimSpec): Promise<string> {
  const id = randomUUID();
  const type = s.type ?? 'OUT_OF_POCKET';
  await db.query(
    `WITH seq AS (UPDATE businesses SET change_seq = change_seq + 1 WHERE id = $2 RETURNING change_seq)
     INSERT INTO reimbursements (id, business_id, user_id, type, status, merchant, amount, currency, transaction_date, memo, receipt_ids,
                                 gl_account_id, department_id, distance_miles, start_location, end_location, trip_date, location, start_date, end_date,
                                 change_seq)
     SELECT $1, $2, $3, $4, $5, $6, $7, 'USD', $8::date, $9, $10::uuid[], $11, $12, $13, $14, $15, $16, $17, $18, $19, change_seq FROM seq`,
    [id, f.businessId, f.users[role], type, s.status ?? 'DRAFT', s.merchant === undefined ? (type === 'OUT_OF_POCKET' ? 'Office Depot' : null) : s.merchant,
      s.amount, s.date, s.memo ?? null, s.receipts ?? [], s.gl ?? null, s.department ?? null,
      type === 'MILEAGE' ? 12 : null, type === 'MILEAGE' ? 'Home' : null, type === 'MILEAGE' ? 'Office' : null, type === 'MILEAGE' ? s.date : null,
      type === 'PER_DIEM' ? 'Chicago' : null, type === 'PER_DIEM' ? s.date : null, type === 'PER_DIEM' ? s.date : null],
  );
  return id;
}

/** A receipt uploaded by `role` and attached to a transaction. */
export async function attachReceipt(db: Queryable, f: Fixture, role: FixtureRole, transactionId: string): Promise<string> {
  const id = randomUUID();
  await db.query(
    `INSERT INTO receipts (id, business_id, user_id, content_type, size, sha256, bytes) VALUES ($1, $2, $3, 'application/pdf', 9, $4, $5)`,
    [id, f.businessId, f.users[role], createHash('sha256').update(id).digest('hex'), new TextEncoder().encode('%PDF-1.7\n')],
  );
  await db.query('INSERT INTO transaction_receipts (transaction_id, receipt_id, business_id, attached_by) VALUES ($1, $2, $3, $4)',
    [transactionId, id, f.businessId, f.users[role]]);
  return id;
}
