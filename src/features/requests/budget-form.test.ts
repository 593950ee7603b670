import { describe, expect, it } from 'vitest';
import type { SpendAllocation } from '../../../schema/entities/spend-allocation.ts';
import type { UserRow } from '../../../schema/entities/spend-user.ts';
import { addablePeople, budgetBody, budgetOrder, emptyBudgetValues, mayAddPeople } from './budget-form.ts';

const TODAY = '2026-11-29';
const U1 = '3f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b';

describe('budgetBody', () => {
  it('builds the create body in minor units', () => {
    const built = budgetBody({ ...emptyBudgetValues('USD'), name: ' Marketing ', amount: '5,000', end_date: '2026-12-31', member_ids: [U1] }, TODAY);
    expect(built).toEqual({ ok: true, body: expect.objectContaining({ name: 'Marketing', description: null, member_ids: [U1], limit: { amount: 500000, currency: 'USD', interval: 'MONTHLY' }, end_date: '2026-12-31' }) });
  });
  it.each([
    ['no name', { name: '', amount: '5' }, 'name'],
    ['no limit', { name: 'A', amount: '' }, 'amount'],
    ['a zero limit', { name: 'A', amount: '0' }, 'amount'],
    ['a negative limit', { name: 'A', amount: '-3' }, 'amount'],
    ['an end date in the past', { name: 'A', amount: '5', end_date: '2026-01-01' }, 'end_date'],
  ])('refuses %s under its field', (_n, patch, field) => {
    const built = budgetBody({ ...emptyBudgetValues('USD'), ...patch }, TODAY);
    expect(built.ok).toBe(false);
    expect(!built.ok && built.errors[field as 'name']).toBeTruthy();
  });
});

const user = (id: string, first_name: string, status = 'ACTIVE') => ({ id, first_name, last_name: 'Z', status }) as UserRow;
const budget = (id: string, patch: Partial<SpendAllocation>) =>
  ({ id, name: id, owner_id: 'o', member_ids: [], archived: false, end_date: null, limit: { amount: 100, currency: 'USD', interval: 'MONTHLY' }, spent: 0, left: 100, ...patch }) as SpendAllocation;

describe('people and order', () => {
  it('addable: active, not owner or member, by name, searched', () => {
    const users = [user('o', 'Olive'), user('m', 'Mia'), user('b', 'Ben'), user('s', 'Sam', 'SUSPENDED'), user('a', 'Ana')];
    expect(addablePeople(budget('x', { member_ids: ['m'] }), users).map((u) => u.id)).toEqual(['a', 'b']);
    expect(addablePeople(budget('x', {}), users, 'mi').map((u) => u.id)).toEqual(['m']);
  });
  it('order: open first, least left first, then by name', () => {
    const list = [budget('b', { left: 90 }), budget('z', { archived: true, left: 0 }), budget('a', { left: 10 }), budget('c', { left: 90 })];
    expect(budgetOrder(list, TODAY).map((b) => b.id)).toEqual(['a', 'b', 'c', 'z']);
  });
  it('add people: the owner or a creator', () => {
    expect(mayAddPeople({ owner_id: 'me' }, 'me', false)).toBe(true);
    expect(mayAddPeople({ owner_id: 'x' }, 'me', false)).toBe(false);
    expect(mayAddPeople({ owner_id: 'x' }, 'me', true)).toBe(true);
  });
});
