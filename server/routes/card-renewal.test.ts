import { describe, expect, it } from 'vitest';
import { testDatabases } from '../test-db.ts';
import { request } from '../test-fixtures.ts';
import { useTestApp } from '../test-app.ts';
import { CARDS, cardsClock, useCardsApi } from './cards-test-kit.ts';

/** Issue 32: `GET /v1/auth/cards/{card}/renewal` and `GET /v1/auth/cards/{card}/reissue`. */
describe.each(await testDatabases())('card renewal and reissue reads on %s', (kind) => {
  const clock = cardsClock();
  const t = useTestApp(kind, { now: () => clock.ms });
  const { biz, tokens, issue, act, refusal } = useCardsApi(t);
  const get = (token: string, id: string, what: 'renewal' | 'reissue') => request(t.app, 'GET', `${CARDS}/${id}/${what}`, { token });

  it('a card’s renewal comes from its expiry: virtual keeps its number, physical ships a new card', async () => {
    const virtual = await issue('employee');
    expect(virtual.expires).toBe('2029-03');
    const res = await get(tokens.employee, virtual.id, 'renewal');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      card_id: virtual.id, kind: 'VIRTUAL', expires: '2029-03', valid_through: '2029-03-31', new_expiry: '2032-03',
      renews_on: '2029-03-01', arrives_by: null, number_changes: false, state: 'SCHEDULED',
    });
    const physical = await issue('employee', { is_physical: true });
    // A card near the year's end: renewal crosses into the next year's dates.
    await t.db.query(`UPDATE cards SET expires = '2027-01' WHERE id = $1`, [physical.id]);
    expect((await get(tokens.manager, physical.id, 'renewal')).body).toMatchObject({
      kind: 'PHYSICAL', valid_through: '2027-01-31', renews_on: '2027-01-01', arrives_by: '2027-01-08', new_expiry: '2030-01', number_changes: true,
    });
  });

  it('visibility as card reads: the holder, their manager and business-wide readers; 404 to others and other businesses', async () => {
    const card = await issue('employee');
    for (const role of ['employee', 'manager', 'admin', 'bookkeeper', 'auditor'] as const) {
      expect((await get(tokens[role], card.id, 'renewal')).status).toBe(200);
    }
    expect(refusal(await get(tokens.teammate, card.id, 'renewal'))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await get(tokens.outsider, card.id, 'reissue'))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await get(biz.bOwner, card.id, 'renewal'))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await get(biz.bOwner, card.id, 'reissue'))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'GET', `${CARDS}/not-a-uuid/renewal`, { token: tokens.admin }))).toEqual([422, 'REQUEST_7001']);
  });

  it('reissue: 404 until POST reissue, then the replacement and its shipping; the old card has no renewal', async () => {
    const card = await issue('employee', { is_physical: true });
    expect(refusal(await get(tokens.employee, card.id, 'reissue'))).toEqual([404, 'REQUEST_7004']);
    await act('employee', card.id, 'activate', { last_four: card.last_four });
    const reissued = await act('employee', card.id, 'reissue');
    expect(reissued.status, reissued.text).toBe(200);
    const successor = reissued.body.successor;
    const res = await get(tokens.manager, card.id, 'reissue');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      card_id: card.id, state: 'SHIPPING', requested_at: new Date(clock.ms).toISOString(), arrives_by: '2026-03-17',
      replacement: { id: successor.id, status: 'SHIPPED', replaces_id: card.id },
    });
    expect(refusal(await get(tokens.employee, card.id, 'renewal'))).toEqual([404, 'REQUEST_7004']);
    // The replacement, once activated by its holder, is ACTIVE; it has no reissue of its own.
    await act('employee', successor.id, 'activate', { last_four: successor.last_four });
    expect((await get(tokens.employee, card.id, 'reissue')).body.state).toBe('ACTIVE');
    expect(refusal(await get(tokens.employee, successor.id, 'reissue'))).toEqual([404, 'REQUEST_7004']);
    expect((await get(tokens.employee, successor.id, 'renewal')).body.expires).toBe('2029-03');
  });
});
