import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../ledger/check.ts';
import { fund } from '../ledger/ledger.ts';
import { settleBillPayments } from '../domain/bill-settlement.ts';
import { storeBankAccount } from '../domain/vendors.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { type Fixture, makeBusiness, makeVendor, request, signIn } from '../test-fixtures.ts';

/**
 * Issue 30: the existing money movements post through the ledger. A claim's ACH payment leaves the
 * primary OPERATING account for EMPLOYEE_PAYMENTS and its cancel brings it back; a bill attempt
 * sent holds OPERATING → PAYMENTS_IN_FLIGHT, settles to VENDOR_PAYMENTS, a reversal returns it;
 * mark-as-paid posts nothing. Not enough money (or no account in the currency) refuses with
 * TREASURY_7004 naming the account and what it holds, and writes nothing.
 */
const CLAIMS = '/v1/auth/reimbursements';
const BILLS = '/v1/auth/bill-pay';

describe.each(await testDatabases())('payments through the ledger on %s', (kind) => {
  const t = useTestApp(kind, { now: () => Date.parse('2026-11-20T12:00:00Z') });
  let rich: Fixture;
  let poor: Fixture;
  const tok = {} as Record<'rich' | 'poor' | 'richEmployee' | 'poorEmployee', string>;
  const vendors = {} as Record<'rich' | 'poor', string>;

  beforeAll(async () => {
    rich = await makeBusiness(t.db, { transactions: 0 });
    poor = await makeBusiness(t.db, { transactions: 0, operating: { USD: 1_000 } });
    tok.rich = await signIn(t.app, rich.email('admin'));
    tok.poor = await signIn(t.app, poor.email('admin'));
    tok.richEmployee = await signIn(t.app, rich.email('employee'));
    tok.poorEmployee = await signIn(t.app, poor.email('employee'));
    for (const which of ['rich', 'poor'] as const) {
      vendors[which] = await makeVendor(t.app, tok[which], `Ledger Paper ${which}`);
      await storeBankAccount(t.db, vendors[which], { routing_number: '021000021', account_number: '4401927731', account_type: 'CHECKING' });
    }
  });

  const entries = async (f: Fixture) => Number((await t.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM journal_entries WHERE business_id = $1', [f.businessId]))[0]!.n);
  const balances = async (f: Fixture) => Object.fromEntries((await t.db.query<{ kind: string; balance: string }>(
    'SELECT kind, sum(balance)::text AS balance FROM ledger_accounts WHERE business_id = $1 GROUP BY kind', [f.businessId]))
    .map((r) => [r.kind, Number(r.balance)]));

  async function approvedClaim(f: Fixture, employee: string, admin: string, amount: number, currency = 'USD') {
    const c = await request(t.app, 'POST', `${CLAIMS}/out_of_pocket`, {
      token: employee, body: { merchant: 'Ledger lunch', amount, currency, transaction_date: '2026-11-02' },
    });
    expect(c.status, c.text).toBe(200);
    const [approval] = await t.db.query<{ id: string }>('SELECT id::text FROM approvals WHERE object_id = $1', [c.body.id]);
    const ok = await request(t.app, 'POST', `/v1/auth/approvals/${approval!.id}/approve`, { token: admin });
    expect(ok.status, ok.text).toBe(200);
    return c.body.id as string;
  }

  async function approvedBill(f: Fixture, admin: string, vendor: string, amount: number) {
    const res = await request(t.app, 'POST', BILLS, { token: admin, body: {
      vendor_id: vendor, invoice_number: `INV-${randomUUID().slice(0, 8)}`, invoice_date: '2026-11-01', due_date: '2026-11-30',
      currency: 'USD', line_items: [{ description: 'Paper', amount }],
    } });
    expect(res.status, res.text).toBe(200);
    await t.db.query(`UPDATE bills SET status = 'APPROVED' WHERE id = $1`, [res.body.id]);
    return res.body.id as string;
  }

  it('a claim payment moves OPERATING → EMPLOYEE_PAYMENTS once, and its cancel moves it back', async () => {
    const id = await approvedClaim(rich, tok.richEmployee, tok.rich, 4_200);
    const before = await balances(rich);
    const paid = await request(t.app, 'PATCH', `${CLAIMS}/${id}/pay-ach`, { token: tok.rich, body: {} });
    expect(paid.status, paid.text).toBe(200);
    const after = await balances(rich);
    expect(after.OPERATING).toBe(before.OPERATING! - 4_200);
    expect(after.EMPLOYEE_PAYMENTS).toBe(4_200);
    // Every payment record has its journal entry.
    const orphans = await t.db.query(
      `SELECT l.id FROM ledger_entries l WHERE l.business_id = $1 AND NOT EXISTS (SELECT 1 FROM journal_entries e
          WHERE e.business_id = l.business_id AND e.idem_key IN ('reimbursement-payment:' || l.id, 'reimbursement-payment:' || l.reverses_id || ':reversal'))`,
      [rich.businessId]);
    expect(orphans).toEqual([]);
    const canceled = await request(t.app, 'PATCH', `${CLAIMS}/${id}/cancel-payment`, { token: tok.rich, body: {} });
    expect(canceled.status, canceled.text).toBe(200);
    expect((await balances(rich)).OPERATING).toBe(before.OPERATING);
    expect((await balances(rich)).EMPLOYEE_PAYMENTS).toBe(0);
    expect((await checkLedger(t.db, rich.businessId)).ok).toBe(true);
  });

  it('a claim the operating account cannot cover, or in a currency it has no account for, is refused TREASURY_7004; nothing moves', async () => {
    const id = await approvedClaim(poor, tok.poorEmployee, tok.poor, 4_200);
    const n = await entries(poor);
    const refused = await request(t.app, 'PATCH', `${CLAIMS}/${id}/pay-ach`, { token: tok.poor, body: {} });
    expect([refused.status, refused.body.error_v2.error_code]).toEqual([422, 'TREASURY_7004']);
    expect(refused.body.error_v2.message).toBe('Not enough funds in Operating USD: 10.00 USD is available.');
    const euro = await approvedClaim(poor, tok.poorEmployee, tok.poor, 100, 'EUR');
    const noAccount = await request(t.app, 'PATCH', `${CLAIMS}/${euro}/pay-ach`, { token: tok.poor, body: {} });
    expect([noAccount.status, noAccount.body.error_v2.error_code]).toEqual([422, 'TREASURY_7004']);
    expect(noAccount.body.error_v2.message).toContain('no EUR operating account');
    expect(await entries(poor)).toBe(n);
    const claims = await t.db.query<{ status: string }>('SELECT status FROM reimbursements WHERE id = ANY($1::uuid[])', [[id, euro]]);
    expect(claims.map((c) => c.status)).toEqual(['APPROVED', 'APPROVED']);
    expect(await t.db.query('SELECT 1 FROM ledger_entries WHERE business_id = $1', [poor.businessId])).toEqual([]);
  });

  it('a bill attempt holds OPERATING → PAYMENTS_IN_FLIGHT, settles to VENDOR_PAYMENTS, and a reversal returns it', async () => {
    const id = await approvedBill(rich, tok.rich, vendors.rich, 15_050);
    const before = await balances(rich);
    const sent = await request(t.app, 'POST', `${BILLS}/bulk-actions/pay-now`, { token: tok.rich, body: { bill_ids: [id] } });
    expect(sent.body.results[0], sent.text).toMatchObject({ ok: true });
    expect(await balances(rich)).toMatchObject({ OPERATING: before.OPERATING! - 15_050, PAYMENTS_IN_FLIGHT: 15_050 });
    await settleBillPayments(t.db, new Date('2026-12-01T12:00:00Z'));
    expect(await balances(rich)).toMatchObject({ PAYMENTS_IN_FLIGHT: 0, VENDOR_PAYMENTS: 15_050 });
    const [attempt] = await t.db.query<{ id: string }>('SELECT id::text FROM bill_payments WHERE bill_id = $1', [id]);
    const keys = await t.db.query<{ idem_key: string }>(
      'SELECT idem_key FROM journal_entries WHERE business_id = $1 AND source_id = $2 ORDER BY created_at, idem_key', [rich.businessId, attempt!.id]);
    expect(keys.map((k) => k.idem_key)).toEqual([`bill-payment:${attempt!.id}:send`, `bill-payment:${attempt!.id}:settle`]);
    const reversed = await request(t.app, 'POST', `${BILLS}/reverse-bill-payment/${id}`, { token: tok.rich, body: {} });
    expect(reversed.status, reversed.text).toBe(200);
    expect(await balances(rich)).toMatchObject({ OPERATING: before.OPERATING, VENDOR_PAYMENTS: 0 });
    // Paid outside Ledgerline: recorded, nothing posted.
    const n = await entries(rich);
    const marked = await request(t.app, 'POST', `${BILLS}/bulk-actions/mark-bills-as-paid`, { token: tok.rich, body: { bill_ids: [id] } });
    expect(marked.status, marked.text).toBe(200);
    expect(await entries(rich)).toBe(n);
    expect((await checkLedger(t.db, rich.businessId)).ok).toBe(true);
  });

  it('pay-now refuses a bill the account cannot cover in its place; the settlement job fails a scheduled one with the reason', async () => {
    const small = await approvedBill(poor, tok.poor, vendors.poor, 600);
    const big = await approvedBill(poor, tok.poor, vendors.poor, 50_000);
    const res = await request(t.app, 'POST', `${BILLS}/bulk-actions/pay-now`, { token: tok.poor, body: { bill_ids: [big, small] } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.results[0]).toMatchObject({ id: big, ok: false, error_v2: { error_code: 'TREASURY_7004' } });
    // Bills go in id order: the small one may have been sent first.
    expect(res.body.results[0].error_v2.message).toMatch(/^Not enough funds in Operating USD: (10|4)\.00 USD is available\.$/);
    expect(res.body.results[1]).toMatchObject({ id: small, ok: true });
    const bills = await t.db.query<{ id: string; status: string }>('SELECT id::text, status FROM bills WHERE id = ANY($1::uuid[])', [[big, small]]);
    expect(Object.fromEntries(bills.map((b) => [b.id, b.status]))).toEqual({ [big]: 'APPROVED', [small]: 'SCHEDULED' });
    expect(await t.db.query('SELECT 1 FROM bill_payments WHERE bill_id = $1', [big])).toEqual([]);

    await t.db.query(`UPDATE bills SET status = 'SCHEDULED', payment_date = '2026-11-20' WHERE id = $1`, [big]);
    const n = await entries(poor);
    const run = await settleBillPayments(t.db, new Date('2026-11-20T13:00:00Z'));
    expect(run.failed).toBeGreaterThanOrEqual(1);
    const [failed] = await t.db.query<{ status: string; payment_failure_reason: string }>(
      'SELECT status, payment_failure_reason FROM bills WHERE id = $1', [big]);
    expect(failed).toEqual({ status: 'PAYMENT_FAILED', payment_failure_reason: 'Not sent on its payment date: Not enough funds in Operating USD: 4.00 USD is available.' });
    expect(await entries(poor)).toBe(n);

    // Funded, retry-payment sends it.
    await t.db.transaction((tx) => fund(tx, {
      businessId: poor.businessId, account: poor.operatingAccounts.USD!, amount: 100_000, currency: 'USD', key: 'top-up', at: new Date('2026-11-20T13:00:00Z'),
    }));
    const retried = await request(t.app, 'POST', `${BILLS}/bulk-actions/retry-payment`, { token: tok.poor, body: { bill_ids: [big] } });
    expect(retried.body.results[0], retried.text).toMatchObject({ ok: true });
    expect(await balances(poor)).toMatchObject({ PAYMENTS_IN_FLIGHT: 50_600 });
    expect((await checkLedger(t.db, poor.businessId)).ok).toBe(true);
  });
});
