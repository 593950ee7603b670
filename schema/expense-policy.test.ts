import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  claimMerchant, defaultPolicyRules, evaluatePolicies, fixableViolations, inWizardClaim, inWizardTransaction, itemKey, policyAppliesTo,
  policyItemFromReimbursement, policyItemFromTransaction, policyProblems, type EvaluatedPolicy, type ExpensePolicyRules, type PolicyItem,
  type PolicyPerson, type Violation,
} from './expense-policy.ts';

/**
 * The one evaluator (issue 29): each rule table-driven (its boundary on both sides), scopes,
 * items, contradictions; and properties over random items and policies: the answer does not depend
 * on the order of the items, is the same when run twice, and a fixable violation is raised exactly
 * when its rule's words say it should be.
 */
const U1 = '00000000-0000-4000-8000-000000000001';
const U2 = '00000000-0000-4000-8000-000000000002';
const D1 = '00000000-0000-4000-8000-0000000000d1';
const D2 = '00000000-0000-4000-8000-0000000000d2';
const P1 = '00000000-0000-4000-8000-0000000000a1';
const P2 = '00000000-0000-4000-8000-0000000000a2';

const rules = (over: Partial<ExpensePolicyRules> = {}): ExpensePolicyRules => ({ ...defaultPolicyRules(), receipt_required_from: null, ...over });
const policy = (over: Partial<ExpensePolicyRules> = {}, extra: Partial<EvaluatedPolicy> = {}): EvaluatedPolicy => ({
  id: P1, name: 'Company policy', enabled: true, scope: { kind: 'everyone' }, rules: rules(over), ...extra,
});
const people = new Map<string, PolicyPerson>([
  [U1, { id: U1, role: 'BUSINESS_USER', department_id: D1 }],
  [U2, { id: U2, role: 'BUSINESS_ADMIN', department_id: null }],
]);
let n = 0;
const tx = (over: Partial<PolicyItem> = {}): PolicyItem => ({
  object_type: 'transaction', id: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`, user_id: U1, amount: 10000, currency: 'USD',
  date: '2026-11-18', merchant_category: 'Restaurants', memo: null, receipt_count: 0, gl_account_id: null, department_id: null,
  location_id: null, ...over,
});
const claim = (over: Partial<PolicyItem> = {}): PolicyItem => tx({ object_type: 'reimbursement', merchant_category: null, claim_type: 'OUT_OF_POCKET', location_id: undefined, ...over });
const codesOf = (item: PolicyItem, ps: EvaluatedPolicy[], others: PolicyItem[] = []) =>
  (evaluatePolicies([item, ...others], ps, people).get(itemKey(item)) ?? []).map((v) => v.code);

describe('each rule', () => {
  it.each([
    ['receipt at the threshold', { receipt_required_from: { amount: 7500, currency: 'USD' } }, tx({ amount: 7500 }), ['missing_receipt']],
    ['receipt one cent below', { receipt_required_from: { amount: 7500, currency: 'USD' } }, tx({ amount: 7499 }), []],
    ['receipt attached', { receipt_required_from: { amount: 7500, currency: 'USD' } }, tx({ receipt_count: 1 }), []],
    ['receipt in another currency', { receipt_required_from: { amount: 7500, currency: 'USD' } }, tx({ currency: 'EUR' }), []],
    ['receipt on a mileage claim', { receipt_required_from: { amount: 0, currency: 'USD' } }, claim({ claim_type: 'MILEAGE' }), []],
    ['receipt on an out-of-pocket claim', { receipt_required_from: { amount: 0, currency: 'USD' } }, claim(), ['missing_receipt']],
    ['memo at the threshold', { memo_required_above: { amount: 10000, currency: 'USD' } }, tx({ amount: 10000 }), []],
    ['memo one cent above', { memo_required_above: { amount: 10000, currency: 'USD' } }, tx({ amount: 10001 }), ['missing_memo']],
    ['memo of whitespace', { memo_required_above: { amount: 0, currency: 'USD' } }, tx({ memo: ' \u00a0\n' }), ['missing_memo']],
    ['memo written', { memo_required_above: { amount: 0, currency: 'USD' } }, tx({ memo: 'Lunch' }), []],
    ['coding missing', { coding_required: { gl_account: true, department: true, location: true } }, tx(), ['missing_coding']],
    ['coding complete', { coding_required: { gl_account: true, department: true, location: false } }, tx({ gl_account_id: D1, department_id: D1 }), []],
    ['location on a claim', { coding_required: { gl_account: false, department: false, location: true } }, claim(), []],
    ['cap per transaction at the cap', { category_caps: [{ merchant_category: 'restaurants ', currency: 'USD', per_transaction: 10000, per_day: null }] }, tx(), []],
    ['cap per transaction above', { category_caps: [{ merchant_category: 'Restaurants', currency: 'USD', per_transaction: 9999, per_day: null }] }, tx(), ['over_cap']],
    ['cap in another currency', { category_caps: [{ merchant_category: 'Restaurants', currency: 'EUR', per_transaction: 1, per_day: null }] }, tx(), []],
    ['blocked category', { blocked_categories: ['RESTAURANTS'] }, tx(), ['blocked_category']],
    ['category rules skip claims', { blocked_categories: ['Restaurants'] }, claim({ merchant_category: null }), []],
    ['per diem within', { per_diem: { max_per_day: { amount: 5000, currency: 'USD' } } }, claim({ claim_type: 'PER_DIEM', amount: 15000, days: 3 }), []],
    ['per diem above', { per_diem: { max_per_day: { amount: 5000, currency: 'USD' } } }, claim({ claim_type: 'PER_DIEM', amount: 15003, days: 3 }), ['over_per_diem']],
    ['mileage at the cap', { mileage: { max_miles_per_claim: 100 } }, claim({ claim_type: 'MILEAGE', distance_miles: 100 }), []],
    ['mileage above', { mileage: { max_miles_per_claim: 100 } }, claim({ claim_type: 'MILEAGE', distance_miles: 100.5 }), ['over_mileage']],
  ] as const)('%s', (_name, over, item, expected) => {
    expect(codesOf(item, [policy(over as Partial<ExpensePolicyRules>)])).toEqual(expected);
  });

  it('sums a person\'s items of one category, currency and UTC day for the cap per day, and flags each of them', () => {
    const p = policy({ category_caps: [{ merchant_category: 'Restaurants', currency: 'USD', per_transaction: null, per_day: 15000 }] });
    const a = tx({ amount: 10000 });
    const b = tx({ amount: 6000 });
    const otherDay = tx({ amount: 6000, date: '2026-11-19' });
    const otherPerson = tx({ amount: 6000, user_id: U2 });
    const otherCurrency = tx({ amount: 6000, currency: 'EUR' });
    expect(codesOf(a, [p])).toEqual([]);
    const found = evaluatePolicies([a, b, otherDay, otherPerson, otherCurrency], [p], people);
    expect([a, b, otherDay, otherPerson, otherCurrency].map((i) => found.get(itemKey(i))?.map((v) => v.code) ?? [])).toEqual([
      ['over_daily_cap'], ['over_daily_cap'], [], [], [],
    ]);
    expect(found.get(itemKey(a))![0]!.message).toBe('Restaurants is capped at $150.00 per day: $160.00 was spent on 2026-11-18.');
  });

  it('says each violation in words with the figures, and names the fields coding misses', () => {
    const [v] = evaluatePolicies([tx({ amount: 12345 })], [policy({ receipt_required_from: { amount: 7500, currency: 'USD' } })], people).values().next().value!;
    expect(v).toEqual<Violation>({
      code: 'missing_receipt', policy_id: P1, policy_name: 'Company policy', limit: { amount: 7500, currency: 'USD' },
      message: 'A receipt is required from $75.00: this is $123.45.',
    });
    const coding = evaluatePolicies([tx({ gl_account_id: D1 })], [policy({ coding_required: { gl_account: true, department: true, location: true } })], people);
    expect([...coding.values()][0]![0]).toMatchObject({ fields: ['department_id', 'location_id'], message: 'Coding is required: add a department and a location.' });
  });
});

describe('scopes and several policies', () => {
  it('applies a policy by everyone, department or role, enabled only', () => {
    const u1 = people.get(U1)!;
    const u2 = people.get(U2)!;
    expect(policyAppliesTo(policy({}, { scope: { kind: 'departments', department_ids: [D1] } }), u1)).toBe(true);
    expect(policyAppliesTo(policy({}, { scope: { kind: 'departments', department_ids: [D2] } }), u1)).toBe(false);
    expect(policyAppliesTo(policy({}, { scope: { kind: 'departments', department_ids: [D1] } }), u2)).toBe(false);
    expect(policyAppliesTo(policy({}, { scope: { kind: 'roles', roles: ['BUSINESS_ADMIN'] } }), u2)).toBe(true);
    expect(policyAppliesTo(policy({}, { scope: { kind: 'roles', roles: ['BUSINESS_ADMIN'] } }), u1)).toBe(false);
    expect(policyAppliesTo(policy({}, { enabled: false }), u1)).toBe(false);
    expect(policyAppliesTo(policy(), undefined)).toBe(false);
  });

  it('raises one violation per code: the first policy in the order given wins', () => {
    const strict = policy({ receipt_required_from: { amount: 1000, currency: 'USD' } }, { id: P2, name: 'Strict' });
    const loose = policy({ receipt_required_from: { amount: 5000, currency: 'USD' }, memo_required_above: { amount: 0, currency: 'USD' } });
    const [vs] = [...evaluatePolicies([tx()], [strict, loose], people).values()];
    expect(vs!.map((v) => [v.code, v.policy_name])).toEqual([['missing_receipt', 'Strict'], ['missing_memo', 'Company policy']]);
  });

  it('orders fixable violations receipt, memo, coding and drops the rest', () => {
    const p = policy({
      coding_required: { gl_account: true, department: false, location: false }, memo_required_above: { amount: 0, currency: 'USD' },
      receipt_required_from: { amount: 0, currency: 'USD' }, blocked_categories: ['Restaurants'],
    });
    const [vs] = [...evaluatePolicies([tx()], [p], people).values()];
    expect(vs!.map((v) => v.code)).toEqual(['missing_receipt', 'missing_memo', 'missing_coding', 'blocked_category']);
    expect(fixableViolations([...vs!].reverse()).map((v) => v.code)).toEqual(['missing_receipt', 'missing_memo', 'missing_coding']);
  });
});

describe('items, the wizard\'s eligibility and contradictions', () => {
  const base = {
    id: U1, user_id: U1, amount: 100, currency: 'USD', occurred_at: '2026-11-18T23:30:00-05:00', state: 'CLEARED', merchant_category: '',
    memo: null, receipt_ids: [], gl_account_id: null, department_id: null, location_id: null,
  };
  it('reads only spend: pending or cleared purchases, claims not canceled; the day is UTC', () => {
    expect(policyItemFromTransaction(base)).toMatchObject({ date: '2026-11-19', merchant_category: null, receipt_count: 0 });
    expect(policyItemFromTransaction({ ...base, state: 'DECLINED' })).toBeNull();
    expect(policyItemFromTransaction({ ...base, amount: -100 })).toBeNull();
    const c = {
      id: U1, user_id: U1, amount: 9000, currency: 'USD', transaction_date: '2026-11-10', status: 'DRAFT', type: 'PER_DIEM' as const, memo: null,
      receipt_ids: [], gl_account_id: null, department_id: null, distance_miles: null, start_date: '2026-11-10', end_date: '2026-11-12',
    };
    expect(policyItemFromReimbursement(c)).toMatchObject({ days: 3, claim_type: 'PER_DIEM', date: '2026-11-10' });
    expect(policyItemFromReimbursement({ ...c, status: 'CANCELED' })).toBeNull();
    expect(inWizardTransaction({ ...base, accounting_synced_at: null })).toBe(true);
    expect(inWizardTransaction({ ...base, accounting_synced_at: '2026-11-19T00:00:00Z' })).toBe(false);
    expect(inWizardTransaction({ ...base, state: 'REVERSED' })).toBe(false);
    expect(['DRAFT', 'REJECTED', 'SUBMITTED', 'APPROVED'].map((status) => inWizardClaim({ status, amount: 1 }))).toEqual([true, true, false, false]);
    expect([claimMerchant({ merchant: ' Staples ', type: 'OUT_OF_POCKET' }), claimMerchant({ merchant: null, type: 'PER_DIEM' })]).toEqual(['Staples', 'Per diem']);
  });

  it('names each contradiction by its field, both problems of one cap together', () => {
    expect(policyProblems(rules())).toEqual({});
    expect(policyProblems(rules({
      category_caps: [
        { merchant_category: 'Travel', currency: 'USD', per_transaction: 500, per_day: 100 },
        { merchant_category: 'Meals', currency: 'USD', per_transaction: null, per_day: null },
        { merchant_category: 'travel', currency: 'USD', per_transaction: 50, per_day: null },
        { merchant_category: 'Travel', currency: 'EUR', per_transaction: 50, per_day: null },
      ],
      blocked_categories: ['Travel', 'Gambling', 'gambling'],
    }))).toEqual({
      'rules.category_caps.0.per_transaction': 'The cap per transaction ($5.00) is above the cap per day ($1.00) for Travel.',
      'rules.category_caps.0.merchant_category': 'Travel is blocked: a cap on it would never apply.',
      'rules.category_caps.1': 'Set a cap per transaction or per day for Meals.',
      'rules.category_caps.2.merchant_category': 'travel already has a cap in USD (rule 1). travel is blocked: a cap on it would never apply.',
      'rules.category_caps.3.merchant_category': 'Travel is blocked: a cap on it would never apply.',
      'rules.blocked_categories.2': 'gambling is listed twice.',
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Properties

const money = fc.record({ amount: fc.integer({ min: 0, max: 20000 }), currency: fc.constantFrom('USD', 'EUR') });
const rulesArb: fc.Arbitrary<ExpensePolicyRules> = fc.record({
  receipt_required_from: fc.option(money, { nil: null }),
  memo_required_above: fc.option(money, { nil: null }),
  coding_required: fc.record({ gl_account: fc.boolean(), department: fc.boolean(), location: fc.boolean() }),
  category_caps: fc.array(fc.record({
    merchant_category: fc.constantFrom('Restaurants', 'Travel'), currency: fc.constantFrom('USD', 'EUR'),
    per_transaction: fc.option(fc.integer({ min: 1, max: 20000 }), { nil: null }), per_day: fc.option(fc.integer({ min: 1, max: 40000 }), { nil: null }),
  }), { maxLength: 2 }),
  blocked_categories: fc.array(fc.constantFrom('Software', 'Gambling'), { maxLength: 1 }),
  per_diem: fc.option(fc.record({ max_per_day: fc.record({ amount: fc.integer({ min: 1, max: 10000 }), currency: fc.constant('USD') }) }), { nil: null }),
  mileage: fc.option(fc.record({ max_miles_per_claim: fc.integer({ min: 1, max: 500 }) }), { nil: null }),
});
const policiesArb = fc.array(fc.record({
  rules: rulesArb, enabled: fc.boolean(),
  scope: fc.constantFrom<EvaluatedPolicy['scope']>({ kind: 'everyone' }, { kind: 'departments', department_ids: [D1] }, { kind: 'roles', roles: ['BUSINESS_ADMIN'] }),
}), { maxLength: 3 }).map((ps) => ps.map((p, i) => ({ ...p, id: `00000000-0000-4000-8000-0000000000b${i}`, name: `Policy ${i}` })));
const itemArb = fc.record({
  kind: fc.constantFrom('transaction', 'reimbursement'), user: fc.constantFrom(U1, U2), amount: fc.integer({ min: 1, max: 30000 }),
  currency: fc.constantFrom('USD', 'EUR'), day: fc.integer({ min: 1, max: 3 }), category: fc.constantFrom('Restaurants', 'Travel', 'Software'),
  memo: fc.constantFrom(null, '', ' ', 'Lunch'), receipts: fc.integer({ min: 0, max: 1 }), gl: fc.boolean(), dept: fc.boolean(), loc: fc.boolean(),
  claimType: fc.constantFrom('OUT_OF_POCKET', 'MILEAGE', 'PER_DIEM'), miles: fc.integer({ min: 1, max: 600 }), days: fc.integer({ min: 1, max: 4 }),
});
const itemsArb = fc.array(itemArb, { maxLength: 25 }).map((xs) => xs.map((x, i): PolicyItem => {
  const common = {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, user_id: x.user, amount: x.amount, currency: x.currency, date: `2026-11-0${x.day}`,
    memo: x.memo, receipt_count: x.receipts, gl_account_id: x.gl ? D1 : null, department_id: x.dept ? D1 : null,
  };
  return x.kind === 'transaction'
    ? { ...common, object_type: 'transaction', merchant_category: x.category, location_id: x.loc ? D1 : null }
    : { ...common, object_type: 'reimbursement', merchant_category: null, claim_type: x.claimType as PolicyItem['claim_type'],
      distance_miles: x.claimType === 'MILEAGE' ? x.miles : null, ...(x.claimType === 'PER_DIEM' ? { days: x.days } : {}) };
}));
const asObject = (m: Map<string, Violation[]>) => Object.fromEntries([...m].sort(([a], [b]) => a.localeCompare(b)));

describe('properties', () => {
  it('is deterministic and independent of the order of the items', () => {
    fc.assert(fc.property(itemsArb, policiesArb, fc.integer(), (items, policies, seed) => {
      const once = asObject(evaluatePolicies(items, policies, people));
      expect(asObject(evaluatePolicies(items, policies, people))).toEqual(once);
      const shuffled = [...items].sort((a, b) => ((a.id.charCodeAt(35) * 31 + seed) % 97) - ((b.id.charCodeAt(35) * 31 + seed) % 97));
      expect(asObject(evaluatePolicies(shuffled, policies, people))).toEqual(once);
    }), { numRuns: 300 });
  });

  it('raises a fixable violation exactly when one applying policy\'s rule says so', () => {
    fc.assert(fc.property(itemsArb, policiesArb, (items, policies) => {
      const found = evaluatePolicies(items, policies, people);
      for (const item of items) {
        const applying = policies.filter((p) => policyAppliesTo(p, people.get(item.user_id)));
        const receipt = (item.object_type === 'transaction' || item.claim_type === 'OUT_OF_POCKET') && item.receipt_count === 0
          && applying.some((p) => p.rules.receipt_required_from?.currency === item.currency && item.amount >= p.rules.receipt_required_from.amount);
        const memo = !(item.memo ?? '').trim()
          && applying.some((p) => p.rules.memo_required_above?.currency === item.currency && item.amount > p.rules.memo_required_above.amount);
        const coding = applying.some((p) => (p.rules.coding_required.gl_account && !item.gl_account_id)
          || (p.rules.coding_required.department && !item.department_id) || (p.rules.coding_required.location && item.location_id === null));
        const expected = [receipt && 'missing_receipt', memo && 'missing_memo', coding && 'missing_coding'].filter(Boolean);
        expect(fixableViolations(found.get(itemKey(item)) ?? []).map((v) => v.code)).toEqual(expected);
      }
    }), { numRuns: 300 });
  });
});
