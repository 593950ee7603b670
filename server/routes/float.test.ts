import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { billSchema } from '../../schema/entities/bill.ts';
import { flexOfferSchema, flexRecordSchema, flexSettingsSchema } from '../../schema/api/calls-float.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { type Fixture, type FixtureRole, makeBusiness, makeVendor, refusal, request, signIn } from '../test-fixtures.ts';
import { storeBankAccount } from '../domain/vendors.ts';
import { collectDueInstallments } from '../domain/flex/installment-job.ts';
import { checkLedger } from '../ledger/check.ts';
import { fund, openWalletAccount } from '../ledger/ledger.ts';

/**
 * Issue 30, flex (float) through the API: onboarding and settings, offers (eligible, ineligible,
 * over the limit, not onboarded), accepting (the bill PAID from the flex line, the ledger entries,
 * checkLedger ok), a second accept, expiry, the installment job (paid; failed for funds; retry;
 * a paid retry 409), §6 for AP clerks by the business's setting, and another business's ids.
 */
const FLOAT = '/v1/auth/float';
const BILLS = '/v1/auth/bill-pay';
const NOW = Date.parse('2026-11-20T12:00:00Z');

describe.each(await testDatabases())('flex on %s', (kind) => {
  const t = useTestApp(kind, { now: () => NOW });
  let a: Fixture;
  let b: Fixture;
  const tokens = {} as Record<FixtureRole, string>;
  let bToken: string;
  let vendor: string;
  let unpayableVendor: string;
  let operating: string;

  const approvedBill = async (over: Record<string, unknown> = {}) => {
    const res = await request(t.app, 'POST', BILLS, {
      token: tokens.admin,
      body: {
        vendor_id: vendor, invoice_number: `INV-${randomUUID().slice(0, 8)}`, invoice_date: '2026-11-01', due_date: '2026-11-30',
        currency: 'USD', line_items: [{ description: 'Paper', amount: 12_000 }, { description: 'Toner', amount: 3_050 }], ...over,
      },
    });
    expect(res.status, res.text).toBe(200);
    const bill = billSchema.parse(res.body);
    await t.db.query(`UPDATE bills SET status = 'APPROVED' WHERE id = $1`, [bill.id]);
    return bill;
  };
  const offer = (billId: string, token = tokens.admin) => request(t.app, 'POST', `${FLOAT}/offer`, { token, body: { bill_id: billId } });
  const accept = (offerId: string, termDays: number, token = tokens.admin, headers?: Record<string, string>) =>
    request(t.app, 'POST', `${FLOAT}/offer/${offerId}/accept`, { token, body: { term_days: termDays }, headers });
  const balance = async (id: string) => Number((await t.db.query<{ b: string }>('SELECT balance::text AS b FROM ledger_accounts WHERE id = $1', [id]))[0]!.b);
  const systemBalance = async (businessId: string, k: string) =>
    Number((await t.db.query<{ b: string }>(`SELECT balance::text AS b FROM ledger_accounts WHERE business_id = $1 AND kind = $2`, [businessId, k]))[0]?.b ?? 0);
  const settings = async (token = tokens.admin) => flexSettingsSchema.parse((await request(t.app, 'GET', `${FLOAT}/settings`, { token })).body);
  const financed = async (termDays = 90) => {
    const bill = await approvedBill();
    const o = flexOfferSchema.parse((await offer(bill.id)).body);
    const res = await accept(o.id, termDays);
    expect(res.status, res.text).toBe(200);
    return { bill, record: flexRecordSchema.parse(res.body) };
  };

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 0, operating: {} });
    b = await makeBusiness(t.db, { transactions: 0, operating: {} });
    await t.db.query(`UPDATE spend_users SET user_permissions = '["AP_ACCESS"]' WHERE id = $1`, [a.users.teammate]);
    for (const role of ['owner', 'admin', 'bookkeeper', 'manager', 'employee', 'teammate'] as const) {
      tokens[role] = await signIn(t.app, a.email(role));
    }
    bToken = await signIn(t.app, b.email('admin'));
    vendor = await makeVendor(t.app, tokens.admin, 'Paper Co');
    await storeBankAccount(t.db, vendor, { routing_number: '021000021', account_number: '4401927731', account_type: 'CHECKING' });
    unpayableVendor = await makeVendor(t.app, tokens.admin, 'No Bank Co');
    await t.db.transaction(async (tx) => {
      operating = await openWalletAccount(tx, { businessId: a.businessId, kind: 'OPERATING', currency: 'USD', name: 'Operating', primary: true });
      await fund(tx, { businessId: a.businessId, account: operating, amount: 10_000, currency: 'USD', key: 'opening', at: new Date(NOW) });
    });
  });

  it('refuses offers before onboarding (FLEX_7005), then onboards with the default line', async () => {
    const bill = await approvedBill();
    expect(refusal(await offer(bill.id))).toEqual([422, 'FLEX_7005']);
    expect(await settings()).toMatchObject({ status: 'NOT_ONBOARDED', ap_clerks_can_flex: false, onboarded_at: null });
    expect(refusal(await request(t.app, 'POST', `${FLOAT}/onboard`, { token: tokens.teammate, body: { accept_terms: true } }))).toEqual([403, 'FORBIDDEN_7003']);
    expect(refusal(await request(t.app, 'POST', `${FLOAT}/onboard`, { token: tokens.admin, body: { accept_terms: false } }))).toEqual([422, 'REQUEST_7001']);
    const res = await request(t.app, 'POST', `${FLOAT}/onboard`, { token: tokens.admin, body: { accept_terms: true } });
    expect(res.status, res.text).toBe(200);
    expect(flexSettingsSchema.parse(res.body)).toEqual({
      status: 'ACTIVE', limit: { amount: 25_000_000, currency: 'USD' }, used: { amount: 0, currency: 'USD' },
      available: { amount: 25_000_000, currency: 'USD' }, ap_clerks_can_flex: false, onboarded_at: new Date(NOW).toISOString(),
    });
    // Onboarding again keeps the line; the FLEX_LINE account exists once.
    expect((await request(t.app, 'POST', `${FLOAT}/onboard`, { token: tokens.owner, body: { accept_terms: true } })).body.status).toBe('ACTIVE');
    const lines = await t.db.query(`SELECT 1 FROM ledger_accounts WHERE business_id = $1 AND kind = 'FLEX_LINE'`, [a.businessId]);
    expect(lines).toHaveLength(1);
  });

  it('offers three terms with fees and business-day installments, and a new offer expires the old one', async () => {
    const bill = await approvedBill();
    const first = flexOfferSchema.parse((await offer(bill.id)).body);
    expect(first).toMatchObject({ bill_id: bill.id, amount: { amount: 15_050, currency: 'USD' }, status: 'OPEN', expires_at: '2026-11-21T12:00:00.000Z' });
    expect(first.terms.map((x) => [x.term_days, x.fee.amount, x.installments.map((i) => [i.due_date, i.amount.amount])])).toEqual([
      [30, 151, [['2026-12-21', 15_201]]],
      [60, 301, [['2026-12-21', 7_675], ['2027-01-19', 7_676]]],
      [90, 452, [['2026-12-21', 5_166], ['2027-01-19', 5_166], ['2027-02-18', 5_170]]],
    ]);
    const second = flexOfferSchema.parse((await offer(bill.id)).body);
    expect(refusal(await accept(first.id, 30))).toEqual([409, 'FLEX_7003']);
    expect(second.status).toBe('OPEN');
  });

  it('refuses ineligible bills with FLEX_7002 naming why, and an unpayable vendor with BILL_PAY_7101', async () => {
    const draft = await request(t.app, 'POST', BILLS, {
      token: tokens.admin,
      body: { vendor_id: vendor, invoice_number: 'DRAFT-1', invoice_date: '2026-11-01', due_date: '2026-11-30', currency: 'USD', line_items: [{ description: 'x', amount: 5_000 }] },
    });
    const refusedDraft = await offer(draft.body.id);
    expect(refusal(refusedDraft)).toEqual([422, 'FLEX_7002']);
    expect(refusedDraft.body.error_v2.message).toContain('draft');
    expect(refusal(await offer((await approvedBill({ currency: 'EUR' })).id))).toEqual([422, 'FLEX_7002']);
    const huge = await approvedBill({ line_items: [{ description: 'Plant', amount: 25_000_001 }] });
    const over = await offer(huge.id);
    expect(refusal(over)).toEqual([422, 'FLEX_7002']);
    expect(over.body.error_v2.message).toContain('available on the flex line');
    expect(refusal(await offer((await approvedBill({ vendor_id: unpayableVendor })).id))).toEqual([422, 'BILL_PAY_7101']);
    const { bill } = await financed(30);
    expect(refusal(await offer(bill.id))).toEqual([422, 'FLEX_7002']);
  });

  it('accepting pays the bill from the flex line once: bill PAID, the draw posted, installments scheduled, the ledger checks', async () => {
    const before = await settings();
    const bill = await approvedBill();
    const o = flexOfferSchema.parse((await offer(bill.id)).body);
    const headers = { 'Idempotency-Key': randomUUID() };
    const res = await accept(o.id, 90, tokens.admin, headers);
    expect(res.status, res.text).toBe(200);
    const record = flexRecordSchema.parse(res.body);
    expect(record).toMatchObject({ bill_id: bill.id, offer_id: o.id, amount: { amount: 15_050 }, fee: { amount: 452 }, term_days: 90, status: 'ACTIVE', accepted_by: a.users.admin });
    expect(record.installments.map((i) => [i.status, i.amount.amount, i.attempts])).toEqual([['SCHEDULED', 5_166, 0], ['SCHEDULED', 5_166, 0], ['SCHEDULED', 5_170, 0]]);
    // The replay answers the same record; a second accept is refused.
    expect((await accept(o.id, 90, tokens.admin, headers)).body.id).toBe(record.id);
    expect(refusal(await accept(o.id, 30))).toEqual([409, 'FLEX_7003']);

    const paid = billSchema.parse((await request(t.app, 'GET', `${BILLS}/${bill.id}`, { token: tokens.admin })).body);
    expect(paid).toMatchObject({ status: 'PAID', paid_manually: false, payment_attempt: 1 });
    const payments = await request(t.app, 'GET', `${BILLS}/payments?bill_id=${bill.id}`, { token: tokens.admin });
    expect(payments.body.data).toEqual([expect.objectContaining({ status: 'SETTLED', amount: 15_050, attempt: 1 })]);
    const entries = await t.db.query<{ kind: string; n: number }>(
      `SELECT kind, count(*)::int AS n FROM journal_entries WHERE business_id = $1 AND idem_key = $2 GROUP BY kind`, [a.businessId, `flex:${record.id}:draw`],
    );
    expect(entries).toEqual([{ kind: 'FLEX_DRAW', n: 1 }]);
    expect((await settings()).used.amount).toBe(before.used.amount + 15_050);
    expect((await checkLedger(t.db, a.businessId)).ok).toBe(true);
    // A flex payment is never reversed (the bill could be paid twice).
    expect(refusal(await request(t.app, 'POST', `${BILLS}/reverse-bill-payment/${bill.id}`, { token: tokens.admin }))[0]).toBe(422);
    const list = await request(t.app, 'GET', `${FLOAT}/records?bill_id=${bill.id}`, { token: tokens.teammate });
    expect(list.body.data.map((r: { id: string }) => r.id)).toEqual([record.id]);
  });

  it('an expired offer is refused with FLEX_7003 and the bill stays unpaid', async () => {
    const bill = await approvedBill();
    const o = flexOfferSchema.parse((await offer(bill.id)).body);
    await t.db.query(`UPDATE flex_offers SET expires_at = $2 WHERE id = $1`, [o.id, new Date(NOW - 1000).toISOString()]);
    expect(refusal(await accept(o.id, 30))).toEqual([409, 'FLEX_7003']);
    expect((await request(t.app, 'GET', `${BILLS}/${bill.id}`, { token: tokens.admin })).body.status).toBe('APPROVED');
  });

  it('the job collects due installments, fails for funds without posting, and a retry collects exactly once', async () => {
    const { record } = await financed(90);
    // Only this record's installments fall due in this test.
    await t.db.query(`UPDATE flex_installments SET due_date = '2099-01-02' WHERE record_id <> $1`, [record.id]);
    const line = await systemBalance(a.businessId, 'FLEX_LINE');
    const fees = await systemBalance(a.businessId, 'FEES');
    const operatingBefore = await balance(operating);
    // The first installment (5,166) is due 2026-12-21: the operating account holds less than two.
    await t.db.transaction((tx) => fund(tx, { businessId: a.businessId, account: operating, amount: 6_000 - operatingBefore + 5_166, currency: 'USD', key: `top-${record.id}`, at: new Date(NOW) }));
    expect(await balance(operating)).toBe(11_166);
    expect(await collectDueInstallments(t.db, new Date('2026-12-20T12:00:00Z'))).toEqual({ paid: 0, failed: 0 });
    const run = await collectDueInstallments(t.db, new Date('2026-12-21T12:00:00Z'));
    expect(run).toEqual({ paid: 1, failed: 0 });
    expect(await balance(operating)).toBe(6_000);
    expect(await systemBalance(a.businessId, 'FLEX_LINE')).toBe(line + 5_016);
    expect(await systemBalance(a.businessId, 'FEES')).toBe(fees + 150);
    // A second run posts nothing more.
    expect(await collectDueInstallments(t.db, new Date('2026-12-21T13:00:00Z'))).toEqual({ paid: 0, failed: 0 });

    // The second (5,166 due 2027-01-19) cannot be covered by 6,000 once we spend 1,000 of it.
    await t.db.query(`UPDATE flex_installments SET due_date = '2027-01-19' WHERE record_id = $1 AND number = 2`, [record.id]);
    const two = await t.db.query<{ id: string }>(`SELECT id FROM flex_installments WHERE record_id = $1 ORDER BY number`, [record.id]);
    const spend = await t.db.transaction(async (tx) => {
      const { move, systemAccount } = await import('../ledger/ledger.ts');
      return move(tx, { businessId: a.businessId, kind: 'TEST_SPEND', key: `spend-${record.id}`, from: operating, to: await systemAccount(tx, a.businessId, 'CARD_NETWORK', 'USD'), amount: 1_000, currency: 'USD', at: new Date(NOW) });
    });
    expect(spend.created).toBe(true);
    const entriesBefore = (await t.db.query(`SELECT 1 FROM journal_entries WHERE business_id = $1`, [a.businessId])).length;
    await collectDueInstallments(t.db, new Date('2027-01-19T12:00:00Z'));
    expect((await t.db.query(`SELECT 1 FROM journal_entries WHERE business_id = $1`, [a.businessId])).length).toBe(entriesBefore);
    const failed = flexRecordSchema.parse((await request(t.app, 'GET', `${FLOAT}/records?bill_id=${record.bill_id}`, { token: tokens.admin })).body.data[0]);
    expect(failed.installments[1]).toMatchObject({ status: 'FAILED', attempts: 1 });
    expect(failed.installments[1]!.failure_reason).toContain('50.00 USD is available');

    const retry = (id: string) => request(t.app, 'POST', `${FLOAT}/retry-installment-payment/${id}`, { token: tokens.admin });
    const short = await retry(two[1]!.id);
    expect(refusal(short)).toEqual([422, 'TREASURY_7004']);
    expect(short.body.error_v2.message).toContain('50.00 USD is available');
    expect(refusal(await retry(two[2]!.id))).toEqual([422, 'REQUEST_7001']);
    await t.db.transaction((tx) => fund(tx, { businessId: a.businessId, account: operating, amount: 10_000, currency: 'USD', key: `top2-${record.id}`, at: new Date(NOW) }));
    const done = await retry(two[1]!.id);
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ status: 'PAID', attempts: 2, failure_reason: null });
    expect(refusal(await retry(two[1]!.id))).toEqual([409, 'FLEX_7004']);
    expect((await checkLedger(t.db, a.businessId)).ok).toBe(true);

    // The last one repays the record and gives the line its amount back.
    await t.db.query(`UPDATE flex_installments SET due_date = '2027-01-19' WHERE record_id = $1 AND number = 3`, [record.id]);
    await collectDueInstallments(t.db, new Date('2027-01-19T12:00:00Z'));
    const repaid = flexRecordSchema.parse((await request(t.app, 'GET', `${FLOAT}/records?bill_id=${record.bill_id}`, { token: tokens.admin })).body.data[0]);
    expect(repaid.status).toBe('REPAID');
    expect(await systemBalance(a.businessId, 'FLEX_LINE')).toBe(line + 15_050);
  });

  it('AP clerks use flex only while the business allows it; others are refused before any lookup', async () => {
    const bill = await approvedBill();
    expect(refusal(await offer(bill.id, tokens.teammate))).toEqual([403, 'FLEX_7001']);
    expect((await request(t.app, 'GET', `${FLOAT}/settings`, { token: tokens.teammate })).status).toBe(200);
    expect(refusal(await request(t.app, 'PATCH', `${FLOAT}/settings`, { token: tokens.teammate, body: { ap_clerks_can_flex: true } }))).toEqual([403, 'FORBIDDEN_7003']);
    for (const role of ['bookkeeper', 'manager', 'employee'] as const) {
      expect(refusal(await offer(randomUUID(), tokens[role]))).toEqual([403, 'FLEX_7001']);
      expect(refusal(await request(t.app, 'GET', `${FLOAT}/records`, { token: tokens[role] }))).toEqual([403, 'FORBIDDEN_7003']);
      expect(refusal(await request(t.app, 'GET', `${FLOAT}/settings`, { token: tokens[role] }))).toEqual([403, 'FORBIDDEN_7003']);
    }
    const on = await request(t.app, 'PATCH', `${FLOAT}/settings`, { token: tokens.admin, body: { ap_clerks_can_flex: true } });
    expect(on.body.ap_clerks_can_flex).toBe(true);
    const o = await offer(bill.id, tokens.teammate);
    expect(o.status, o.text).toBe(200);
    expect((await accept(o.body.id, 30, tokens.teammate)).body.accepted_by).toBe(a.users.teammate);
    await request(t.app, 'PATCH', `${FLOAT}/settings`, { token: tokens.admin, body: { ap_clerks_can_flex: false } });
    expect(refusal(await offer((await approvedBill()).id, tokens.teammate))).toEqual([403, 'FLEX_7001']);
  });

  it('another business’s bills, offers and installments are 404', async () => {
    await request(t.app, 'POST', `${FLOAT}/onboard`, { token: bToken, body: { accept_terms: true } });
    const { bill, record } = await financed(60);
    const o = flexOfferSchema.parse((await offer((await approvedBill()).id)).body);
    expect(refusal(await offer(bill.id, bToken))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await accept(o.id, 30, bToken))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'GET', `${FLOAT}/records?bill_id=${bill.id}`, { token: bToken }))).toEqual([404, 'REQUEST_7004']);
    expect((await request(t.app, 'GET', `${FLOAT}/records`, { token: bToken })).body.data).toEqual([]);
    await t.db.query(`UPDATE flex_installments SET status = 'FAILED', failure_reason = 'test' WHERE id = $1`, [record.installments[0]!.id]);
    expect(refusal(await request(t.app, 'POST', `${FLOAT}/retry-installment-payment/${record.installments[0]!.id}`, { token: bToken }))).toEqual([404, 'REQUEST_7004']);
  });

  // Last: it saves a vendor-payment policy for the business.
  it('with a saved vendor-payment policy flex refuses rather than skip the payment approval', async () => {
    const policy = await request(t.app, 'PATCH', '/v1/auth/approval_policy/vendor-payment', {
      token: tokens.admin, body: { steps: [{ condition: null, approvers: { kind: 'user', user_id: a.users.owner } }] },
    });
    expect(policy.status, policy.text).toBe(200);
    const refused = await offer((await approvedBill()).id);
    expect(refusal(refused)).toEqual([422, 'FLEX_7002']);
    expect(refused.body.error_v2.message).toMatch(/approves vendor payments.*Pay now/);
  });
});
