import { describe, expect, it } from 'vitest';
import type { UserRow } from '../../../schema/entities/spend-user.ts';
import type { SpendAllocation } from '../../../schema/entities/spend-allocation.ts';
import { budgetChoices, emptyLine, emptyRequestValues, hasTeamTab, requestCommand, requestErrors, requestForOptions, teamIds, valuesTotal, type RequestValues } from './request-form.ts';

const ID = '3f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b';
const VENDOR = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const TODAY = '2026-11-29';

const values = (patch: Partial<RequestValues>): RequestValues => ({ ...emptyRequestValues('USD'), description: 'Offsite snacks', ...patch });
const line = (description: string, quantity: string, unit_price: string, key = description) => ({ ...emptyLine(key), description, quantity, unit_price });

describe('requestCommand', () => {
  it('builds a general expense budget with its interval, submitted', () => {
    const built = requestCommand(values({ amount: '500', interval: 'MONTHLY' }), ID, true, TODAY);
    expect(built).toEqual({ ok: true, input: expect.objectContaining({ id: ID, type: 'GENERAL_EXPENSE', amount: { amount: 50000, currency: 'USD' }, interval: 'MONTHLY', spend_allocation_id: null, submit: true }) });
  });

  it('keeps a draft and names a budget and the person it is for', () => {
    const built = requestCommand(values({ amount: '1,200.50', spend_allocation_id: VENDOR, for_user_id: ID }), ID, false, TODAY);
    expect(built.ok && built.input).toMatchObject({ amount: { amount: 120050 }, spend_allocation_id: VENDOR, for_user_id: ID, submit: false });
  });

  it('a purchase: amount is the lines total, vendor and lines sent', () => {
    const v = values({ type: 'PRODUCT_OR_SERVICE', vendor_id: VENDOR, lines: [line('Chairs', '3', '120.00'), line('Desk', '1', '400')] });
    expect(valuesTotal(v)).toBe(76000);
    const built = requestCommand(v, ID, true, TODAY);
    expect(built.ok && built.input).toMatchObject({
      amount: { amount: 76000, currency: 'USD' }, vendor_id: VENDOR,
      line_items: [{ description: 'Chairs', quantity: 3, unit_price: 12000 }, { description: 'Desk', quantity: 1, unit_price: 40000 }],
    });
    expect(built.ok && 'interval' in built.input).toBe(false);
  });

  it.each([
    ['no amount', values({ amount: '' }), 'amount'],
    ['a negative amount', values({ amount: '-5' }), 'amount'],
    ['fractional cents', values({ amount: '1.234' }), 'amount'],
    ['no description', values({ amount: '5', description: ' ' }), 'description'],
    ['a past date', values({ amount: '5', needed_by: '2026-11-01' }), 'needed_by'],
    ['a purchase without vendor', values({ type: 'PRODUCT_OR_SERVICE', lines: [line('A', '1', '5')] }), 'vendor_id'],
    ['a purchase without lines', values({ type: 'PRODUCT_OR_SERVICE', vendor_id: VENDOR }), 'line_items'],
    ['a line with zero quantity', values({ type: 'PRODUCT_OR_SERVICE', vendor_id: VENDOR, lines: [line('A', '0', '5')] }), 'lines.0.quantity'],
  ])('refuses %s, under its field', (_name, v, field) => {
    const built = requestCommand(v, ID, true, TODAY);
    expect(built.ok).toBe(false);
    expect(!built.ok && built.errors[field]).toBeTruthy();
  });

  it('has no errors for a good request', () => {
    expect(requestErrors(values({ amount: '5', needed_by: TODAY }), TODAY)).toEqual({});
  });
});

const user = (id: string, manager_id: string | null, patch: Partial<UserRow> = {}) =>
  ({ id, first_name: id.toUpperCase(), last_name: 'X', manager_id, status: 'ACTIVE', ...patch }) as UserRow;
const USERS = [user('boss', null), user('mgr', 'boss'), user('ana', 'mgr'), user('deep', 'ana'), user('other', 'boss'), user('gone', 'mgr', { status: 'SUSPENDED' })];
const actor = (id: string, role: string, is_manager: boolean) => ({ id, role, is_manager, user_permissions: [] }) as never;

describe('who a request may be for, whose requests the Team tab lists', () => {
  it('a manager: their reporting team, active, without themselves', () => {
    expect(requestForOptions(actor('mgr', 'BUSINESS_USER', true), USERS).map((o) => o.value).sort()).toEqual(['ana', 'deep']);
  });
  it('a bookkeeper: anyone active', () => {
    expect(requestForOptions(actor('bk', 'BUSINESS_BOOKKEEPER', false), USERS)).toHaveLength(5);
  });
  it('an employee: nobody', () => {
    expect(requestForOptions(actor('ana', 'BUSINESS_USER', false), USERS)).toEqual([]);
    expect(hasTeamTab(actor('ana', 'BUSINESS_USER', false))).toBe(false);
  });
  it('team ids: a manager their reports, an admin everyone', () => {
    expect(teamIds(actor('mgr', 'BUSINESS_USER', true), USERS).sort()).toEqual(['ana', 'deep', 'gone', 'mgr']);
    expect(teamIds(actor('a', 'BUSINESS_ADMIN', false), USERS)).toHaveLength(USERS.length);
    expect(hasTeamTab(actor('a', 'BUSINESS_ADMIN', false))).toBe(true);
  });
});

describe('budgetChoices', () => {
  const budget = (id: string, patch: Partial<SpendAllocation>) => ({ id, name: id, owner_id: 'x', member_ids: [], archived: false, end_date: null, ...patch }) as SpendAllocation;
  it('open budgets the person owns or belongs to, by name', () => {
    const all = [budget('b', { member_ids: ['ana'] }), budget('a', { owner_id: 'ana' }), budget('c', {}), budget('d', { member_ids: ['ana'], archived: true }), budget('e', { member_ids: ['ana'], end_date: '2026-11-28' })];
    expect(budgetChoices(all, 'ana', TODAY).map((b) => b.id)).toEqual(['a', 'b']);
  });
});
