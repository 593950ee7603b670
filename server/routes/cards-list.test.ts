import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { getPrimaryCard, listCardRequests, listCards, listFavoriteCards, reissueCard, setPrimaryCard } from '../../schema/api/calls-cards.ts';
import { decisionSchema } from '../../schema/api/calls-approvals.ts';
import { syncChanges } from '../../schema/api/calls.ts';
import { cardRequestSchema } from '../../schema/entities/card-request.ts';
import { cardSchema } from '../../schema/entities/card.ts';
import { testDatabases } from '../test-db.ts';
import { request, signIn, type FixtureRole } from '../test-fixtures.ts';
import { useTestApp } from '../test-app.ts';
import { CARDS, cardsClock, useCardsApi, usd } from './cards-test-kit.ts';

/**
 * Cards (issue 10) through the API, continued from cards.test.ts: reissue, primary and favourite
 * cards, the list, the change feed, and card requests through approval. The fixture's world:
 * cards-test-kit.ts.
 */
describe.each(await testDatabases())('cards: reissue, primary, list and requests on %s', (kind) => {
  const clock = cardsClock();
  const t = useTestApp(kind, { now: () => clock.ms });
  const { biz, tokens, issue, act, stored, refusal } = useCardsApi(t);

  it('reissues once: the old card terminated and pointing at a successor with a new number and the same settings', async () => {
    const card = await issue('employee', { limit: usd(70_000, 'WEEKLY', 5_000), allowed_categories: ['Travel'], department_id: biz.a.departments[2], is_physical: true });
    await act('employee', card.id, 'activate', { last_four: card.last_four });
    await request(t.app, 'PATCH', `${CARDS}/primary`, { token: tokens.employee, body: { card_id: card.id } });
    const successor_id = randomUUID();
    const res = await request(t.app, 'POST', `${CARDS}/${card.id}/reissue`, { token: tokens.employee, body: { successor_id } });
    expect(res.status, res.text).toBe(200);
    const body = reissueCard.response.parse(res.body);
    expect(body.card).toMatchObject({ status: 'TERMINATED', replaced_by_id: successor_id, is_primary: false });
    expect(body.successor).toMatchObject({
      id: successor_id, replaces_id: card.id, status: 'SHIPPED', is_physical: true, limit: usd(70_000, 'WEEKLY', 5_000),
      allowed_categories: ['Travel'], department_id: biz.a.departments[2], is_primary: true,
    });
    expect(body.successor.last_four).not.toBe(card.last_four);
    // The resend answers the same pair; a second reissue is refused.
    const again = await request(t.app, 'POST', `${CARDS}/${card.id}/reissue`, { token: tokens.employee, body: { successor_id } });
    expect(reissueCard.response.parse(again.body).successor.id).toBe(successor_id);
    const other = await request(t.app, 'POST', `${CARDS}/${card.id}/reissue`, { token: tokens.employee, body: {} });
    expect(refusal(other)).toEqual([422, 'REQUEST_7001']);
    expect((await t.db.query('SELECT 1 FROM cards WHERE replaces_id = $1', [card.id])).length).toBe(1);
  });

  it('keeps one primary card per holder, and stars only the holder\'s own cards', async () => {
    const [one, two] = [await issue('teammate'), await issue('teammate')];
    tokens.teammate = await signIn(t.app, biz.a.email('teammate'));
    const set = (id: string, role: FixtureRole = 'teammate') => request(t.app, 'PATCH', `${CARDS}/primary`, { token: tokens[role], body: { card_id: id } });
    expect((await set(one.id)).status).toBe(200);
    const res = await set(two.id);
    const body = setPrimaryCard.response.parse(res.body);
    expect(body.data.map((c) => [c.id, c.is_primary]).sort()).toEqual([[one.id, false], [two.id, true]].sort());
    expect((await stored(one.id))!.is_primary).toBe(false);
    expect(getPrimaryCard.response.parse((await request(t.app, 'GET', `${CARDS}/primary`, { token: tokens.teammate })).body).card?.id).toBe(two.id);
    expect(refusal(await set(two.id, 'admin'))).toEqual([403, 'FORBIDDEN_7003']);
    const fav = (method: string, ids: string[], role: FixtureRole = 'teammate') =>
      request(t.app, method, '/v1/auth/users/current/favorited_cards', { token: tokens[role], body: { card_ids: ids } });
    expect((await fav('POST', [one.id, two.id])).status).toBe(200);
    expect(refusal(await fav('POST', [one.id], 'admin'))).toEqual([403, 'FORBIDDEN_7003']);
    expect(refusal(await fav('POST', [one.id], 'outsider'))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await fav('POST', [one.id, biz.b.cards.employee]))).toEqual([404, 'REQUEST_7004']);
    expect((await fav('DELETE', [one.id])).status).toBe(200);
    const list = listFavoriteCards.response.parse((await request(t.app, 'GET', '/v1/auth/users/current/favorited_cards', { token: tokens.teammate })).body);
    expect(list.data.map((c) => c.id)).toEqual([two.id]);
  });

  it('lists visible cards keyset-paged in each sort, with filters and a count', async () => {
    const holder = 'outsider';
    const names = ['Zeta', 'alpha', 'Mid', 'beta'];
    for (const [i, name] of names.entries()) {
      clock.ms += 60_000;
      await issue(holder, { display_name: name, limit: usd(1000 * (i + 1)), department_id: name === 'Mid' ? biz.a.departments[2] : null });
    }
    const page = async (query: string, token = tokens.admin) => {
      const ids: string[] = [];
      let start: string | null = null;
      let total: number | undefined;
      do {
        const res = await request(t.app, 'GET', `${CARDS}?${query}&page_size=1&include_count=true${start ? `&start=${start}` : ''}`, { token });
        expect(res.status, res.text).toBe(200);
        const body = listCards.response.parse(res.body);
        ids.push(...body.data.map((c) => c.display_name));
        total = body.total_count;
        start = body.page.next;
      } while (start);
      return { ids, total };
    };
    const filter = `user_ids=${biz.a.users[holder]}`;
    // The fixture's own card (limit 5,000.00, created first) is among them.
    const fixture = "Outsider's card";
    expect(await page(`${filter}&sort=name_asc`)).toEqual({ ids: ['alpha', 'beta', 'Mid', fixture, 'Zeta'], total: 5 });
    expect((await page(`${filter}&sort=limit_desc`)).ids).toEqual([fixture, 'beta', 'Mid', 'alpha', 'Zeta']);
    // The fixture's card was inserted at the database's own now(), after the test clock.
    expect((await page(`${filter}&sort=created_desc`)).ids).toEqual([fixture, 'beta', 'Mid', 'alpha', 'Zeta']);
    expect((await page(`${filter}&q=zet`)).ids).toEqual(['Zeta']);
    expect((await page(`${filter}&department_ids=${biz.a.departments[2]}`)).ids).toEqual(['Mid']);
    expect((await page(`${filter}&is_physical=true`)).total).toBe(0);
    expect((await page(`q=Outsider&statuses=ACTIVE&is_physical=false`)).ids.length).toBeGreaterThanOrEqual(4);
    // The owner rule: the employee sees only their own cards; another business none of these.
    expect((await page(filter, tokens.employee)).total).toBe(0);
    expect((await page('sort=name_asc', biz.bOwner)).total).toBe(Object.keys(biz.b.cards).length);
    expect(refusal(await request(t.app, 'GET', `${CARDS}?start=garbage`, { token: tokens.admin }))).toEqual([422, 'REQUEST_7001']);
  });

  it('carries cards and card requests on the change feed, in their entity shapes, to whom the owner rule lets see them', async () => {
    const [{ hw }] = await t.db.query<{ hw: number }>('SELECT change_seq AS hw FROM businesses WHERE id = $1', [biz.a.businessId]) as [{ hw: number }];
    const card = await issue('employee');
    const req = await request(t.app, 'POST', `${CARDS}/requests`, {
      token: tokens.employee, body: { amount: 5_000, currency: 'USD', interval: 'DAILY', reason: 'Feed check' },
    });
    const feed = async (token: string) => {
      const res = await request(t.app, 'GET', `/v1/auth/sync/changes?after=${hw}&limit=500`, { token });
      expect(res.status, res.text).toBe(200);
      return syncChanges.response.parse(res.body).changes;
    };
    const mine = await feed(tokens.employee);
    const cardChange = mine.find((c) => c.collection === 'cards' && c.id === card.id);
    const requestChange = mine.find((c) => c.collection === 'card_requests' && c.id === req.body.id);
    expect(cardSchema.strict().parse(cardChange?.doc)).toEqual(card);
    expect(cardRequestSchema.strict().parse(requestChange?.doc)).toEqual(req.body);
    expect((await feed(tokens.outsider)).filter((c) => c.id === card.id || c.id === req.body.id)).toEqual([]);
  });

  describe('card requests', () => {
    const REQUESTS = `${CARDS}/requests`;
    const body = { amount: 80_000, currency: 'USD', interval: 'MONTHLY', reason: 'Conference travel' };
    const approvalOf = async (requestId: string) =>
      (await t.db.query<{ id: string; status: string; approver_id: string | null }>('SELECT id::text, status, approver_id::text FROM approvals WHERE object_id = $1', [requestId]))[0]!;

    it('opens an approval; approving issues the card to the requester; nobody approves their own', async () => {
      const id = randomUUID();
      const res = await request(t.app, 'POST', `${CARDS}/request-physical`, { token: tokens.employee, body: { ...body, id } });
      expect(res.status, res.text).toBe(200);
      const created = cardRequestSchema.parse(res.body);
      expect(created).toMatchObject({ id, user_id: biz.a.users.employee, is_physical: true, status: 'PENDING', card_id: null });
      expect(cardRequestSchema.parse((await request(t.app, 'POST', REQUESTS, { token: tokens.employee, body: { ...body, id } })).body)).toEqual(created);
      const approval = await approvalOf(id);
      expect(approval).toMatchObject({ status: 'PENDING', approver_id: biz.a.users.manager });
      const own = await request(t.app, 'POST', `/v1/auth/approvals/${approval.id}/approve`, { token: tokens.employee });
      expect(own.status).toBe(403); // an employee is no reviewer at all
      const byManager = await request(t.app, 'POST', `/v1/auth/approvals/${approval.id}/approve`, { token: tokens.manager });
      expect(byManager.status, byManager.text).toBe(200);
      const decision = decisionSchema.parse(byManager.body);
      expect(decision.card_request).toMatchObject({ id, status: 'APPROVED', card_id: decision.card!.id, decided_by: biz.a.users.manager });
      expect(decision.card).toMatchObject({ user_id: biz.a.users.employee, status: 'SHIPPED', is_physical: true, display_name: 'Physical card', limit: usd(80_000) });
      expect(decision.change_seq).toBe(decision.card!.change_seq);
      const cancel = await request(t.app, 'DELETE', `${REQUESTS}/${id}`, { token: tokens.employee });
      expect(refusal(cancel)).toEqual([422, 'REQUEST_7001']);
      expect(cancel.body.error_v2.message).toContain('status APPROVED');
      // A manager's own request: refused to them by name, decided by an admin.
      const mine = await request(t.app, 'POST', REQUESTS, { token: tokens.manager, body });
      const selfie = await request(t.app, 'POST', `/v1/auth/approvals/${(await approvalOf(mine.body.id)).id}/approve`, { token: tokens.manager });
      expect(refusal(selfie)).toEqual([403, 'APPROVAL_7201']);
      expect(selfie.body.error_v2.message).toContain('card request');
      // The inbox's Type filter: the server's list honours object_types as the worker's engine does.
      const pending = async (types: string) => (await request(t.app, 'GET', `/v1/auth/approvals?status=PENDING&object_types=${types}&page_size=1000`, { token: tokens.admin }))
        .body.data as { object_type: string; object_id: string }[];
      // A claim waits too, so a list that ignored the filter would show both kinds.
      const claim = await request(t.app, 'POST', '/v1/auth/reimbursements/out_of_pocket', {
        token: tokens.employee, body: { amount: 1250, currency: 'USD', transaction_date: '2026-01-05', merchant: 'Cafe' },
      });
      expect(claim.status, claim.text).toBe(200);
      const requestsOnly = await pending('card_request');
      expect(requestsOnly.map((x) => x.object_id)).toContain(mine.body.id);
      expect(new Set(requestsOnly.map((x) => x.object_type))).toEqual(new Set(['card_request']));
      const claimsOnly = await pending('reimbursement');
      expect(claimsOnly.map((x) => x.object_id)).toContain(claim.body.id);
      expect(claimsOnly.some((x) => x.object_type === 'card_request')).toBe(false);
    });

    it('rejects with a reason, cancels with its approval, and lists by the owner rule', async () => {
      const r1 = cardRequestSchema.parse((await request(t.app, 'POST', REQUESTS, { token: tokens.teammate, body })).body);
      const rej = await request(t.app, 'POST', `/v1/auth/approvals/${(await approvalOf(r1.id)).id}/reject`, { token: tokens.admin, body: { reason: 'Use the team card' } });
      expect(rej.status, rej.text).toBe(200);
      expect(decisionSchema.parse(rej.body).card_request).toMatchObject({ status: 'REJECTED', rejection_reason: 'Use the team card', card_id: null });
      expect(decisionSchema.parse(rej.body).card).toBeUndefined();
      clock.ms += 60_000;
      const r2 = cardRequestSchema.parse((await request(t.app, 'POST', REQUESTS, { token: tokens.teammate, body })).body);
      expect(refusal(await request(t.app, 'DELETE', `${REQUESTS}/${r2.id}`, { token: tokens.admin }))).toEqual([403, 'FORBIDDEN_7003']);
    expect(refusal(await request(t.app, 'DELETE', `${REQUESTS}/${r2.id}`, { token: tokens.outsider }))).toEqual([404, 'REQUEST_7004']);
      expect(refusal(await request(t.app, 'DELETE', `${REQUESTS}/${r2.id}`, { token: biz.bOwner }))).toEqual([404, 'REQUEST_7004']);
      const cancel = await request(t.app, 'DELETE', `${REQUESTS}/${r2.id}`, { token: tokens.teammate });
      expect(cancel.status, cancel.text).toBe(200);
      expect(cancel.body.status).toBe('CANCELED');
      expect((await approvalOf(r2.id)).status).toBe('CANCELED');
      const list = async (token: string, q = '') =>
        listCardRequests.response.parse((await request(t.app, 'GET', `${REQUESTS}?page_size=1${q}`, { token })).body);
      const first = await list(tokens.teammate, '&include_count=true');
      expect(first.total_count).toBe(2);
      expect(first.data[0]!.id).toBe(r2.id);
      const second = await list(tokens.teammate, `&start=${first.page.next}`);
      expect(second.data.map((r) => r.id)).toEqual([r1.id]);
      expect((await list(tokens.outsider, '&include_count=true')).total_count).toBe(0);
      expect((await list(biz.bOwner, '&include_count=true')).total_count).toBe(0);
      expect((await list(tokens.admin, '&statuses=REJECTED&include_count=true')).total_count).toBeGreaterThanOrEqual(1);
    });

    it('decides card requests and claims alike in one bulk call', async () => {
      const req = cardRequestSchema.parse((await request(t.app, 'POST', REQUESTS, { token: tokens.employee, body })).body);
      const claim = await request(t.app, 'POST', '/v1/auth/reimbursements/out_of_pocket', {
        token: tokens.employee, body: { merchant: 'Cafe', amount: 900, currency: 'USD', transaction_date: '2026-03-01' },
      });
      const claimApproval = (await t.db.query<{ id: string }>('SELECT id::text FROM approvals WHERE object_id = $1', [claim.body.id]))[0]!.id;
      const res = await request(t.app, 'POST', '/v1/auth/approval_policy/bulk-approval', {
        token: tokens.admin, body: { approval_ids: [(await approvalOf(req.id)).id, claimApproval], decision: 'APPROVE' },
      });
      expect(res.status, res.text).toBe(200);
      const rows = res.body.results.map((r: { ok: boolean; row: Record<string, { status: string }> }) => [r.ok, r.row.card_request?.status ?? r.row.reimbursement?.status]);
      expect(rows).toEqual([[true, 'APPROVED'], [true, 'APPROVED']]);
      expect(res.body.results[0].row.card.user_id).toBe(biz.a.users.employee);
    });
  });
});
