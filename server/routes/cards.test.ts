import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bulkLockCards, simulateResponseSchema } from '../../schema/api/calls-cards.ts';
import { CARD_ACTIONS, checkCardAction } from '../../schema/card-rules.ts';
import { cardSchema, type Card, type LimitInterval } from '../../schema/entities/card.ts';
import { testDatabases } from '../test-db.ts';
import { request, signIn, type FixtureRole } from '../test-fixtures.ts';
import { useTestApp } from '../test-app.ts';
import { CARDS, cardsClock, useCardsApi, usd } from './cards-test-kit.ts';

/**
 * Cards (issue 10) through the API: the status machine, the issuing matrix, input refusals,
 * limits in simulated authorizations across interval boundaries and bulk lock (reissue, primary
 * and favourite cards, the list and card requests: cards-list.test.ts). The fixture's world:
 * cards-test-kit.ts.
 */
describe.each(await testDatabases())('cards on %s', (kind) => {
  const clock = cardsClock();
  const t = useTestApp(kind, { now: () => clock.ms });
  const { biz, tokens, issue, act, unsuspend, stored, cardCount, refusal } = useCardsApi(t);

  it('walks a virtual card through every allowed move', async () => {
    const card = await issue();
    expect(card).toMatchObject({ status: 'ACTIVE', user_id: biz.a.users.employee, is_physical: false, limit: usd(100_000), expires: '2029-03' });
    expect(card.last_four).toMatch(/^\d{4}$/);
    const steps: [FixtureRole, string, string][] = [
      ['employee', 'lock', 'LOCKED'], ['employee', 'unlock', 'ACTIVE'], ['admin', 'suspend', 'SUSPENDED'], ['admin', 'unsuspend', 'ACTIVE'],
      ['manager', 'lock', 'LOCKED'], ['admin', 'suspend', 'SUSPENDED'], ['owner', 'unsuspend', 'ACTIVE'], ['manager', 'terminate', 'TERMINATED'],
    ];
    for (const [role, action, status] of steps) {
      const res = action === 'unsuspend' ? await unsuspend(role, card.id) : await act(role, card.id, action);
      expect(res.status, `${role} ${action}: ${res.text}`).toBe(200);
      expect(cardSchema.parse(res.body).status).toBe(status);
    }
    // TERMINATED is final: every move is refused naming the status.
    for (const action of ['lock', 'unlock', 'suspend', 'terminate', 'reissue']) {
      const res = await act('admin', card.id, action);
      expect(refusal(res), action).toEqual([422, 'REQUEST_7001']);
      expect(res.body.error_v2.message).toContain('status TERMINATED');
    }
    expect((await unsuspend('admin', card.id)).body.error_v2.message).toContain('status TERMINATED');
    const edit = await request(t.app, 'PATCH', `${CARDS}/${card.id}`, { token: tokens.admin, body: { display_name: 'Renamed' } });
    expect(refusal(edit)).toEqual([422, 'REQUEST_7001']);
    expect(edit.body.error_v2.message).toContain('status TERMINATED');
  });

  // Every move from every status a stored card can be in, against the shared machine.
  const MOVES = ['activate', 'lock', 'unlock', 'suspend', 'unsuspend', 'terminate'] as const;
  const FROM = ['SHIPPED', 'ACTIVE', 'LOCKED', 'SUSPENDED'] as const;
  it.each(FROM.flatMap((from) => MOVES.map((move) => [from, move] as const)))('from %s, %s follows the machine', async (from, move) => {
    const card = await issue('employee', { is_physical: from === 'SHIPPED' });
    if (from === 'LOCKED' || from === 'SUSPENDED') expect((await act('admin', card.id, 'lock')).status).toBe(200);
    if (from === 'SUSPENDED') expect((await act('admin', card.id, 'suspend')).status).toBe(200);
    expect((await stored(card.id))!.status).toBe(from);
    const res = move === 'unsuspend' ? await unsuspend('admin', card.id)
      : await act(move === 'activate' ? 'employee' : 'admin', card.id, move, move === 'activate' ? { last_four: card.last_four } : undefined);
    if (checkCardAction(move, from).ok) {
      expect(res.status, res.text).toBe(200);
      expect(res.body.status).toBe(CARD_ACTIONS[move].to);
    } else {
      expect(refusal(res)).toEqual([422, 'REQUEST_7001']);
      expect(res.body.error_v2.message).toContain(`status ${from}`);
      expect((await stored(card.id))!.status).toBe(from);
    }
  });

  it('ships a physical card and activates it only with its last four, by its holder', async () => {
    const card = await issue('employee', { is_physical: true });
    expect(card.status).toBe('SHIPPED');
    for (const action of ['lock', 'suspend', 'unlock']) {
      const res = await act('admin', card.id, action);
      expect(refusal(res), action).toEqual([422, 'REQUEST_7001']);
      expect(res.body.error_v2.message).toContain('status SHIPPED');
    }
    expect(refusal(await act('admin', card.id, 'activate', { last_four: card.last_four }))).toEqual([403, 'FORBIDDEN_7003']);
    const wrong = String((Number(card.last_four) + 1) % 10_000).padStart(4, '0');
    const bad = await act('employee', card.id, 'activate', { last_four: wrong });
    expect(refusal(bad)).toEqual([422, 'REQUEST_7001']);
    expect(bad.body.error_v2.errors.last_four).toContain('do not match');
    expect(refusal(await act('employee', card.id, 'activate', { last_four: '12' }))).toEqual([422, 'REQUEST_7001']);
    expect((await stored(card.id))!.status).toBe('SHIPPED');
    const ok = await act('employee', card.id, 'activate', { last_four: card.last_four });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.status).toBe('ACTIVE');
    const again = await act('employee', card.id, 'activate', { last_four: card.last_four });
    expect(refusal(again)).toEqual([422, 'REQUEST_7001']);
    expect(again.body.error_v2.message).toContain('status ACTIVE');
  });

  it('refuses moves outside the machine, naming the current status', async () => {
    const card = await issue();
    const cases: [string, string][] = [['unlock', 'ACTIVE'], ['unsuspend', 'ACTIVE'], ['activate', 'ACTIVE']];
    for (const [action, status] of cases) {
      const res = action === 'unsuspend' ? await unsuspend('admin', card.id) : await act('employee', card.id, action, action === 'activate' ? { last_four: card.last_four } : undefined);
      expect(refusal(res), action).toEqual([422, 'REQUEST_7001']);
      expect(res.body.error_v2.message).toContain(`status ${status}`);
    }
  });

  it('lets only the right people act (§6): suspension is admin-only, terminate and edit are the manager\'s or an admin\'s', async () => {
    const card = await issue();
    const cases: [FixtureRole, string, number][] = [
      ['teammate', 'lock', 404], ['outsider', 'lock', 404], ['bookkeeper', 'lock', 403], ['auditor', 'lock', 403],
      ['employee', 'suspend', 403], ['manager', 'suspend', 403], ['employee', 'terminate', 403], ['bookkeeper', 'terminate', 403],
    ];
    for (const [role, action, status] of cases) expect((await act(role, card.id, action)).status, `${role} ${action}`).toBe(status);
    const own = await request(t.app, 'PATCH', `${CARDS}/${card.id}`, { token: tokens.employee, body: { limit: usd(9_999_999) } });
    expect(refusal(own)).toEqual([403, 'FORBIDDEN_7003']);
    expect(own.body.error_v2.message).toContain('own card');
    const bOwn = await request(t.app, 'POST', `${CARDS}/${card.id}/lock`, { token: biz.bOwner });
    expect(refusal(bOwn)).toEqual([404, 'REQUEST_7004']);
    expect((await request(t.app, 'GET', `${CARDS}/${card.id}`, { token: biz.bOwner })).status).toBe(404);
    expect((await request(t.app, 'GET', `${CARDS}/${card.id}`, { token: tokens.teammate })).status).toBe(404);
    expect((await request(t.app, 'GET', `${CARDS}/${card.id}`, { token: tokens.manager })).status).toBe(200);
    expect((await stored(card.id))!.status).toBe('ACTIVE');
    const edit = await request(t.app, 'PATCH', `${CARDS}/${card.id}`, {
      token: tokens.manager, body: { display_name: 'Conference card', limit: usd(250_000, 'WEEKLY', 50_000), allowed_categories: ['Travel', 'Travel'], department_id: biz.a.departments[1] },
    });
    expect(edit.status, edit.text).toBe(200);
    expect(edit.body).toMatchObject({ display_name: 'Conference card', limit: usd(250_000, 'WEEKLY', 50_000), allowed_categories: ['Travel'], department_id: biz.a.departments[1] });
    const foreignDept = await request(t.app, 'PATCH', `${CARDS}/${card.id}`, { token: tokens.admin, body: { department_id: biz.b.departments[0] } });
    expect(refusal(foreignDept)).toEqual([422, 'REQUEST_7001']);
  });

  it.each([
    ['owner', 'employee', 200], ['admin', 'manager', 200], ['admin', 'admin', 200], ['manager', 'employee', 200], ['manager', 'teammate', 200],
    ['manager', 'outsider', 403], ['manager', 'admin', 403], ['manager', 'manager', 403], ['employee', 'employee', 403], ['employee', 'teammate', 403],
    ['bookkeeper', 'employee', 403], ['auditor', 'employee', 403],
  ] as [FixtureRole, FixtureRole, number][])('issuing: %s to %s → %i', async (by, holder, status) => {
    const before = await cardCount();
    const res = await request(t.app, 'POST', CARDS, { token: tokens[by], body: { user_id: biz.a.users[holder], display_name: 'Card', limit: usd(1000) } });
    expect(res.status, res.text).toBe(status);
    if (status === 403) expect(res.body.error_v2.message).toMatch(/Only an admin or a manager|only to people on their team|cannot issue a card to yourself/);
    expect(await cardCount()).toBe(before + (status === 200 ? 1 : 0));
  });

  it('issues to nobody unknown or outside the business (404), and answers a repeated client id with the stored card', async () => {
    for (const user_id of [randomUUID(), biz.b.users.employee]) {
      const res = await request(t.app, 'POST', CARDS, { token: tokens.admin, body: { user_id, display_name: 'Card', limit: usd(1000) } });
      expect(refusal(res)).toEqual([404, 'REQUEST_7004']);
    }
    const id = randomUUID();
    const first = await issue('employee', { id });
    const again = await issue('employee', { id });
    expect(again).toEqual(first);
    expect((await t.db.query('SELECT 1 FROM cards WHERE id = $1', [id])).length).toBe(1);
    // Someone else (or another business) reusing the id is refused, not answered the card.
    for (const token of [tokens.owner, biz.bOwner]) {
      const res = await request(t.app, 'POST', CARDS, { token, body: { id, user_id: biz.a.users.employee, display_name: 'Card', limit: usd(1000) } });
      expect(refusal(res)).toEqual([422, 'REQUEST_7001']);
      expect(res.body.error_v2.errors.id).toBe('id is already used by another card');
    }
  });

  it.each([
    ['a negative limit', { limit: usd(-1) }, 'limit.amount'],
    ['a fractional limit', { limit: usd(10.5) }, 'limit.amount'],
    ['an absurd limit', { limit: usd(1e12) }, 'limit.amount'],
    ['per_transaction over the amount', { limit: usd(1000, 'MONTHLY', 2000) }, 'limit.per_transaction'],
    ['an unknown interval', { limit: { ...usd(1000), interval: 'HOURLY' } }, 'limit.interval'],
    ['an unknown currency', { limit: { ...usd(1000), currency: 'XYZ' } }, 'limit.currency'],
    ['an empty name', { display_name: ' ' }, 'display_name'],
    ['an unknown field', { pan: '4242424242424242' }, 'pan'],
  ])('refuses %s with a clear 422 and writes nothing', async (_, over, field) => {
    const before = await cardCount();
    const res = await request(t.app, 'POST', CARDS, { token: tokens.admin, body: { user_id: biz.a.users.employee, display_name: 'Card', limit: usd(1000), ...over } });
    expect(refusal(res)).toEqual([422, 'REQUEST_7001']);
    expect(Object.keys(res.body.error_v2.errors)).toContain(field);
    expect(await cardCount()).toBe(before);
  });

  it('never sends a network token or a card number', async () => {
    const card = await issue();
    const res = await request(t.app, 'GET', `${CARDS}/${card.id}`, { token: tokens.employee });
    expect(Object.keys(res.body).sort()).toEqual(Object.keys(cardSchema.shape).sort());
    const [row] = await t.db.query<{ network_token: string }>('SELECT network_token FROM cards WHERE id = $1', [card.id]);
    expect(row!.network_token).toMatch(/^tok_[0-9a-f]{32}$/);
    expect(res.text).not.toContain(row!.network_token);
  });

  describe('simulated authorizations', () => {
    const at = async (iso: string) => {
      clock.ms = Date.parse(iso);
      tokens.admin = await signIn(t.app, biz.a.email('admin'));
    };
    const spend = async (card: Card, amount: number, over: Record<string, unknown> = {}) => {
      const res = await request(t.app, 'POST', `${CARDS}/${card.id}/simulate`, { token: tokens.admin, body: { amount, merchant: 'Acme', ...over } });
      expect(res.status, res.text).toBe(200);
      return simulateResponseSchema.parse(res.body);
    };
    const decline = async (card: Card, amount: number, over: Record<string, unknown> = {}) => {
      const r = await spend(card, amount, over);
      return r.approved ? 'APPROVED' : r.decline_reason;
    };

    it.each([
      ['DAILY', '2026-03-10T23:30:00Z', '2026-03-11T00:30:00Z'],
      ['WEEKLY', '2026-03-15T23:30:00Z', '2026-03-16T00:30:00Z'], // Sunday → Monday
      ['MONTHLY', '2026-03-31T23:30:00Z', '2026-04-01T00:30:00Z'],
      ['YEARLY', '2026-12-31T23:30:00Z', '2027-01-01T00:30:00Z'],
    ] as [LimitInterval, string, string][])('%s: spends up to the limit, declines past it, and starts afresh after the boundary', async (interval, before, after) => {
      await at(before);
      const card = await issue('employee', { limit: usd(10_000, interval) });
      const first = await spend(card, 6_000);
      expect(first.approved).toBe(true);
      if (first.approved) expect(first.transaction).toMatchObject({ card_id: card.id, user_id: biz.a.users.employee, state: 'PENDING', amount: 6_000, merchant_name: 'Acme' });
      expect(await decline(card, 4_001)).toBe('SPENDING_LIMIT_EXCEEDED');
      expect(await decline(card, 4_000)).toBe('APPROVED');
      expect(await decline(card, 1)).toBe('SPENDING_LIMIT_EXCEEDED');
      await at(after);
      expect(await decline(card, 10_000)).toBe('APPROVED');
      expect(await decline(card, 1)).toBe('SPENDING_LIMIT_EXCEEDED');
    });

    it('TOTAL never resets; refunds and declines do not count; other currencies are declined', async () => {
      await at('2026-03-10T12:00:00Z');
      const card = await issue('employee', { limit: usd(5_000, 'TOTAL', 3_000) });
      expect(await decline(card, 3_001)).toBe('PER_TRANSACTION_LIMIT_EXCEEDED');
      expect(await decline(card, 3_000)).toBe('APPROVED');
      expect(await decline(card, 100, { currency: 'EUR' })).toBe('CURRENCY_NOT_SUPPORTED');
      await t.db.query(
        `INSERT INTO transactions (id, business_id, card_id, user_id, merchant_name, amount, currency, occurred_at, state, change_seq)
         VALUES ($1, $2, $3, $4, 'Old', 9000, 'USD', '2026-03-01', 'DECLINED', 0), ($5, $2, $3, $4, 'Old', 9000, 'USD', '2026-03-01', 'REVERSED', 0)`,
        [randomUUID(), biz.a.businessId, card.id, biz.a.users.employee, randomUUID()],
      );
      await at('2027-06-01T00:00:00Z');
      expect(await decline(card, 2_001)).toBe('SPENDING_LIMIT_EXCEEDED');
      expect(await decline(card, 2_000)).toBe('APPROVED');
    });

    it('declines on a card that is not active, or at a category it does not allow, writing nothing', async () => {
      await at('2026-03-10T12:00:00Z');
      const card = await issue('employee', { allowed_categories: ['Software'] });
      expect(await decline(card, 100, { merchant_category: 'Travel' })).toBe('MERCHANT_CATEGORY_BLOCKED');
      const count = async () => Number((await t.db.query<{ n: number }>('SELECT count(*) AS n FROM transactions WHERE card_id = $1', [card.id]))[0]!.n);
      const seq = async () => Number((await t.db.query<{ n: number }>('SELECT change_seq AS n FROM businesses WHERE id = $1', [biz.a.businessId]))[0]!.n);
      const physical = await issue('employee', { is_physical: true });
      expect(await decline(physical, 100, { merchant_category: 'Software' })).toBe('CARD_NOT_ACTIVE');
      const steps: [string, string][] = [['lock', 'CARD_LOCKED'], ['suspend', 'CARD_SUSPENDED'], ['terminate', 'CARD_TERMINATED']];
      for (const [action, reason] of steps) {
        expect((await act('admin', card.id, action)).status).toBe(200);
        const before = await seq();
        const r = await spend(card, 100, { merchant_category: 'Software' });
        expect(r).toEqual({ approved: false, decline_reason: reason, message: expect.any(String) });
        expect(await seq()).toBe(before);
      }
      expect(await count()).toBe(0);
      // Only the holder or an admin spends; the manager may see the card but not spend on it.
      const other = await issue();
      expect((await request(t.app, 'POST', `${CARDS}/${other.id}/simulate`, { token: tokens.manager, body: { amount: 1, merchant: 'X' } })).status).toBe(403);
      expect((await request(t.app, 'POST', `${CARDS}/${other.id}/simulate`, { token: tokens.employee, body: { amount: 1, merchant: 'X' } })).status).toBe(200);
      expect((await request(t.app, 'POST', `${CARDS}/${other.id}/simulate`, { token: biz.bOwner, body: { amount: 1, merchant: 'X' } })).status).toBe(404);
      clock.ms = Date.parse('2026-03-10T12:00:00Z');
    });
  });

  describe('bulk lock', () => {
    const bulk = (role: FixtureRole, ids: string[], lock = true) =>
      request(t.app, 'POST', `${CARDS}/bulk_lock`, { token: tokens[role], body: { card_uuids: ids, lock } });
    const statuses = async (ids: string[]) =>
      (await t.db.query<{ id: string; status: string }>('SELECT id::text, status FROM cards WHERE id = ANY($1::uuid[])', [ids])).map((r) => r.status);

    it('is all or none: one invisible, forbidden or refused card refuses the call, naming it', async () => {
      const cards = [await issue(), await issue('teammate'), await issue('manager')];
      const ids = cards.map((c) => c.id);
      const terminated = await issue();
      await act('admin', terminated.id, 'terminate');
      const cases: [FixtureRole, string, number][] = [
        ['admin', randomUUID(), 404], ['admin', biz.b.cards.employee, 404], ['admin', terminated.id, 422], ['manager', biz.a.cards.outsider, 404],
      ];
      for (const [role, bad, status] of cases) {
        const res = await bulk(role, [...ids, bad]);
        expect(res.status, res.text).toBe(status);
        expect(res.body.error_v2.message).toContain(bad);
        expect(await statuses(ids)).toEqual(['ACTIVE', 'ACTIVE', 'ACTIVE']);
      }
      // A bookkeeper sees every card and may act on none of them.
      expect((await bulk('bookkeeper', ids)).status).toBe(403);
      const ok = await bulk('admin', ids);
      expect(ok.status, ok.text).toBe(200);
      const body = bulkLockCards.response.parse(ok.body);
      expect(body.updated).toBe(3);
      expect(await statuses(ids)).toEqual(['LOCKED', 'LOCKED', 'LOCKED']);
      const seqs = (await t.db.query<{ s: number }>('SELECT change_seq AS s FROM cards WHERE id = ANY($1::uuid[]) ORDER BY change_seq', [ids])).map((r) => Number(r.s));
      expect(seqs).toEqual([body.change_seq - 2, body.change_seq - 1, body.change_seq]);
      // Already locked counts as done: a resend succeeds and changes nothing.
      expect(bulkLockCards.response.parse((await bulk('admin', ids)).body).updated).toBe(0);
      expect(bulkLockCards.response.parse((await bulk('employee', [ids[0]!], false)).body).updated).toBe(1);
    });

    it('refuses more than 1,000 cards or a repeated card, and locks 1,000 in one call', async () => {
      const many = Array.from({ length: 1_000 }, () => randomUUID());
      await t.db.query(
        `INSERT INTO cards (id, business_id, user_id, display_name, last_four, change_seq)
         SELECT x, $2, $3, 'Bulk', lpad((n % 10000)::text, 4, '0'), 0 FROM unnest($1::uuid[]) WITH ORDINALITY AS u(x, n)`,
        [many, biz.a.businessId, biz.a.users.teammate],
      );
      const over = await bulk('admin', [...many, randomUUID()]);
      expect(refusal(over)).toEqual([422, 'REQUEST_7001']);
      const dup = await bulk('admin', [many[0]!, many[0]!]);
      expect(refusal(dup)).toEqual([422, 'REQUEST_7001']);
      expect(dup.body.error_v2.message).toContain('must not repeat');
      const res = await bulk('admin', many);
      expect(res.status, res.text).toBe(200);
      expect(res.body.updated).toBe(1_000);
      expect(new Set(await statuses(many))).toEqual(new Set(['LOCKED']));
    });
  });

});
