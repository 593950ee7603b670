import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../core/errors.ts';
import { allocateSeqs } from '../db/change-seq.ts';
import { settleBillPayments } from '../domain/bill-settlement.ts';
import { settleCardSpend } from '../domain/card-settlement.ts';
import { lockTransfer, releaseTransfer, settleTransfer, startTransfer } from '../domain/treasury/transfer-core.ts';
import { storeBankAccount } from '../domain/vendors.ts';
import { useTestApp } from '../test-app.ts';
import { type Fixture, makeBusiness, makeVendor, request, signIn } from '../test-fixtures.ts';
import { checkLedger } from './check.ts';
import { findAccount, fund, move, openWalletAccount } from './ledger.ts';

/**
 * Issue 30, property: random sequences of every money movement on one business (deposits, moves,
 * transfers started, settled and released through transfer-core, bills paid, settled and reversed,
 * claims paid and canceled, card days settled), on PGlite. After every step the ledger checks, no
 * wallet account is below zero, and a step that failed left nothing posted.
 */
type Op =
  | { op: 'fund'; amount: number }
  | { op: 'move'; amount: number }
  | { op: 'transferStart'; amount: number }
  | { op: 'transferSettle' } | { op: 'transferRelease' }
  | { op: 'billPay'; amount: number } | { op: 'billSettle' } | { op: 'billReverse' }
  | { op: 'claimPay'; amount: number } | { op: 'claimCancel' }
  | { op: 'cardDay'; amount: number };

const amount = fc.integer({ min: 1, max: 40_000 });
const OPS: fc.Arbitrary<Op> = fc.oneof(
  amount.map((a) => ({ op: 'fund' as const, amount: a })),
  amount.map((a) => ({ op: 'move' as const, amount: a })),
  amount.map((a) => ({ op: 'transferStart' as const, amount: a })),
  fc.constant({ op: 'transferSettle' as const }),
  fc.constant({ op: 'transferRelease' as const }),
  amount.map((a) => ({ op: 'billPay' as const, amount: a })),
  fc.constant({ op: 'billSettle' as const }),
  fc.constant({ op: 'billReverse' as const }),
  amount.map((a) => ({ op: 'claimPay' as const, amount: a })),
  fc.constant({ op: 'claimCancel' as const }),
  fc.integer({ min: -5_000, max: 40_000 }).filter((a) => a !== 0).map((a) => ({ op: 'cardDay' as const, amount: a })),
);

describe('the ledger under random money movements (pglite)', () => {
  const t = useTestApp('pglite', { now: () => Date.parse('2026-11-20T12:00:00Z') });
  let day = Date.parse('2026-01-01T12:00:00Z');
  beforeAll(() => { day = Date.parse('2026-01-01T12:00:00Z'); });

  async function world() {
    const f = await makeBusiness(t.db, { transactions: 0, operating: { USD: 20_000 } });
    const admin = await signIn(t.app, f.email('admin'));
    const employee = await signIn(t.app, f.email('employee'));
    const vendor = await makeVendor(t.app, admin, `Property ${randomUUID().slice(0, 6)}`);
    await storeBankAccount(t.db, vendor, { routing_number: '021000021', account_number: '4401927731', account_type: 'CHECKING' });
    const reserve = await t.db.transaction((tx) => openWalletAccount(tx, { businessId: f.businessId, kind: 'RESERVE', currency: 'USD', name: 'Reserve' }));
    return { f, admin, employee, vendor, reserve, transfers: [] as string[], paidBills: [] as string[], paidClaims: [] as string[] };
  }
  type World = Awaited<ReturnType<typeof world>>;

  const entries = async (f: Fixture) => Number((await t.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM journal_entries WHERE business_id = $1', [f.businessId]))[0]!.n);

  /** Runs one operation; answers false when it was refused (the ledger must be unchanged then). */
  async function step(w: World, o: Op): Promise<boolean> {
    const { f } = w;
    const at = new Date('2026-11-20T12:00:00Z');
    switch (o.op) {
      case 'fund':
        await t.db.transaction((tx) => fund(tx, { businessId: f.businessId, account: f.operatingAccounts.USD!, amount: o.amount, currency: 'USD', key: randomUUID(), at }));
        return true;
      case 'move':
        return ok(t.db.transaction((tx) => move(tx, { businessId: f.businessId, kind: 'TEST_MOVE', key: randomUUID(), from: f.operatingAccounts.USD!, to: w.reserve, amount: o.amount, currency: 'USD', at })));
      case 'transferStart': {
        const id = randomUUID();
        const started = await ok(t.db.transaction(async (tx) => {
          const seqs = await allocateSeqs(tx, f.businessId, 1);
          const [from, to] = [await findAccount(tx, f.businessId, f.operatingAccounts.USD!), await findAccount(tx, f.businessId, w.reserve)];
          await startTransfer(tx, { businessId: f.businessId, id, from: from!, to: to!, amount: o.amount, fee: 25, memo: 'p', expectedSettlementDate: '2026-11-21', createdBy: null, at, seq: seqs!.first });
        }));
        if (started) w.transfers.push(id);
        return started;
      }
      case 'transferSettle':
      case 'transferRelease': {
        const id = w.transfers.shift();
        if (!id) return true;
        await t.db.transaction(async (tx) => {
          const seqs = await allocateSeqs(tx, f.businessId, 1);
          const row = (await lockTransfer(tx, f.businessId, id))!;
          if (o.op === 'transferSettle') await settleTransfer(tx, row, at, seqs!.first);
          else await releaseTransfer(tx, row, { status: 'FAILED', reason: 'returned' }, at, seqs!.first);
        });
        return true;
      }
      case 'billPay': {
        const bill = await request(t.app, 'POST', '/v1/auth/bill-pay', { token: w.admin, body: {
          vendor_id: w.vendor, invoice_number: `P-${randomUUID().slice(0, 8)}`, invoice_date: '2026-11-01', due_date: '2026-11-30', currency: 'USD',
          line_items: [{ description: 'Item', amount: o.amount }],
        } });
        expect(bill.status, bill.text).toBe(200);
        await t.db.query(`UPDATE bills SET status = 'APPROVED' WHERE id = $1`, [bill.body.id]);
        const paid = await request(t.app, 'POST', '/v1/auth/bill-pay/bulk-actions/pay-now', { token: w.admin, body: { bill_ids: [bill.body.id] } });
        const result = paid.body.results[0];
        if (!result.ok) {
          expect(result.error_v2.error_code).toBe('TREASURY_7004');
          return false;
        }
        w.paidBills.push(bill.body.id);
        return true;
      }
      case 'billSettle':
        await settleBillPayments(t.db, new Date('2026-12-31T12:00:00Z'));
        return true;
      case 'billReverse': {
        const paid = await t.db.query<{ id: string }>(`SELECT id::text FROM bills WHERE id = ANY($1::uuid[]) AND status = 'PAID'`, [w.paidBills]);
        if (!paid[0]) return true;
        const res = await request(t.app, 'POST', `/v1/auth/bill-pay/reverse-bill-payment/${paid[0].id}`, { token: w.admin, body: {} });
        expect(res.status, res.text).toBe(200);
        return true;
      }
      case 'claimPay': {
        const c = await request(t.app, 'POST', '/v1/auth/reimbursements/out_of_pocket', {
          token: w.employee, body: { merchant: 'Property', amount: o.amount, currency: 'USD', transaction_date: '2026-11-02' },
        });
        expect(c.status, c.text).toBe(200);
        const [approval] = await t.db.query<{ id: string }>('SELECT id::text FROM approvals WHERE object_id = $1', [c.body.id]);
        expect((await request(t.app, 'POST', `/v1/auth/approvals/${approval!.id}/approve`, { token: w.admin })).status).toBe(200);
        const paid = await request(t.app, 'PATCH', `/v1/auth/reimbursements/${c.body.id}/pay-ach`, { token: w.admin, body: {} });
        if (paid.status !== 200) {
          expect(paid.body.error_v2.error_code).toBe('TREASURY_7004');
          return false;
        }
        w.paidClaims.push(c.body.id);
        return true;
      }
      case 'claimCancel': {
        const id = w.paidClaims.pop();
        if (!id) return true;
        const res = await request(t.app, 'PATCH', `/v1/auth/reimbursements/${id}/cancel-payment`, { token: w.admin, body: {} });
        expect(res.status, res.text).toBe(200);
        return true;
      }
      case 'cardDay': {
        day += 86_400_000;
        const [{ seq }] = (await t.db.query<{ seq: number }>('UPDATE businesses SET change_seq = change_seq + 1 WHERE id = $1 RETURNING change_seq AS seq', [f.businessId])) as [{ seq: number }];
        const id = randomUUID();
        await t.db.query(
          `INSERT INTO transactions (id, business_id, card_id, user_id, merchant_name, amount, currency, occurred_at, state, change_seq)
           VALUES ($1, $2, $3, $4, 'Property', $5, 'USD', $6, 'CLEARED', $7)`,
          [id, f.businessId, f.cards.admin, f.users.admin, o.amount, new Date(day).toISOString(), seq]);
        await settleCardSpend(t.db, new Date(day + 3 * 86_400_000));
        // Settled: the charge is an item of a SETTLED batch (a FAILED batch records none).
        const [row] = await t.db.query<{ status: string }>(
          `SELECT s.status FROM card_settlement_items i JOIN card_settlements s ON s.id = i.settlement_id
            WHERE i.business_id = $1 AND i.transaction_id = $2`, [f.businessId, id]);
        return row?.status === 'SETTLED';
      }
    }
  }

  it('keeps the ledger checked, wallets non-negative, and refusals posting nothing', async () => {
    const seen = { done: 0, refused: 0 };
    await fc.assert(fc.asyncProperty(fc.array(OPS, { minLength: 1, maxLength: 10 }), async (ops) => {
      const w = await world();
      for (const o of ops) {
        const before = await entries(w.f);
        const done = await step(w, o);
        seen[done ? 'done' : 'refused']++;
        if (!done) expect(await entries(w.f), JSON.stringify(o)).toBe(before);
        const report = await checkLedger(t.db, w.f.businessId);
        expect(report.ok, JSON.stringify({ o, report })).toBe(true);
        const negative = await t.db.query(
          `SELECT id FROM ledger_accounts WHERE business_id = $1 AND kind IN ('OPERATING', 'RESERVE', 'INVESTMENT') AND balance < 0`, [w.f.businessId]);
        expect(negative).toEqual([]);
      }
    }), { numRuns: 20, seed: 30_2026 });
    // Both outcomes were exercised: movements that went through and refusals for want of funds.
    expect(seen.done).toBeGreaterThan(20);
    expect(seen.refused).toBeGreaterThan(0);
  }, 300_000);
});

/** The promise's outcome: true when it went through, false when the ledger refused it (TREASURY_7004). */
async function ok(p: Promise<unknown>): Promise<boolean> {
  try {
    await p;
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.body.error_v2.error_code === 'TREASURY_7004') return false;
    throw err;
  }
}
