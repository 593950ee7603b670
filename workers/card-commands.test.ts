import { describe, expect, it } from 'vitest';
import type { Approval } from '../schema/entities/approval.ts';
import type { Card } from '../schema/entities/card.ts';
import type { CardRequest } from '../schema/entities/card-request.ts';
import type { Reimbursement } from '../schema/entities/reimbursement.ts';
import { MAX_BULK_LOCK } from '../schema/api/calls-cards.ts';
import { jsonResponse } from '../sync/testing.ts';
import { makeCard, sampleRows, testUuid } from './test-fixtures.ts';
import { entryOf, feedChange as put, mirrorDevice, serverRows, outboxOver, commandId } from './testing/mirror-device.ts';

/**
 * Card commands in the worker (issue 10): shown at once and durable (a lock made offline
 * survives a restart, still pending), sent exactly once by the real outbox over the stored
 * entry, split into calls a request takes, and the commands that change more than one row.
 */
const ACTOR = { user_id: testUuid(2, 1), business_id: testUuid(0xb, 1) };
const CARD = testUuid(7, 1);

const device = (name: string) => mirrorDevice(name, ACTOR);

const card = (n: number, o: Partial<Card> = {}): Card => ({ ...makeCard(n, 1), change_seq: n, ...o });

describe('locking a card offline', () => {
  it('shows LOCKED and pending at once, survives a restart, and is sent exactly once when the network returns', async () => {
    const open = device('card-lock-offline');
    const rt = await open();
    await serverRows(rt, [put('cards', card(1))]);
    const { result } = await rt.commands.run('card.lock', { card_id: CARD });
    expect(result).toMatchObject({ ok: true, affected: 1 });
    expect(await rt.get('cards', CARD)).toMatchObject({ status: 'LOCKED', pending: 'pending', failure: null });
    const locked = await rt.query('cards', { filter: { statuses: ['LOCKED'] }, sort: 'name_asc', offset: 0, limit: 10 });
    expect(locked.rows.map((r) => [r.id, r.pending])).toEqual([[CARD, 'pending']]);
    await rt.close();

    // The worker restarts (a reload, still offline): the lock is read back from IndexedDB.
    const again = await open();
    expect(await again.get('cards', CARD)).toMatchObject({ status: 'LOCKED', pending: 'pending' });
    const [entry] = again.outboxIndex.entries();
    expect(entry).toMatchObject({ id: commandId(result), command: 'card.lock', state: 'pending' });

    const server: Card = { ...card(1), status: 'LOCKED', change_seq: 5 };
    const net = outboxOver(again, [jsonResponse(200, server)], { scopes: ['default', 'low-risk'] });
    net.outbox.pause('offline');
    net.outbox.kick();
    await net.outbox.whenIdle();
    expect(net.transport.requests).toHaveLength(0);

    net.outbox.resume();
    await net.outbox.whenIdle();
    expect(net.transport.requests).toHaveLength(1);
    expect(net.transport.requests[0]).toMatchObject({ method: 'POST', url: `http://api.test/v1/auth/cards/${CARD}/lock` });
    // A command's key is its id until a definite refusal is retried under a fresh one.
    expect(net.transport.requests[0]!.headers['idempotency-key']).toBe(entry!.idempotency_key ?? entry!.id);
    expect(await again.outboxStore.get(entry!.id)).toBeNull();
    await expect.poll(async () => again.get('cards', CARD)).toMatchObject({ status: 'LOCKED', pending: null, change_seq: 5 });

    // Nothing is left to send: a later kick sends nothing more.
    net.outbox.kick();
    await net.outbox.whenIdle();
    expect(net.transport.requests).toHaveLength(1);
  });

  it('resends after a lost answer with the same Idempotency-Key', async () => {
    const rt = await device('card-lock-lost')();
    await serverRows(rt, [put('cards', card(1))]);
    const id = commandId((await rt.commands.run('card.lock', { card_id: CARD })).result);
    const server: Card = { ...card(1), status: 'LOCKED', change_seq: 6 };
    // The server took the first request; its answer never arrived.
    const net = outboxOver(rt, [new TypeError('connection reset'), jsonResponse(200, server)], { scopes: ['default', 'low-risk'] });
    net.outbox.kick();
    await net.outbox.whenIdle();
    expect(net.transport.requests).toHaveLength(1);
    expect(await entryOf(rt, id)).toMatchObject({ state: 'pending', maybe_sent: true });
    expect(await rt.get('cards', CARD)).toMatchObject({ status: 'LOCKED', pending: 'pending' });

    await net.clock.advance(60_000);
    await net.outbox.whenIdle();
    const keys = net.transport.requests.map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys).toEqual([id, id]);
    expect(net.transport.requests.map((r) => r.url)).toEqual([`http://api.test/v1/auth/cards/${CARD}/lock`, `http://api.test/v1/auth/cards/${CARD}/lock`]);
    expect(await rt.outboxStore.get(id)).toBeNull();
    expect(await rt.get('cards', CARD)).toMatchObject({ status: 'LOCKED', pending: null });
  });
});

describe('a bulk lock', () => {
  it('of 2,500 cards is three calls of at most 1,000, every card shown LOCKED at once', async () => {
    const rt = await device('card-bulk-lock')();
    const cards = Array.from({ length: 2500 }, (_, i) => card(i + 1));
    await serverRows(rt, cards.map((c) => put('cards', c)));
    const ids = cards.map((c) => c.id);
    const { result, entries } = await rt.commands.run('card.bulkLock', { card_ids: [...ids, ids[0]!], lock: true });
    expect(result).toMatchObject({ ok: true, affected: 2500 });
    expect(entries.map((e) => [e.command, e.entity_ids.length])).toEqual([
      ['card.bulkLock', MAX_BULK_LOCK],
      ['card.bulkLock', MAX_BULK_LOCK],
      ['card.bulkLock', 500],
    ]);
    expect(new Set(entries.flatMap((e) => e.entity_ids))).toEqual(new Set(ids));
    const shown = await rt.query('cards', { filter: { statuses: ['LOCKED'] }, sort: 'name_asc', offset: 0, limit: 1 });
    expect(shown.total).toBe(2500);

    const answer = (n: number) => jsonResponse(200, { updated: n, change_seq: 2500 + n });
    const net = outboxOver(rt, [answer(1000), answer(1000), answer(500)], { scopes: ['default', 'low-risk'] });
    net.outbox.kick();
    await net.outbox.whenIdle();
    const bodies = net.transport.requests.map((r) => r.body as { card_uuids: string[]; lock: boolean });
    expect(net.transport.requests.map((r) => r.url)).toEqual(Array(3).fill('http://api.test/v1/auth/cards/bulk_lock'));
    expect(bodies.map((b) => [b.card_uuids.length, b.lock])).toEqual([[1000, true], [1000, true], [500, true]]);
    expect(bodies.flatMap((b) => b.card_uuids).sort()).toEqual([...ids].sort());
  });
});

describe('issuing a card', () => {
  it('shows a REQUESTED blank row at once; the server’s issued row replaces it', async () => {
    const rt = await device('card-issue')();
    const NEW = testUuid(7, 99);
    const { result } = await rt.commands.run('card.issue', {
      id: NEW, user_id: testUuid(2, 3), display_name: 'Travel', limit: { amount: 150_000, currency: 'USD', interval: 'MONTHLY' },
    });
    const page = async () => rt.query('cards', { filter: {}, sort: 'name_asc', offset: 0, limit: 10 });
    expect((await page()).rows).toMatchObject([{
      id: NEW, user_id: testUuid(2, 3), business_id: ACTOR.business_id, status: 'REQUESTED', last_four: null, expires: null,
      limit: { amount: 150_000, currency: 'USD', interval: 'MONTHLY', per_transaction: null }, pending: 'pending',
    }]);

    const entry = await entryOf(rt, commandId(result));
    const shown = (await rt.get('cards', NEW))!;
    const { pending, failure, ...blank } = shown;
    void pending;
    void failure;
    const issued: Card = { ...(blank as Card), status: 'ACTIVE', last_four: '9876', expires: '2029-01', change_seq: 8 };
    await rt.mirror.confirm(entry, issued);
    await rt.outboxStore.remove(entry.id);
    await expect.poll(async () => (await page()).rows.map((r) => [r.id, r.status, r.last_four, r.pending])).toEqual([[NEW, 'ACTIVE', '9876', null]]);
    expect((await page()).total).toBe(1);
  });
});

describe('setting the primary card', () => {
  it('flips both rows at once: the chosen one becomes primary, the previous one stops being it', async () => {
    const rt = await device('card-primary')();
    const A = testUuid(7, 1);
    const B = testUuid(7, 2);
    await serverRows(rt, [put('cards', card(1, { is_primary: true })), put('cards', card(2))]);
    const { result } = await rt.commands.run('card.setPrimary', { card_id: B, previous_ids: [A] });
    expect(result).toMatchObject({ ok: true, affected: 2 });
    expect(await rt.get('cards', B)).toMatchObject({ is_primary: true, pending: 'pending' });
    expect(await rt.get('cards', A)).toMatchObject({ is_primary: false, pending: 'pending' });
    expect((await entryOf(rt, commandId(result))).entity_ids).toEqual([B, A]);
  });
});

describe('card requests and their approvals', () => {
  const REQUEST = testUuid(0xc, 1);
  const CLAIM = testUuid(3, 1);
  const REQUEST_APPROVAL = testUuid(4, 1);
  const CLAIM_APPROVAL = testUuid(4, 2);
  const REQUESTER = testUuid(5, 1);

  async function seeded(name: string) {
    const rt = await device(name)();
    const request: CardRequest = { ...sampleRows('card_requests', 1)[0]!, id: REQUEST, user_id: REQUESTER, status: 'PENDING', change_seq: 1 };
    const claim: Reimbursement = { ...sampleRows('reimbursements', 1)[0]!, id: CLAIM, user_id: REQUESTER, status: 'SUBMITTED', change_seq: 2 };
    const approval = (id: string, object_type: Approval['object_type'], object_id: string, seq: number): Approval => ({
      ...sampleRows('approvals', 1)[0]!, id, object_type, object_id, user_id: REQUESTER, status: 'PENDING', reason: null, change_seq: seq,
    });
    await serverRows(rt, [
      put('card_requests', request), put('reimbursements', claim),
      put('approvals', approval(REQUEST_APPROVAL, 'card_request', REQUEST, 3)), put('approvals', approval(CLAIM_APPROVAL, 'reimbursement', CLAIM, 4)),
    ]);
    await expect.poll(async () => (await rt.get('approvals', CLAIM_APPROVAL))?.status).toBe('PENDING');
    return rt;
  }

  it('the inbox query lists both kinds, or one kind by object_types', async () => {
    const rt = await seeded('card-request-inbox');
    const ids = async (object_types?: Approval['object_type'][]) =>
      (await rt.query('approvals', { filter: { status: ['PENDING'], ...(object_types ? { object_types } : {}) }, sort: 'created_asc', offset: 0, limit: 10 })).rows.map((r) => r.id).sort();
    expect(await ids()).toEqual([REQUEST_APPROVAL, CLAIM_APPROVAL].sort());
    expect(await ids(['card_request'])).toEqual([REQUEST_APPROVAL]);
    expect(await ids(['reimbursement'])).toEqual([CLAIM_APPROVAL]);
  });

  it('canceling a request also cancels its pending approval locally', async () => {
    const rt = await seeded('card-request-cancel');
    const { result } = await rt.commands.run('cardRequest.cancel', { request_id: REQUEST });
    expect(await rt.get('card_requests', REQUEST)).toMatchObject({ status: 'CANCELED', pending: 'pending' });
    expect(await rt.get('approvals', REQUEST_APPROVAL)).toMatchObject({ status: 'CANCELED', pending: 'pending' });
    expect(await rt.get('approvals', CLAIM_APPROVAL)).toMatchObject({ status: 'PENDING', pending: null });
    expect((await entryOf(rt, commandId(result))).entity_ids).toEqual([REQUEST, REQUEST_APPROVAL]);
  });

  it('approving a card request’s approval moves the request to APPROVED and leaves claims alone', async () => {
    const rt = await seeded('card-request-approve');
    const { result } = await rt.commands.run('approval.approve', { approval_id: REQUEST_APPROVAL });
    expect(await rt.get('approvals', REQUEST_APPROVAL)).toMatchObject({ status: 'APPROVED', pending: 'pending' });
    expect(await rt.get('card_requests', REQUEST)).toMatchObject({ status: 'APPROVED', pending: 'pending' });
    expect(await rt.get('reimbursements', CLAIM)).toMatchObject({ status: 'SUBMITTED', pending: null });
    expect((await entryOf(rt, commandId(result))).entity_ids).toEqual([REQUEST_APPROVAL, REQUEST]);
  });

  it('rejecting a card request’s approval records the reason on the request', async () => {
    const rt = await seeded('card-request-reject');
    await rt.commands.run('approval.reject', { approval_id: REQUEST_APPROVAL, reason: 'Use the team card' });
    expect(await rt.get('card_requests', REQUEST)).toMatchObject({ status: 'REJECTED', rejection_reason: 'Use the team card', pending: 'pending' });
    expect(await rt.get('reimbursements', CLAIM)).toMatchObject({ status: 'SUBMITTED', pending: null });
  });

  it('approving a claim’s approval moves the claim and leaves card requests alone', async () => {
    const rt = await seeded('claim-approve');
    const { result } = await rt.commands.run('approval.approve', { approval_id: CLAIM_APPROVAL });
    expect(await rt.get('reimbursements', CLAIM)).toMatchObject({ status: 'APPROVED', pending: 'pending' });
    expect(await rt.get('card_requests', REQUEST)).toMatchObject({ status: 'PENDING', pending: null });
    expect((await entryOf(rt, commandId(result))).entity_ids).toEqual([CLAIM_APPROVAL, CLAIM]);
  });
});
