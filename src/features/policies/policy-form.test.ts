import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../../schema/money.ts';
import { capErrors, liveProblems, newPolicyValues, policyInput, rulesSummary, valuesOf, type PolicyFormValues } from './policy-form.ts';

const base = (over: Partial<PolicyFormValues> = {}): PolicyFormValues => ({ ...newPolicyValues(), name: 'Company policy', ...over });
const cap = (over: Partial<PolicyFormValues['caps'][number]> = {}) => ({ category: 'Restaurants', currency: 'USD', perTransaction: '50', perDay: '100', ...over });

describe('the expense policy form', () => {
  it('starts from a receipt required from 75 USD for everyone', () => {
    const built = policyInput(base());
    expect(built).toMatchObject({ ok: true, body: { scope: { kind: 'everyone' }, rules: { receipt_required_from: { amount: 7500, currency: 'USD' }, memo_required_above: null } } });
  });

  it('round-trips a policy through the form', () => {
    const built = policyInput(base({ memo: { on: true, amount: '0', currency: 'USD' }, caps: [cap()], blocked: 'Gambling\nLiquor', mileage: { on: true, miles: '120' } }));
    if (!built.ok) throw new Error(JSON.stringify(built.errors));
    expect(valuesOf(built.body)).toEqual(base({ memo: { on: true, amount: '0.00', currency: 'USD' }, caps: [cap({ perTransaction: '50.00', perDay: '100.00' })], blocked: 'Gambling\nLiquor', mileage: { on: true, miles: '120' } }));
  });

  it.each([
    ['no name', base({ name: ' ' }), 'name'],
    ['a receipt threshold that is not money', base({ receipt: { on: true, amount: '7.5.0', currency: 'USD' } }), 'rules.receipt_required_from.amount'],
    ['departments with none picked', base({ scope: 'departments' }), 'scope.department_ids'],
    ['roles with none picked', base({ scope: 'roles' }), 'scope.roles'],
    ['a cap without a category', base({ caps: [cap({ category: '' })] }), 'rules.category_caps.0.merchant_category'],
    ['a cap per transaction above the cap per day (policyProblems)', base({ caps: [cap({ perTransaction: '200' })] }), 'rules.category_caps.0.per_transaction'],
    ['a cap with neither amount (policyProblems)', base({ caps: [cap({ perTransaction: '', perDay: '' })] }), 'rules.category_caps.0'],
    ['a capped category that is also blocked (policyProblems)', base({ caps: [cap()], blocked: 'restaurants' }), 'rules.category_caps.0.merchant_category'],
    ['mileage without a distance', base({ mileage: { on: true, miles: 'far' } }), 'rules.mileage.max_miles_per_claim'],
  ])('refuses %s under its field', (_name, values, field) => {
    const built = policyInput(values);
    expect(built.ok).toBe(false);
    if (!built.ok) expect(Object.keys(built.errors)).toContain(field);
  });

  it('shows contradictions live, before save, under the cap row', () => {
    const problems = liveProblems(base({ caps: [cap({ perTransaction: '200' })] }));
    expect(capErrors(problems, 0).perTransaction).toMatch(/above the cap per day/);
    expect(liveProblems(base({ caps: [cap()] }))).toEqual({});
  });

  it('sums a policy up in words', () => {
    const built = policyInput(base({ memo: { on: true, amount: '75', currency: 'USD' }, caps: [cap()] }));
    if (!built.ok) throw new Error('invalid');
    expect(rulesSummary(built.body.rules, formatMoney)).toBe('Receipt from $75.00 · Memo above $75.00 · 1 category cap');
  });
});
