import { describe, expect, it } from 'vitest';
import { simulateResponseSchema } from '../../schema/api/calls-cards.ts';
import { spendAllocationSchema } from '../../schema/entities/spend-allocation.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { request, type FixtureRole } from '../test-fixtures.ts';
import { CARDS, useCardsApi, usd } from './cards-test-kit.ts';

/**
 * Budgets (spend allocations) and spend intents (issue 28) through the API: who creates and adds
 * members, cards issued on a budget, simulate declining past what is left, intents letting a
 * blocked category through once, re-stamping, bad input and tenant isolation. Real clock: the
 * doc's `spent` is summed as of the database's now().
 */
const ALLOCATIONS = '/v1/auth/spend-allocations';
const INTENTS = '/v1/auth/spend-intents';

describe.each(await testDatabases())('spend allocations on %s', (kind) => {
  const t = useTestApp(kind);
  const { biz, tokens, issue, refusal } = useCardsApi(t);

  const create = (role: FixtureRole, over: Record<string, unknown> = {}) =>
    request(t.app, 'POST', ALLOCATIONS, { token: tokens[role], body: { name: 'Offsite', limit: { amount: 50_000, currency: 'USD', interval: 'MONTHLY' }, ...over } });
  const budget = async (over: Record<string, unknown> = {}) => {
    const res = await create('admin', over);
    expect(res.status, res.text).toBe(201);
    return spendAllocationSchema.parse(res.body);
  };
  const spend = (card: string, amount: number, merchant_category = 'General') =>
    request(t.app, 'POST', `${CARDS}/${card}/simulate`, { token: tokens.admin, body: { amount, merchant: 'Shop', merchant_category } });

  it('lets admins and managers create budgets; everyone else is refused with PROCUREMENT_7016', async () => {
    for (const role of ['owner', 'admin', 'manager'] as const) expect((await create(role)).status, role).toBe(201);
    for (const role of ['bookkeeper', 'employee', 'teammate', 'auditor'] as const) {
      expect(refusal(await create(role)), role).toEqual([422, 'PROCUREMENT_7016']);
    }
    const mine = await create('manager');
    expect(mine.body).toMatchObject({ owner_id: biz.a.users.manager, created_by: biz.a.users.manager, spent: 0, left: 50_000, member_ids: [], archived: false });
  });

  it('adds members once each (live users of the business), admins and managers only', async () => {
    const b = await budget();
    const url = `/v1/auth/spend-allocation/${b.id}/add-users`;
    const add = (role: FixtureRole, user_ids: string[]) => request(t.app, 'PUT', url, { token: tokens[role], body: { user_ids } });
    const res = await add('admin', [biz.a.users.employee, biz.a.users.employee, biz.a.users.teammate]);
    expect(res.status, res.text).toBe(200);
    expect(res.body.member_ids).toEqual([biz.a.users.employee, biz.a.users.teammate]);
    expect(res.body.change_seq).toBeGreaterThan(b.change_seq);
    expect((await add('admin', [biz.a.users.employee])).body.member_ids).toHaveLength(2);
    expect(refusal(await add('employee', [biz.a.users.teammate]))).toEqual([422, 'PROCUREMENT_7016']);
    expect(refusal(await add('admin', [biz.b.users.employee]))).toEqual([404, 'REQUEST_7004']);
    // A member sees it; a stranger does not.
    expect((await request(t.app, 'GET', `${ALLOCATIONS}/${b.id}`, { token: tokens.teammate })).status).toBe(200);
    expect(refusal(await request(t.app, 'GET', `${ALLOCATIONS}/${b.id}`, { token: tokens.outsider }))).toEqual([404, 'REQUEST_7004']);
  });

  it('lets the owner, the creator or an admin edit; others who see it get 403', async () => {
    const b = await budget({ owner_id: biz.a.users.employee, member_ids: [biz.a.users.teammate] });
    const patch = (role: FixtureRole, body: unknown) => request(t.app, 'PATCH', `${ALLOCATIONS}/${b.id}`, { token: tokens[role], body });
    expect((await patch('employee', { name: 'Renamed' })).body.name).toBe('Renamed');
    expect(refusal(await patch('teammate', { name: 'Mine' }))).toEqual([403, 'FORBIDDEN_7003']);
    expect(refusal(await patch('outsider', { name: 'Mine' }))).toEqual([404, 'REQUEST_7004']);
    expect((await patch('admin', { archived: true })).body.archived).toBe(true);
  });

  it('issues a card on a budget and declines past what is left ($500: $120 passes, $400 declined)', async () => {
    const b = await budget();
    const card = await issue('employee', { spend_allocation_id: b.id, limit: usd(100_000) });
    expect(card.spend_allocation_id).toBe(b.id);
    const joined = await request(t.app, 'GET', `${ALLOCATIONS}/${b.id}`, { token: tokens.employee });
    expect(joined.body).toMatchObject({ member_ids: [biz.a.users.employee], card_ids: [card.id] });
    const first = simulateResponseSchema.parse((await spend(card.id, 12_000)).body);
    expect(first.approved).toBe(true);
    const after = await request(t.app, 'GET', `${ALLOCATIONS}/${b.id}`, { token: tokens.employee });
    expect(after.body).toMatchObject({ spent: 12_000, left: 38_000 });
    expect(after.body.change_seq).toBeGreaterThan(joined.body.change_seq);
    const second = simulateResponseSchema.parse((await spend(card.id, 40_000)).body);
    expect(second).toMatchObject({ approved: false, decline_reason: 'SPEND_ALLOCATION_EXCEEDED' });
    expect(simulateResponseSchema.parse((await spend(card.id, 38_000)).body).approved).toBe(true);
    // Archived: its cards decline, and no card is issued on it.
    await request(t.app, 'PATCH', `${ALLOCATIONS}/${b.id}`, { token: tokens.admin, body: { archived: true } });
    expect(simulateResponseSchema.parse((await spend(card.id, 1)).body)).toMatchObject({ approved: false, decline_reason: 'SPEND_ALLOCATION_ENDED' });
    const res = await request(t.app, 'POST', CARDS, {
      token: tokens.admin, body: { user_id: biz.a.users.teammate, display_name: 'Late', limit: usd(1_000), spend_allocation_id: b.id },
    });
    expect(refusal(res)).toEqual([422, 'PROCUREMENT_7005']);
  });

  it('refuses a card in another currency than its budget, and bad input', async () => {
    const b = await budget();
    const res = await request(t.app, 'POST', CARDS, {
      token: tokens.admin, body: { user_id: biz.a.users.teammate, display_name: 'Euro', limit: { ...usd(1_000), currency: 'EUR' }, spend_allocation_id: b.id },
    });
    expect(refusal(res)).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await create('admin', { surprise: 1 }))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await create('admin', { limit: { amount: -1, currency: 'USD', interval: 'MONTHLY' } }))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await create('admin', { end_date: '2000-01-01' }))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await create('admin', { owner_id: biz.b.users.owner }))).toEqual([404, 'REQUEST_7004']);
  });

  it('lets a blocked category through once with an intent, and cancels only an active one', async () => {
    const card = await issue('employee', { allowed_categories: ['Travel'] });
    expect(simulateResponseSchema.parse((await spend(card.id, 20_000, 'Software')).body)).toMatchObject({ decline_reason: 'MERCHANT_CATEGORY_BLOCKED' });
    const made = await request(t.app, 'POST', INTENTS, {
      token: tokens.employee, body: { card_id: card.id, amount: { amount: 20_000, currency: 'USD' }, merchant_category: 'Software' },
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ status: 'ACTIVE', user_id: biz.a.users.employee, transaction_id: null });
    const passed = simulateResponseSchema.parse((await spend(card.id, 20_000, 'Software')).body);
    expect(passed.approved).toBe(true);
    expect(simulateResponseSchema.parse((await spend(card.id, 100, 'Software')).body)).toMatchObject({ decline_reason: 'MERCHANT_CATEGORY_BLOCKED' });
    const list = await request(t.app, 'GET', `${INTENTS}?card_id=${card.id}`, { token: tokens.employee });
    expect(list.body.data).toEqual([expect.objectContaining({ id: made.body.id, status: 'USED', transaction_id: passed.approved ? passed.transaction.id : null })]);
    const del = (role: FixtureRole, id: string) => request(t.app, 'DELETE', `/v1/auth/spend-requests/spend-intents/${id}`, { token: tokens[role] });
    expect(refusal(await del('employee', made.body.id))).toEqual([409, 'PROCUREMENT_7015']);
    const other = await request(t.app, 'POST', INTENTS, {
      token: tokens.manager, body: { card_id: card.id, amount: { amount: 500, currency: 'USD' }, merchant_category: 'Food' },
    });
    expect(other.status, other.text).toBe(201);
    expect(refusal(await del('teammate', other.body.id))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await del('auditor', other.body.id))).toEqual([403, 'FORBIDDEN_7003']);
    expect((await del('employee', other.body.id)).body.status).toBe('CANCELED');
    // Nobody announces on someone else's card they do not manage.
    const foreign = await request(t.app, 'POST', INTENTS, {
      token: tokens.teammate, body: { card_id: card.id, amount: { amount: 500, currency: 'USD' }, merchant_category: 'Food' },
    });
    expect(refusal(foreign)).toEqual([404, 'REQUEST_7004']);
  });

  it('answers 404 for another business\'s budgets, intents and cards', async () => {
    const b = await budget();
    const card = await issue('employee');
    const intent = await request(t.app, 'POST', INTENTS, {
      token: tokens.employee, body: { card_id: card.id, amount: { amount: 500, currency: 'USD' }, merchant_category: 'Food' },
    });
    const token = biz.bOwner;
    expect(refusal(await request(t.app, 'GET', `${ALLOCATIONS}/${b.id}`, { token }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'PATCH', `${ALLOCATIONS}/${b.id}`, { token, body: { name: 'x' } }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'PUT', `/v1/auth/spend-allocation/${b.id}/add-users`, { token, body: { user_ids: [biz.b.users.employee] } })))
      .toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'DELETE', `/v1/auth/spend-requests/spend-intents/${intent.body.id}`, { token }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'POST', INTENTS, {
      token, body: { card_id: card.id, amount: { amount: 500, currency: 'USD' }, merchant_category: 'Food' },
    }))).toEqual([404, 'REQUEST_7004']);
    expect((await request(t.app, 'GET', `${INTENTS}?card_id=${card.id}`, { token })).body.data).toEqual([]);
    expect((await request(t.app, 'GET', ALLOCATIONS, { token })).body.data.map((x: { id: string }) => x.id)).not.toContain(b.id);
    expect(refusal(await request(t.app, 'POST', CARDS, {
      token, body: { user_id: biz.b.users.employee, display_name: 'X', limit: usd(1_000), spend_allocation_id: b.id },
    }))).toEqual([404, 'REQUEST_7004']);
  });
});
