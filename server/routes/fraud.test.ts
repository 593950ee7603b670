import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { simulateResponseSchema } from '../../schema/api/calls-cards.ts';
import { fraudResponseResultSchema } from '../../schema/api/calls-fraud.ts';
import { syncChanges } from '../../schema/api/calls.ts';
import { cardSchema, type Card } from '../../schema/entities/card.ts';
import type { Transaction } from '../../schema/entities/transaction.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn, type Fixture, type FixtureRole } from '../test-fixtures.ts';

/**
 * Fraud response (issue 24) through the API: simulated purchases the rules hold (and mail), the
 * answer's refusals (who, which status, another business), NOT_RECOGNIZED (card locked, one
 * dispute, reissue offered; repeats and races answer the same), RECOGNIZED (hold cleared, the
 * card's profile taught), Idempotency-Key replay and the mirrored doc.
 * Reporting line in the fixture: employee → manager, teammate → employee.
 */
const CARDS = '/v1/auth/cards';
const answerPath = (id: string) => `/v1/auth/transactions/${id}/fraud-response`;

describe.each(await testDatabases())('fraud response on %s', (kind) => {
  let clock = Date.parse('2026-11-20T09:00:00Z');
  const t = useTestApp(kind, { now: () => clock, devOutbox: true });
  let a: Fixture;
  let b: Fixture;
  const tokens = {} as Record<FixtureRole, string>;
  let bOwner: string;

  const issue = async (): Promise<Card> => {
    const res = await request(t.app, 'POST', CARDS, {
      token: tokens.admin,
      body: { user_id: a.users.employee, display_name: 'Travel', limit: { amount: 10_000_000, currency: 'GBP', interval: 'MONTHLY' } },
    });
    expect(res.status, res.text).toBe(200);
    return cardSchema.parse(res.body);
  };
  const buy = async (card: Card, amount: number, merchant: string, over: Record<string, unknown> = {}): Promise<Transaction> => {
    clock += 11 * 60_000;
    const res = await request(t.app, 'POST', `${CARDS}/${card.id}/simulate`, { token: tokens.employee, body: { amount, merchant, ...over } });
    expect(res.status, res.text).toBe(200);
    const sim = simulateResponseSchema.parse(res.body);
    if (!sim.approved) throw new Error(`declined: ${sim.message}`);
    return sim.transaction;
  };
  /** A card with an ordinary history: six meals around £40 in GB. */
  const establishedCard = async () => {
    const card = await issue();
    for (let i = 0; i < 6; i++) await buy(card, 4_000 + i * 100, `Cafe ${i}`, { merchant_category: 'Meals', merchant_country: 'GB' });
    return card;
  };
  const held = (card: Card) => buy(card, 81_240, 'Bijouterie Royale', { merchant_category: 'Jewellery', merchant_country: 'FR' });
  const answer = (role: FixtureRole | string, id: string, response: string, headers: Record<string, string> = {}) =>
    request(t.app, 'POST', answerPath(id), { token: role in tokens ? tokens[role as FixtureRole] : role, body: { response }, headers });
  const disputes = async (txId: string) =>
    Number((await t.db.query<{ n: number }>('SELECT count(*)::int8 AS n FROM transaction_disputes WHERE transaction_id = $1', [txId]))[0]!.n);

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 0 });
    b = await makeBusiness(t.db, { transactions: 0 });
    for (const role of ['owner', 'admin', 'manager', 'employee', 'teammate', 'outsider'] as const) tokens[role] = await signIn(t.app, a.email(role));
    bOwner = await signIn(t.app, b.email('owner'));
  });

  it('holds an unusual charge, says why, mirrors it and mails the cardholder; ordinary charges pass', async () => {
    const card = await establishedCard();
    const ordinary = await buy(card, 4_500, 'Cafe 9', { merchant_category: 'Meals', merchant_country: 'GB' });
    expect(ordinary).toMatchObject({ fraud_status: null, fraud_reasons: [], merchant_country: 'GB', dispute_id: null });
    const before = clock;
    const tx = await held(card);
    expect(tx).toMatchObject({ state: 'PENDING', fraud_status: 'FLAGGED', fraud_reasons: ['NEW_CATEGORY', 'NEW_COUNTRY', 'AMOUNT_ABOVE_USUAL'] });
    expect(clock).toBeGreaterThan(before);
    const mail = await t.db.query<{ recipient: string; subject: string; body: string }>(
      'SELECT recipient, subject, body FROM dev_outbox WHERE body LIKE $1', [`%${tx.id}%`],
    );
    expect(mail).toHaveLength(1);
    expect(mail[0]!.recipient).toBe(a.email('employee').toLowerCase());
    expect(mail[0]!.subject).toBe('Did you make this purchase? £812.40 at Bijouterie Royale on 20 Nov 2026');
    expect(mail[0]!.body).toMatch(new RegExp(`Tell us whether it was you: http://[^/]+/transactions\\?open=${tx.id}\n`));
    expect(mail[0]!.body).toMatch(/on your card •••• \d{4} \(.+\) because it looks unusual: .+\./);
    // The feed carries the hold to the cardholder's mirror.
    const feed = await request(t.app, 'GET', `${syncChanges.path}?after=0&limit=1000`, { token: tokens.employee });
    const docs = (feed.body.changes as { collection: string; doc: Transaction }[]).filter((c) => c.collection === 'transactions');
    expect(docs.find((c) => c.doc.id === tx.id)?.doc).toMatchObject({ fraud_status: 'FLAGGED', merchant_country: 'FR' });
  });

  it('three charges at one merchant within ten minutes: the third is held, even on a new card', async () => {
    const card = await issue();
    const burst = [];
    for (let i = 0; i < 3; i++) {
      clock += 2 * 60_000;
      const res = await request(t.app, 'POST', `${CARDS}/${card.id}/simulate`, { token: tokens.employee, body: { amount: 999, merchant: 'Quick Kiosk' } });
      burst.push(simulateResponseSchema.parse(res.body));
    }
    expect(burst.map((s) => (s.approved ? s.transaction.fraud_status : 'declined'))).toEqual([null, null, 'FLAGGED']);
    expect(burst[2]!.approved && burst[2]!.transaction.fraud_reasons).toEqual(['RAPID_REPEAT']);
  });

  it('refuses answers from the wrong people, for the wrong charges and in the wrong shape', async () => {
    const card = await establishedCard();
    const tx = await held(card);
    const ordinary = await buy(card, 4_000, 'Cafe 1', { merchant_category: 'Meals', merchant_country: 'GB' });
    // The manager sees the charge but is neither the cardholder nor an admin.
    const manager = await answer('manager', tx.id, 'NOT_RECOGNIZED');
    expect([manager.status, manager.body.error_v2.error_code]).toEqual([403, 'FORBIDDEN_7003']);
    expect(manager.body.error_v2.message).toContain('Only the cardholder');
    for (const who of ['outsider', bOwner]) {
      const res = await answer(who, tx.id, 'NOT_RECOGNIZED');
      expect([res.status, res.body.error_v2.error_code]).toEqual([404, 'REQUEST_7004']);
    }
    expect((await answer('employee', randomUUID(), 'RECOGNIZED')).status).toBe(404);
    const notHeld = await answer('employee', ordinary.id, 'RECOGNIZED');
    expect([notHeld.status, notHeld.body.error_v2.message]).toEqual([422, 'This charge is not held for review: there is nothing to answer.']);
    const bad = await answer('employee', tx.id, 'MAYBE');
    expect([bad.status, bad.body.error_v2.error_code]).toEqual([422, 'REQUEST_7001']);
    const extra = await request(t.app, 'POST', answerPath(tx.id), { token: tokens.employee, body: { response: 'RECOGNIZED', lock: false } });
    expect(extra.status).toBe(422);
    expect(JSON.stringify(extra.body)).toContain('is not allowed');
    const bare = await request(t.app, 'POST', answerPath('not-a-uuid'), { token: tokens.employee, body: { response: 'RECOGNIZED' } });
    expect(bare.status).toBe(422);
    // Nothing was written by any refusal.
    expect(await disputes(tx.id)).toBe(0);
    expect((await t.db.query<{ s: string }>('SELECT fraud_status AS s FROM transactions WHERE id = $1', [tx.id]))[0]!.s).toBe('FLAGGED');
  });

  it('NOT_RECOGNIZED locks the card, opens one dispute and offers a replacement; a repeat answers the same', async () => {
    const card = await establishedCard();
    const tx = await held(card);
    const key = randomUUID();
    const res = await answer('employee', tx.id, 'NOT_RECOGNIZED', { 'Idempotency-Key': key });
    expect(res.status, res.text).toBe(200);
    const out = fraudResponseResultSchema.parse(res.body);
    expect(out).toMatchObject({
      response: 'NOT_RECOGNIZED', card_locked: true, card: { id: card.id, status: 'LOCKED' },
      transaction: { id: tx.id, fraud_status: 'NOT_RECOGNIZED', dispute_id: out.dispute!.id },
      dispute: { transaction_id: tx.id, card_id: card.id, status: 'OPEN', reason: 'NOT_RECOGNIZED', amount: 81_240, currency: 'GBP', opened_by: a.users.employee },
      reissue: { call: 'cards.reissue', method: 'POST', path: `/v1/auth/cards/${card.id}/reissue` },
    });
    expect(out.change_seq).toBe(Math.max(out.transaction.change_seq, out.card.change_seq));
    const [stored] = await t.db.query<{ fraud_locked_at: string | null }>('SELECT fraud_locked_at FROM cards WHERE id = $1', [card.id]);
    expect(stored!.fraud_locked_at).not.toBeNull();
    // The same key replays; the same answer without a key answers what the first one did.
    const replay = await answer('employee', tx.id, 'NOT_RECOGNIZED', { 'Idempotency-Key': key });
    expect(replay.body).toEqual(res.body);
    const again = fraudResponseResultSchema.parse((await answer('employee', tx.id, 'NOT_RECOGNIZED')).body);
    expect(again.dispute!.id).toBe(out.dispute!.id);
    expect(await disputes(tx.id)).toBe(1);
    // The other answer is refused now, naming the first.
    const change = await answer('employee', tx.id, 'RECOGNIZED');
    expect([change.status, change.body.error_v2.message]).toEqual([422, "This charge was already answered (that you don't recognise it); the answer cannot be changed."]);
    // The locked card declines; the offered reissue replaces it.
    const declined = simulateResponseSchema.parse((await request(t.app, 'POST', `${CARDS}/${card.id}/simulate`, { token: tokens.employee, body: { amount: 100, merchant: 'X' } })).body);
    expect(declined.approved).toBe(false);
    const reissued = await request(t.app, 'POST', out.reissue!.path, { token: tokens.employee, body: {} });
    expect(reissued.status, reissued.text).toBe(200);
    expect(reissued.body.successor).toMatchObject({ status: 'ACTIVE', replaces_id: card.id });
  });

  it('the same answer sent twice at once opens exactly one dispute', async () => {
    const card = await establishedCard();
    const tx = await held(card);
    const both = await Promise.all([answer('employee', tx.id, 'NOT_RECOGNIZED'), answer('employee', tx.id, 'NOT_RECOGNIZED')]);
    for (const r of both) expect(r.status, r.text).toBe(200);
    const ids = both.map((r) => fraudResponseResultSchema.parse(r.body).dispute!.id);
    expect(ids[0]).toBe(ids[1]);
    expect(await disputes(tx.id)).toBe(1);
  });

  it('RECOGNIZED (an admin on the cardholder\'s behalf) clears the hold and teaches the card', async () => {
    const card = await establishedCard();
    const tx = await held(card);
    const res = await answer('admin', tx.id, 'RECOGNIZED');
    expect(res.status, res.text).toBe(200);
    expect(fraudResponseResultSchema.parse(res.body)).toMatchObject({
      response: 'RECOGNIZED', card_locked: false, dispute: null, reissue: null, card: { status: 'ACTIVE' },
      transaction: { fraud_status: 'RECOGNIZED', dispute_id: null },
    });
    const [row] = await t.db.query<{ by: string }>('SELECT fraud_answered_by::text AS by FROM transactions WHERE id = $1', [tx.id]);
    expect(row!.by).toBe(a.users.admin);
    const [profile] = await t.db.query<{ categories: string[]; countries: string[]; recognized_max: Record<string, number> }>(
      'SELECT categories, countries, recognized_max FROM card_fraud_profiles WHERE card_id = $1', [card.id],
    );
    expect(profile).toEqual({ categories: ['Jewellery'], countries: ['FR'], recognized_max: { GBP: 81_240 } });
    // The same charge again is not held; a much larger one still is.
    expect((await held(card)).fraud_status).toBeNull();
    const larger = await buy(card, 500_000, 'Bijouterie Royale', { merchant_category: 'Jewellery', merchant_country: 'FR' });
    expect(larger).toMatchObject({ fraud_status: 'FLAGGED', fraud_reasons: ['AMOUNT_ABOVE_USUAL'] });
    expect(await disputes(tx.id)).toBe(0);
  });
});
