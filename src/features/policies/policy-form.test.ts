import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../../schema/money.ts';
import { capErrors, liveProblems, newPolicyValues, policyConflictMessage, policyEdit, policyInput, rulesSummary, valuesOf, type PolicyFormValues } from './policy-form.ts';

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

  it('sends only what an edit changed (nothing: null), so a field left alone never overwrites another admin\'s change', () => {
    const opened = policyInput(base());
    const renamed = policyInput(base({ name: 'Travel policy' }));
    const stricter = policyInput(base({ memo: { on: true, amount: '0', currency: 'USD' } }));
    if (!opened.ok || !renamed.ok || !stricter.ok) throw new Error('the form did not build');
    expect(policyEdit(opened.body, opened.body)).toBeNull();
    expect(policyEdit(opened.body, renamed.body)).toEqual({ name: 'Travel policy' });
    expect(Object.keys(policyEdit(opened.body, stricter.body)!)).toEqual(['rules']);
  });

  it('says a conflict truthfully: who changed which part, to what, and the two ways on', () => {
    const opened = policyInput(base());
    if (!opened.ok) throw new Error('the form did not build');
    const by = { user_id: '00000000-0000-4000-8000-000000000001', name: 'Ana Admin' };
    const text = policyConflictMessage([
      { field: 'name', server_value: 'Travel and meals', your_value: 'Mine', changed_by: by, changed_at: 'not a time' },
      { field: 'rules', server_value: opened.body.rules, your_value: null, changed_by: null, changed_at: 'not a time' },
      { field: 'enabled', server_value: false, your_value: true, changed_by: by, changed_at: 'not a time' },
    ], formatMoney);
    expect(text).toBe('Ana Admin renamed it to “Travel and meals”. Someone changed the rules to: Receipt from $75.00. Ana Admin turned it off.'
      + ' Nothing of yours was saved. Save again to keep your version, or cancel to keep theirs.');
  });
});
