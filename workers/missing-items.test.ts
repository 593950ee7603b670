import { describe, expect, it } from 'vitest';
import { expensePolicySchema, type ExpensePolicy } from '../schema/entities/expense-policy.ts';
import { reimbursementSchema, type Reimbursement } from '../schema/entities/reimbursement.ts';
import { defaultPolicyRules, type ExpensePolicyRules } from '../schema/expense-policy.ts';
import { missingItemsOf } from './missing-items.ts';
import { BUSINESS_ID, makeTransaction, makeUser, testUuid } from './test-fixtures.ts';

const ME = makeUser(1, 'Emma', 'Employee');
const OTHER = makeUser(2, 'Olga', 'Other');
const mirrored = { business_id: BUSINESS_ID, change_seq: 1, updated_at: '2026-01-01T00:00:00.000Z', deleted: false };

function policy(n: number, rules: Partial<ExpensePolicyRules> = {}, over: Partial<ExpensePolicy> = {}): ExpensePolicy {
  return expensePolicySchema.parse({
    id: testUuid(0x29, n), name: `Policy ${n}`, description: null, scope: { kind: 'everyone' }, rules: { ...defaultPolicyRules(), ...rules },
    enabled: true, created_by: ME.id, created_at: `2026-01-0${n}T00:00:00.000Z`, updated_by: null, ...mirrored, ...over,
  });
}

function claim(n: number, over: Partial<Reimbursement> = {}): Reimbursement {
  return reimbursementSchema.parse({
    id: testUuid(9, n), user_id: ME.id, type: 'OUT_OF_POCKET', status: 'DRAFT', merchant: 'Hotel', amount: 20000, currency: 'USD',
    transaction_date: '2025-06-02', memo: null, gl_account_id: null, department_id: null, distance_miles: null, start_location: null,
    end_location: null, trip_date: null, location: null, start_date: null, end_date: null, rejection_reason: null, receipt_ids: [],
    submitted_at: null, created_at: '2025-06-02T00:00:00.000Z', accounting_synced_at: null, ...mirrored, ...over,
  });
}

const txn = (n: number, over: Parameters<typeof makeTransaction>[0] = {}) => makeTransaction({ id: testUuid(1, n), user_id: ME.id, amount: 10000, ...over });
const run = (transactions: ReturnType<typeof txn>[], claims: Reimbursement[] = [], policies = [policy(1)]) =>
  missingItemsOf({ userId: ME.id, transactions, claims, policies, users: [ME, OTHER] });

describe('missingItemsOf (the wizard list from the mirror)', () => {
  it.each([
    ['a 100 USD charge without a receipt', txn(1), ['missing_receipt']],
    ['a 74.99 USD charge (under the 75 USD threshold)', txn(1, { amount: 7499 }), []],
    ['exactly 75 USD', txn(1, { amount: 7500 }), ['missing_receipt']],
    ['a charge with a receipt', txn(1, { receipt_ids: [testUuid(5, 1)] }), []],
    ['a declined charge', txn(1, { state: 'DECLINED' }), []],
    ['a refund', txn(1, { amount: -10000 }), []],
    ['a charge exported to accounting', txn(1, { accounting_synced_at: '2025-06-03T00:00:00.000Z' }), []],
    ['someone else’s charge', txn(1, { user_id: OTHER.id }), []],
    ['a charge in another currency than the threshold', txn(1, { currency: 'EUR' }), []],
  ])('%s', (_name, t, codes) => {
    const items = run([t]);
    expect(items.flatMap((i) => i.violations.map((v) => v.code))).toEqual(codes);
  });

  it('lists claims only while the claimant can edit them (DRAFT, REJECTED), with their type in words when no merchant', () => {
    const items = run([], [
      claim(1, { status: 'DRAFT' }), claim(2, { status: 'REJECTED', merchant: null }), claim(3, { status: 'SUBMITTED' }), claim(4, { status: 'CANCELED' }),
    ]);
    expect(items.map((i) => [i.object_id, i.merchant])).toEqual([[testUuid(9, 2), 'Out-of-pocket expense'], [testUuid(9, 1), 'Hotel']]);
  });

  it('keeps only what the person can fix, in the wizard’s order, and newest first', () => {
    const rules: Partial<ExpensePolicyRules> = {
      memo_required_above: { amount: 5000, currency: 'USD' },
      coding_required: { gl_account: true, department: false, location: false },
      category_caps: [{ merchant_category: 'Restaurants', currency: 'USD', per_transaction: 5000, per_day: null }],
    };
    const items = run([txn(1, { occurred_at: '2025-06-01T10:00:00.000Z' }), txn(2, { occurred_at: '2025-06-03T10:00:00.000Z' })], [], [policy(1, rules)]);
    expect(items.map((i) => i.object_id)).toEqual([testUuid(1, 2), testUuid(1, 1)]);
    expect(items[0]!.violations.map((v) => v.code)).toEqual(['missing_receipt', 'missing_memo', 'missing_coding']);
    expect(items[0]!.violations.find((v) => v.code === 'missing_coding')?.fields).toEqual(['gl_account_id']);
  });

  it('a fixed item leaves the list: a receipt and a memo clear it', () => {
    const rules = { memo_required_above: { amount: 7500, currency: 'USD' } };
    expect(run([txn(1)], [], [policy(1, rules)])).toHaveLength(1);
    expect(run([txn(1, { receipt_ids: [testUuid(5, 1)], memo: 'Team lunch' })], [], [policy(1, rules)])).toEqual([]);
  });

  it('follows the policy’s scope: a department policy misses people of other departments; a disabled one applies to no one', () => {
    const dept = testUuid(3, 1);
    expect(run([txn(1)], [], [policy(1, {}, { scope: { kind: 'departments', department_ids: [dept] } })])).toEqual([]);
    const mine = missingItemsOf({ userId: ME.id, transactions: [txn(1)], claims: [], policies: [policy(1, {}, { scope: { kind: 'departments', department_ids: [dept] } })], users: [{ ...ME, department_id: dept }] });
    expect(mine).toHaveLength(1);
    expect(run([txn(1)], [], [policy(1, {}, { enabled: false })])).toEqual([]);
  });

  it('names the oldest policy when two ask for the same thing, whatever order the mirror holds them in', () => {
    const older = policy(1, {}, { name: 'Older' });
    const newer = policy(2, {}, { name: 'Newer' });
    expect(run([txn(1)], [], [newer, older])[0]!.violations.map((v) => v.policy_name)).toEqual(['Older']);
  });
});
