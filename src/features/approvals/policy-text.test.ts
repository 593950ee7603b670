import { describe, expect, it } from 'vitest';
import type { PolicyStep } from '../../../schema/approval-policy.ts';
import { blankStep, conditionText, errorStep, policyChanges, stepText, toBody, toDraft, type PolicyNames } from './policy-text.ts';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const names: PolicyNames = {
  user: (u) => ({ [id(1)]: 'Ada Lovelace', [id(2)]: 'Grace Hopper' })[u] ?? '',
  vendor: (v) => ({ [id(10)]: 'Acme', [id(11)]: 'Globex' })[v] ?? '',
  department: (d) => (d === id(20) ? 'Finance' : ''),
  entity: () => '',
};
const manager: PolicyStep = { id: id(100), condition: null, approvers: { kind: 'manager' } };
const big: PolicyStep = {
  id: id(101), condition: { min_amount: { amount: 1_000_000, currency: 'USD' }, vendor_ids: [id(10), id(11)] }, approvers: { kind: 'role', role: 'BUSINESS_ADMIN' },
};

describe('bill approval policy words (issue 25)', () => {
  it('says each step in one line: its condition and who approves', () => {
    expect(stepText(manager, names)).toBe('Always → the requester’s manager');
    expect(stepText(big, names)).toBe('When amount at or above $10,000.00 USD, vendor Acme or Globex → any Administrator');
    expect(stepText({ condition: { department_ids: [id(20)] }, approvers: { kind: 'group', user_ids: [id(1), id(2)], mode: 'all' } }, names))
      .toBe('When department Finance → all of Ada Lovelace and Grace Hopper');
    expect(conditionText({}, names)).toBe('Always');
  });

  it('round-trips a step through the form, and checks the form before anything is sent', () => {
    const drafts = [toDraft(manager, 'USD'), toDraft(big, 'USD')];
    expect(drafts[1]!.amount).toBe('10000.00');
    expect(toBody(drafts)).toEqual({ ok: true, steps: [manager, big] });
    const bad = { ...blankStep('USD'), amount: '12.345', approvers: { kind: 'user' as const, user_id: '' } };
    expect(toBody([drafts[0]!, bad])).toEqual({
      ok: false, errors: { 'steps.1.condition.min_amount.amount': 'Enter an amount in USD, like 10000.00.', 'steps.1.approvers.user_id': 'Choose who approves this step.' },
    });
  });

  it('lists what a save changes: added, changed, removed, reordered; nothing when nothing changed', () => {
    const unchanged = toBody([toDraft(manager, 'USD'), toDraft(big, 'USD')]);
    expect(unchanged.ok && policyChanges([manager, big], unchanged.steps, names)).toEqual([]);
    const added = { condition: null, approvers: { kind: 'user' as const, user_id: id(2) } };
    expect(policyChanges([manager, big], [manager, big, added], names)).toEqual(['Add step 3: Always → Grace Hopper']);
    expect(policyChanges([manager, big], [big], names)).toEqual(['Remove step 1: Always → the requester’s manager']);
    expect(policyChanges([manager, big], [big, manager], names)).toEqual(['Reorder the steps']);
    const cheaper = { ...big, condition: { min_amount: { amount: 500_000, currency: 'USD' } } };
    expect(policyChanges([manager, big], [manager, cheaper], names)).toEqual([
      'Change step 2: When amount at or above $10,000.00 USD, vendor Acme or Globex → any Administrator ⇒ When amount at or above $5,000.00 USD → any Administrator',
    ]);
  });

  it('puts the server’s field errors under the step they name', () => {
    expect(errorStep('body.steps.2.approvers.user_id')).toBe(2);
    expect(errorStep('steps.0.id')).toBe(0);
    expect(errorStep('step')).toBe(null);
    expect(errorStep('body.steps')).toBe(null);
  });
});
