import type { Queryable } from '../db/db.ts';
import { DEFAULT_RECEIPT_THRESHOLD, defaultPolicyRules, type ExpensePolicyRules } from '../../schema/expense-policy.ts';
import { Rng } from './prng.ts';
import type { DemoData } from './types.ts';

/**
 * The demo's expense policy (issue 29): "Company expense policy" for everyone, a receipt from
 * 75 USD and a memo above 75 USD, so the missing-items wizard of the demo people has items (their
 * card charges of 75 USD and more without a receipt or memo, not yet exported, and their draft or
 * rejected claims). Written by the demo admin when the business was created; takes the seq after
 * `afterSeq` and answers the last seq used.
 */
export const DEMO_POLICY_RULES: ExpensePolicyRules = {
  ...defaultPolicyRules(),
  receipt_required_from: { ...DEFAULT_RECEIPT_THRESHOLD },
  memo_required_above: { ...DEFAULT_RECEIPT_THRESHOLD },
};

export async function insertExpensePolicies(tx: Queryable, data: DemoData, afterSeq: number): Promise<number> {
  const admin = data.accounts.find((a) => a.role === 'BUSINESS_ADMIN');
  if (!admin) return afterSeq;
  const id = new Rng(0, `${data.business.id}\u0000expense-policies`).uuid();
  const seq = afterSeq + 1;
  await tx.query(
    `INSERT INTO expense_policies (id, business_id, name, description, scope, rules, enabled, created_by, created_at, updated_at, change_seq)
     VALUES ($1, $2, 'Company expense policy', $3, '{"kind":"everyone"}'::jsonb, $4::jsonb, true, $5, $6, $6, $7)`,
    [id, data.business.id, 'Receipts from $75.00 and a memo above $75.00 on every card charge and claim.', JSON.stringify(DEMO_POLICY_RULES),
      admin.user_id, data.business.created_at, seq],
  );
  return seq;
}
