import type { MissingItem } from '../schema/api/calls-expense-policies.ts';
import {
  claimMerchant, evaluatePolicies, evaluatorOrder, fixableViolations, inWizardClaim, inWizardTransaction, itemKey, policyItemFromReimbursement,
  policyItemFromTransaction, type PolicyItem, type PolicyPerson,
} from '../schema/expense-policy.ts';
import type { ExpensePolicy } from '../schema/entities/expense-policy.ts';
import type { Reimbursement } from '../schema/entities/reimbursement.ts';
import type { Transaction } from '../schema/entities/transaction.ts';
import type { UserRow } from '../schema/entities/spend-user.ts';

/**
 * The missing-items wizard's list (issue 29), from the mirror: what the server's
 * GET /users/current/missing-items answers, computed on the device with the same evaluator
 * (schema/expense-policy.ts), so it works offline and follows local edits at once.
 *
 * Eligible, as on the server: the person's own card transactions (PENDING or CLEARED, amount > 0,
 * not yet exported to accounting) and their editable claims (DRAFT, REJECTED:
 * schema/reimbursement-rules.ts `checkEditable`). Every spend item of the person is evaluated
 * (exported and submitted ones too) because per-day caps sum the whole day; only the eligible
 * ones with something the person can fix are listed, newest first.
 *
 * Not here: items a workflow's `require_receipt` marked below the policy's threshold. The mark is
 * server-side only (workflow_receipt_requirements; the mirrored transaction does not carry it, and
 * the action does not bump the transaction's feed seq), so the server's list is authoritative for
 * them and the wizard says so (missing-items-page.tsx).
 */

/** A listed item: the server's shape, plus what the wizard shows of a claim. */
export type MissingItemView = MissingItem & {
  /** Claims: the claim's type (no receipt step for mileage and per diem, no location). */
  claim_type: Reimbursement['type'] | null;
};

export const policyPeople = (users: readonly Pick<UserRow, 'id' | 'role' | 'department_id'>[]): Map<string, PolicyPerson> =>
  new Map(users.map((u) => [u.id, { id: u.id, role: u.role, department_id: u.department_id }]));

/** Newest purchase day first; ties by kind and id so the order is total (as the server's). */
function newestFirst(a: MissingItemView, b: MissingItemView): number {
  if (a.date !== b.date) return a.date < b.date ? 1 : -1;
  const ka = `${a.object_type}:${a.object_id}`;
  const kb = `${b.object_type}:${b.object_id}`;
  return ka < kb ? 1 : ka > kb ? -1 : 0;
}

export function missingItemsOf(input: {
  userId: string;
  transactions: readonly Transaction[];
  claims: readonly Reimbursement[];
  policies: readonly ExpensePolicy[];
  users: readonly Pick<UserRow, 'id' | 'role' | 'department_id'>[];
}): MissingItemView[] {
  const { userId } = input;
  const txns = input.transactions.filter((t) => t.user_id === userId);
  const claims = input.claims.filter((c) => c.user_id === userId);
  const items: PolicyItem[] = [];
  for (const t of txns) {
    const item = policyItemFromTransaction(t);
    if (item) items.push(item);
  }
  for (const c of claims) {
    const item = policyItemFromReimbursement(c);
    if (item) items.push(item);
  }
  const found = evaluatePolicies(items, evaluatorOrder(input.policies), policyPeople(input.users));
  if (found.size === 0) return [];
  const out: MissingItemView[] = [];
  for (const t of txns) {
    // The server's eligibility (schema/expense-policy.ts), one definition.
    if (!inWizardTransaction(t)) continue;
    const violations = fixableViolations(found.get(itemKey({ object_type: 'transaction', id: t.id })) ?? []);
    if (violations.length === 0) continue;
    out.push({
      object_type: 'transaction', object_id: t.id, date: new Date(t.occurred_at).toISOString().slice(0, 10), amount: t.amount,
      currency: t.currency, merchant: t.merchant_name, memo: t.memo, receipt_ids: [...t.receipt_ids], gl_account_id: t.gl_account_id,
      department_id: t.department_id, location_id: t.location_id, violations, claim_type: null,
    });
  }
  for (const c of claims) {
    if (!inWizardClaim(c)) continue;
    const violations = fixableViolations(found.get(itemKey({ object_type: 'reimbursement', id: c.id })) ?? []);
    if (violations.length === 0) continue;
    out.push({
      object_type: 'reimbursement', object_id: c.id, date: c.transaction_date, amount: c.amount, currency: c.currency,
      merchant: claimMerchant(c), memo: c.memo, receipt_ids: [...c.receipt_ids],
      gl_account_id: c.gl_account_id, department_id: c.department_id, location_id: null, violations, claim_type: c.type,
    });
  }
  return out.sort(newestFirst);
}
