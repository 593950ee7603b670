import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { cardAutopaySchema } from '../../schema/api/calls-card-autopay.ts';
import { ERROR_CATALOGUE } from '../../schema/errors.ts';
import { checkLedger } from '../ledger/check.ts';
import { settleCardSpend } from '../domain/card-settlement.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { refusal, request, useTwoBusinesses } from '../test-fixtures.ts';

/**
 * Issue 30, §7 Businesses "/autopay_threshold": the card autopay threshold through the API on
 * PGlite and PostgreSQL: admins only, strict bodies, a currency with an operating account; a PUT
 * the unpaid balance already reaches pays it at once (one settlement, once, whatever repeats);
 * the hourly job pays as soon as new cleared spend reaches it; DELETE goes back to three days;
 * another business sees only its own; the ledger checks after each test.
 */
const PATH = '/v1/auth/businesses/autopay_threshold';
const NOW = Date.parse('2026-11-30T15:00:00Z');
const usd = (amount: number) => ({ amount, currency: 'USD' });

describe.each(await testDatabases())('card autopay threshold on %s', (kind) => {
  const t = useTestApp(kind, { now: () => NOW });
  const biz = useTwoBusinesses(t, ['owner', 'admin', 'bookkeeper', 'employee']);
  const { tokens } = biz;

  afterEach(async () => {
    for (const business of [biz.a.businessId, biz.b.businessId]) {
      const report = await checkLedger(t.db, business);
      expect(report.ok, JSON.stringify(report)).toBe(true);
    }
  });

  const get = async (token = tokens.admin) => {
    const res = await request(t.app, 'GET', PATH, { token });
    expect(res.status, res.text).toBe(200);
    return cardAutopaySchema.parse(res.body);
  };
  const put = (body: unknown, token = tokens.admin) => request(t.app, 'PUT', PATH, { token, body });
  const settlements = async (businessId = biz.a.businessId) => t.db.query<{ net: string; cause: string; status: string }>(
    `SELECT net::text, cause, status FROM card_settlements WHERE business_id = $1 ORDER BY created_at, id`, [businessId]);
  async function charge(amount: number, occurredAt = '2026-11-30T10:00:00Z', businessId = biz.a.businessId) {
    const f = businessId === biz.a.businessId ? biz.a : biz.b;
    const [{ seq }] = (await t.db.query<{ seq: number }>(
      'UPDATE businesses SET change_seq = change_seq + 1 WHERE id = $1 RETURNING change_seq AS seq', [businessId])) as [{ seq: number }];
    await t.db.query(
      `INSERT INTO transactions (id, business_id, card_id, user_id, merchant_name, amount, currency, occurred_at, state, change_seq)
       VALUES ($1, $2, $3, $4, 'Autopay test', $5, 'USD', $6, 'CLEARED', $7)`,
      [randomUUID(), businessId, f.cards.employee, f.users.employee, amount, occurredAt, seq]);
  }

  it('is refused to anyone but an admin, before anything is read', async () => {
    for (const role of ['bookkeeper', 'employee'] as const) {
      for (const [method, body] of [['GET', undefined], ['PUT', { amount: usd(100) }], ['DELETE', undefined]] as const) {
        const res = await request(t.app, method, PATH, { token: tokens[role], body });
        expect(refusal(res), `${role} ${method}`).toEqual([403, 'TREASURY_7001']);
      }
    }
  });

  it('refuses unknown keys, bad amounts and a currency without an operating account, naming the field', async () => {
    const cases: [unknown, string, string][] = [
      [{ amount: usd(100), extra: 1 }, 'REQUEST_7001', 'extra'],
      [{ amount: { ...usd(100), note: 'x' } }, 'REQUEST_7001', 'amount.note'],
      [{ amount: usd(0) }, 'REQUEST_7001', 'amount.amount'],
      [{ amount: usd(-5) }, 'REQUEST_7001', 'amount.amount'],
      [{ amount: usd(10.5) }, 'REQUEST_7001', 'amount.amount'],
      [{ amount: { amount: '100', currency: 'USD' } }, 'REQUEST_7001', 'amount.amount'],
      [{ amount: { amount: 100, currency: 'XYZ' } }, 'REQUEST_7001', 'amount.currency'],
      [{}, 'REQUEST_7001', 'amount'],
      [{ amount: { amount: 100, currency: 'EUR' } }, 'TREASURY_7002', 'amount.currency'],
    ];
    for (const [body, code, field] of cases) {
      const res = await put(body);
      expect(refusal(res), JSON.stringify(body)).toEqual([ERROR_CATALOGUE[code as keyof typeof ERROR_CATALOGUE].status, code]);
      expect(Object.keys(res.body.error_v2.errors ?? {}), res.text).toContain(field);
    }
    expect((await get()).autopay_threshold).toBeNull();
  });

  it('sets, reads and removes the threshold; the hourly job pays once the unpaid balance reaches it', async () => {
    expect(await get()).toEqual({ autopay_threshold: null, unpaid_card_balance: usd(0) });
    await charge(30_000);
    expect((await get()).unpaid_card_balance).toEqual(usd(30_000));
    const res = await put({ amount: usd(50_000) });
    expect(res.status, res.text).toBe(200);
    expect(cardAutopaySchema.parse(res.body)).toEqual({ autopay_threshold: usd(50_000), unpaid_card_balance: usd(30_000) });
    expect(await settlements()).toEqual([]);
    // The job: below the threshold and fresh, nothing; at it, everything unpaid at once.
    expect(await settleCardSpend(t.db, new Date(NOW))).toEqual({ settled: 0, failed: 0 });
    await charge(20_000);
    expect(await settleCardSpend(t.db, new Date(NOW))).toEqual({ settled: 1, failed: 0 });
    expect(await settlements()).toEqual([{ net: '50000', cause: 'AUTOPAY', status: 'SETTLED' }]);
    expect((await get()).unpaid_card_balance).toEqual(usd(0));

    const removed = await request(t.app, 'DELETE', PATH, { token: tokens.admin });
    expect(removed.status, removed.text).toBe(200);
    expect(cardAutopaySchema.parse(removed.body).autopay_threshold).toBeNull();
    await charge(90_000);
    expect(await settleCardSpend(t.db, new Date(NOW))).toEqual({ settled: 0, failed: 0 });
    expect((await get()).unpaid_card_balance).toEqual(usd(90_000));
    // Removing again answers the same.
    expect((await request(t.app, 'DELETE', PATH, { token: tokens.owner })).status).toBe(200);
  });

  it('a PUT the unpaid balance already reaches pays it in the same request, once; another business sees only its own', async () => {
    const before = (await get()).unpaid_card_balance.amount;
    await charge(10_000);
    await charge(5_000, '2026-11-29T10:00:00Z', biz.b.businessId);
    const first = await put({ amount: usd(before + 10_000) });
    expect(first.status, first.text).toBe(200);
    expect(cardAutopaySchema.parse(first.body)).toEqual({ autopay_threshold: usd(before + 10_000), unpaid_card_balance: usd(0) });
    const again = await put({ amount: usd(before + 10_000) });
    expect(cardAutopaySchema.parse(again.body).unpaid_card_balance).toEqual(usd(0));
    // The earlier test's batch and this one: the repeated PUT found nothing left to pay.
    const paid = (await settlements()).filter((s) => s.cause === 'AUTOPAY');
    expect(paid).toHaveLength(2);
    expect(paid).toContainEqual({ net: String(before + 10_000), cause: 'AUTOPAY', status: 'SETTLED' });
    // B: its own unpaid balance, no threshold, nothing of A's settled for it.
    const bView = await get(biz.bOwner);
    expect(bView).toEqual({ autopay_threshold: null, unpaid_card_balance: usd(5_000) });
    expect(await settlements(biz.b.businessId)).toEqual([]);
  });
});
