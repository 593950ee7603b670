import { describe, expect, it } from 'vitest';
import { ADMIN, actor, card, MANAGER, OTHER, REPORT } from './test-fixtures.ts';
import { emptyIssueValues, emptyRequestValues, issueCommand, limitPatch, limitValues, requestCommand, splitCategories } from './card-form.ts';

const ID = '30000000-0000-4000-8000-000000000001';
const admin = actor(ADMIN, 'BUSINESS_ADMIN', false, 'all');
const manager = actor(MANAGER, 'BUSINESS_USER', true, [MANAGER, REPORT]);

describe('issueCommand', () => {
  const values = { ...emptyIssueValues('USD'), user_id: REPORT, display_name: ' Travel ', amount: '5,000', per_transaction: '250.50', categories: 'Airlines, Hotels,,Airlines' };

  it('builds card.issue with minor units, a client id and distinct categories', () => {
    expect(issueCommand(values, ID, admin)).toEqual({
      ok: true,
      input: {
        id: ID, user_id: REPORT, display_name: 'Travel', is_physical: false,
        limit: { amount: 500_000, currency: 'USD', interval: 'MONTHLY', per_transaction: 25_050 },
        allowed_categories: ['Airlines', 'Hotels'], department_id: null, location_id: null,
      },
    });
  });

  it('refuses a cardholder outside a manager’s team with the rule’s words', () => {
    expect(issueCommand({ ...values, user_id: OTHER }, ID, manager)).toEqual({
      ok: false, errors: { user_id: 'Managers can issue cards only to people on their team.' },
    });
    expect(issueCommand({ ...values, user_id: '' }, ID, admin)).toEqual({ ok: false, errors: { user_id: 'Choose a cardholder' } });
  });

  it('says which field is wrong, by its label', () => {
    const built = issueCommand({ ...values, amount: 'lots', per_transaction: '6000', display_name: '' }, ID, admin);
    expect(built.ok).toBe(false);
    if (built.ok) return;
    expect(Object.keys(built.errors).sort()).toEqual(['amount', 'display_name']);
    expect(built.errors.amount).toMatch(/^Limit/);
    expect(built.errors.display_name).toMatch(/^Card name/);
  });

  it('flags every missing field at once, the cardholder included', () => {
    const built = issueCommand(emptyIssueValues('USD'), ID, admin);
    expect(built.ok).toBe(false);
    if (built.ok) return;
    expect(Object.keys(built.errors).sort()).toEqual(['amount', 'display_name', 'user_id']);
    expect(built.errors.user_id).toBe('Choose a cardholder');
  });

  it('refuses a per-purchase cap above the limit', () => {
    const built = issueCommand({ ...values, per_transaction: '6000' }, ID, admin);
    expect(built).toMatchObject({ ok: false, errors: { per_transaction: expect.any(String) } });
  });
});

describe('requestCommand', () => {
  const values = { ...emptyRequestValues('EUR'), amount: '1200', reason: 'Conference travel' };

  it('asks for a virtual card with cardRequest.create', () => {
    expect(requestCommand(values, ID)).toEqual({
      ok: true, name: 'cardRequest.create',
      input: { id: ID, is_physical: false, amount: 120_000, currency: 'EUR', interval: 'MONTHLY', reason: 'Conference travel' },
    });
  });

  it('asks for a physical card with cardRequest.requestPhysical', () => {
    const built = requestCommand({ ...values, is_physical: true }, ID);
    expect(built).toEqual({
      ok: true, name: 'cardRequest.requestPhysical',
      input: { id: ID, amount: 120_000, currency: 'EUR', interval: 'MONTHLY', reason: 'Conference travel' },
    });
  });

  it('needs an amount above zero and a reason', () => {
    const built = requestCommand({ ...values, amount: '0', reason: ' ' }, ID);
    expect(built.ok).toBe(false);
    if (built.ok) return;
    expect(Object.keys(built.errors).sort()).toEqual(['amount', 'reason']);
  });
});

describe('limitPatch', () => {
  const c = card();

  it('round-trips the card’s limit as typed, and nothing changed means no command', () => {
    expect(limitValues(c)).toEqual({ amount: '5000.00', currency: 'USD', interval: 'MONTHLY', per_transaction: '' });
    expect(limitPatch(c, limitValues(c))).toEqual({ ok: true, input: null });
  });

  it('sends the new limit as a card.update patch', () => {
    expect(limitPatch(c, { ...limitValues(c), amount: '7500', interval: 'WEEKLY' })).toEqual({
      ok: true, input: { card_id: c.id, patch: { limit: { amount: 750_000, currency: 'USD', interval: 'WEEKLY', per_transaction: null } } },
    });
  });

  it('splits categories by comma, once each', () => {
    expect(splitCategories(' a, b ,a,, ')).toEqual(['a', 'b']);
  });
});
