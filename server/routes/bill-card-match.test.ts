import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { billSchema, type Bill } from '../../schema/entities/bill.ts';
import { payByCardSuggestionSchema } from '../../schema/api/calls-bill-card-match.ts';
import { checkLedger } from '../ledger/check.ts';
import { storeBankAccount } from '../domain/vendors.ts';
import { settleBillPayments } from '../domain/bill-settlement.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { type Fixture, type FixtureRole, makeBusiness, makeVendor, refusal, request, signIn } from '../test-fixtures.ts';

/**
 * Issue 30, bills paid by card, through the API: the suggestions (one charge per bill, only open
 * bills and paying charges the caller may see), the close (PAID, linked, nothing posted in the
 * ledger, the same call twice answers the same bill), each refusal, who may do it, the link's read,
 * the undo and the reverse letting go of the charge, and pay-now refusing a bill closed by card.
 */
const BILLS = '/v1/auth/bill-pay';
const MATCHING = `${BILLS}/pay-by-card-matching`;
const NOW = Date.parse('2026-11-20T12:00:00Z');

type Suggestion = ReturnType<typeof payByCardSuggestionSchema.parse>;
type Page = { data: Suggestion[]; page: { next: string | null }; total_count?: number };

describe.each(await testDatabases())('bills paid by card on %s', (kind) => {
  const t = useTestApp(kind, { now: () => NOW });
  let a: Fixture;
  let b: Fixture;
  const tokens = {} as Record<FixtureRole, string>;
  let bToken: string;
  let vendor: string;
  let bVendor: string;

  /** A card charge on `role`'s card (SQL, as the card network's feed writes it). */
  const charge = async (o: { amount?: number; currency?: string; day?: string; merchant?: string; state?: string; role?: FixtureRole; biz?: Fixture } = {}) => {
    const biz = o.biz ?? a;
    const role = o.role ?? 'admin';
    const id = randomUUID();
    await t.db.query(
      `INSERT INTO transactions (id, business_id, card_id, user_id, merchant_name, amount, currency, occurred_at, state, change_seq)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 1)`,
      [id, biz.businessId, biz.cards[role], biz.users[role], o.merchant ?? 'ACME SUPPLY 0042', o.amount ?? 120_000, o.currency ?? 'USD',
        `${o.day ?? '2026-11-05'}T15:30:00Z`, o.state ?? 'CLEARED'],
    );
    return id;
  };
  /** An approved bill of `amount` (a fresh invoice number), as the approval chain leaves it. */
  const approvedBill = async (o: { amount?: number; currency?: string; status?: string; token?: string; vendorId?: string; invoiceDate?: string } = {}) => {
    const res = await request(t.app, 'POST', BILLS, {
      token: o.token ?? tokens.admin,
      body: {
        vendor_id: o.vendorId ?? vendor, invoice_number: `INV-${randomUUID().slice(0, 8)}`, invoice_date: o.invoiceDate ?? '2026-11-02',
        due_date: '2026-12-02', currency: o.currency ?? 'USD', line_items: [{ description: 'Supplies', amount: o.amount ?? 120_000 }],
      },
    });
    expect(res.status, res.text).toBe(200);
    await t.db.query('UPDATE bills SET status = $2 WHERE id = $1', [res.body.id, o.status ?? 'APPROVED']);
    return res.body.id as string;
  };
  const suggestions = (query: Record<string, string> = {}, token = tokens.admin) =>
    request<Page>(t.app, 'GET', `${MATCHING}?${new URLSearchParams(query)}`, { token });
  const close = (billId: string, transactionId: string, o: { token?: string; key?: string; body?: Record<string, unknown> } = {}) =>
    // A close answers the bill and charge, or a refusal (`error_v2`): the tests read either.
    request<{ bill: Bill; transaction: Suggestion['transaction']; error_v2: { error_code: string; message: string; errors?: Record<string, string[]> } }>(t.app, 'POST', `${BILLS}/${billId}/paid-by-card`, {
      token: o.token ?? tokens.admin, body: o.body ?? { transaction_id: transactionId }, headers: o.key ? { 'Idempotency-Key': o.key } : {},
    });
  const getBill = async (id: string) => billSchema.parse((await request(t.app, 'GET', `${BILLS}/${id}`, { token: tokens.admin })).body);
  const ledger = async () => {
    const report = await checkLedger(t.db, a.businessId);
    return { ok: report.ok, entries: report.entries, postings: report.postings };
  };

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 0 });
    b = await makeBusiness(t.db, { transactions: 0 });
    // The teammate is an AP clerk: manages bills, sees only their own card spend (§6).
    await t.db.query(`UPDATE spend_users SET user_permissions = '["AP_ACCESS"]' WHERE id = $1`, [a.users.teammate]);
    for (const role of ['admin', 'bookkeeper', 'teammate', 'employee', 'manager'] as const) tokens[role] = await signIn(t.app, a.email(role));
    bToken = await signIn(t.app, b.email('owner'));
    vendor = await makeVendor(t.app, tokens.admin, 'Acme Supply Co.');
    bVendor = await makeVendor(t.app, bToken, 'Acme Supply Co.');
    await storeBankAccount(t.db, vendor, { routing_number: '021000021', account_number: '4401927731', account_type: 'CHECKING' });
  });

  it('suggests the one charge that fits an open bill, with its reasons, and none of the others', async () => {
    const bill = await approvedBill({ amount: 123_456 });
    const fits = await charge({ amount: 123_456, day: '2026-11-05' });
    await charge({ amount: 123_457 }); // another amount
    await charge({ amount: 123_456, currency: 'EUR' }); // another currency
    await charge({ amount: 123_456, state: 'DECLINED' }); // paid nothing
    await charge({ amount: 123_456, day: '2026-12-03' }); // 31 days after the invoice
    await charge({ amount: 123_456, merchant: 'Uber' }); // another merchant
    await charge({ amount: 123_456, biz: b }); // another business's
    const draft = await approvedBill({ amount: 123_456, status: 'DRAFT' }); // not payable yet

    const res = await suggestions({ bill_id: bill });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toHaveLength(1);
    const s = payByCardSuggestionSchema.parse(res.body.data[0]);
    expect(s).toMatchObject({
      bill_id: bill, transaction_id: fits, days: 3,
      bill: { vendor_name: 'Acme Supply Co.', amount: 123_456, currency: 'USD', invoice_date: '2026-11-02', status: 'APPROVED' },
      transaction: { merchant_name: 'ACME SUPPLY 0042', amount: 123_456, card_last_four: '4242', card_name: 'Admin\'s card', state: 'CLEARED' },
    });
    expect(s.reasons).toEqual(['Same amount: $1,234.56', 'Charged 3 days after the invoice date', 'Merchant “ACME SUPPLY 0042” is the vendor “Acme Supply Co.”']);
    expect((await suggestions({ bill_id: draft })).body.data).toEqual([]);
    const other = await suggestions({ bill_id: randomUUID() });
    expect(refusal(other)).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await suggestions({ bill_id: bill }, bToken))).toEqual([404, 'REQUEST_7004']);
  });

  it('gives one charge to one bill, pages the suggestions, and refuses a cursor not its own', async () => {
    const first = await approvedBill({ amount: 77_700, invoiceDate: '2026-11-01' });
    const second = await approvedBill({ amount: 77_700, invoiceDate: '2026-11-10' });
    const lone = await charge({ amount: 77_700, day: '2026-11-10' });
    const mine = (p: Page) => p.data.filter((s) => s.transaction.amount === 77_700);
    const all = await suggestions({ page_size: '1000', include_count: 'true' });
    expect(mine(all.body).map((s) => [s.bill_id, s.transaction_id])).toEqual([[second, lone]]);
    expect(all.body.total_count).toBe(all.body.data.length);
    expect(mine(all.body).some((s) => s.bill_id === first)).toBe(false);

    const seen: string[] = [];
    let start: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof suggestions>> = await suggestions({ page_size: '1', ...(start ? { start } : {}) });
      expect(page.status, page.text).toBe(200);
      seen.push(...page.body.data.map((s) => s.transaction_id));
      start = page.body.page.next;
    } while (start);
    expect(seen).toEqual(all.body.data.map((s) => s.transaction_id));
    expect(refusal(await suggestions({ start: 'bm90LWEtY3Vyc29y' }))).toEqual([422, 'REQUEST_7001']);
  });

  it('closes the bill as paid by the charge, posts nothing, and answers the same bill twice', async () => {
    const bill = await approvedBill({ amount: 45_000 });
    const txn = await charge({ amount: 45_000, day: '2026-11-04' });
    const before = await ledger();
    expect(before.ok).toBe(true);

    const key = randomUUID();
    const res = await close(bill, txn, { key });
    expect(res.status, res.text).toBe(200);
    expect(res.body.bill).toMatchObject({ id: bill, status: 'PAID', paid_manually: true, payment_date: '2026-11-04', payment_attempt: 0 });
    expect(res.body.transaction).toMatchObject({ id: txn, amount: 45_000, merchant_name: 'ACME SUPPLY 0042' });
    expect(await ledger()).toEqual(before);
    expect(await t.db.query('SELECT 1 FROM bill_payments WHERE bill_id = $1', [bill])).toHaveLength(0);

    // The same key replays; a new key (the same close again) answers the same bill, nothing written.
    expect((await close(bill, txn, { key })).body).toEqual(res.body);
    const again = await close(bill, txn);
    expect(again.status, again.text).toBe(200);
    expect(again.body.bill.change_seq).toBe(res.body.bill.change_seq);

    const link = await request(t.app, 'GET', `${BILLS}/${bill}/paid-by-card`, { token: tokens.admin });
    expect(link.status, link.text).toBe(200);
    expect(link.body).toMatchObject({ bill_id: bill, transaction: { id: txn, card_last_four: '4242' } });
    expect((await suggestions({ bill_id: bill })).body.data).toEqual([]);
    // No longer owed: Pay now refuses it, and Bill pay never sends it.
    const pay = await request(t.app, 'POST', `${BILLS}/bulk-actions/pay-now`, { token: tokens.admin, body: { bill_ids: [bill] } });
    expect(pay.body.results[0]).toMatchObject({ ok: false, error_v2: { error_code: 'REQUEST_7001' } });
    expect(pay.body.results[0].error_v2.message).toContain('status PAID');
    expect(await ledger()).toEqual(before);
  });

  it('refuses what a charge cannot have paid, naming why', async () => {
    const bill = await approvedBill({ amount: 31_000 });
    const cases: [string, string, number, string][] = [
      ['another currency', await charge({ amount: 31_000, currency: 'EUR' }), 422, 'in EUR and the bill in USD'],
      ['another amount', await charge({ amount: 30_999 }), 422, '$309.99 and the bill $310.00'],
      ['a declined charge', await charge({ amount: 31_000, state: 'DECLINED' }), 422, 'declined'],
      ['another business\'s charge', await charge({ amount: 31_000, biz: b }), 404, 'not found'],
      ['no charge at all', randomUUID(), 404, 'not found'],
    ];
    for (const [label, txn, status, words] of cases) {
      const res = await close(bill, txn);
      expect([label, res.status]).toEqual([label, status]);
      expect(res.body.error_v2.message).toContain(words);
    }
    expect((await getBill(bill)).status).toBe('APPROVED');

    // A charge already closing a bill closes no other; a bill closed by a charge takes no other.
    const taken = await charge({ amount: 31_000 });
    expect((await close(bill, taken)).status).toBe(200);
    const twin = await approvedBill({ amount: 31_000 });
    const second = await close(twin, taken);
    expect(refusal(second)).toEqual([422, 'REQUEST_7001']);
    expect(second.body.error_v2.message).toMatch(/already closes bill INV-/);
    const spare = await charge({ amount: 31_000 });
    const other = await close(bill, spare);
    expect(refusal(other)).toEqual([422, 'REQUEST_7001']);
    expect(other.body.error_v2.message).toContain('already closed by another card charge');

    // Not payable: a draft; a bill with a payment on its way; another business's bill.
    const draft = await approvedBill({ amount: 31_000, status: 'DRAFT' });
    const d = await close(draft, spare);
    expect(refusal(d)).toEqual([422, 'REQUEST_7001']);
    expect(d.body.error_v2.message).toContain('status DRAFT');
    const sent = await approvedBill({ amount: 31_000 });
    const pay = await request(t.app, 'POST', `${BILLS}/bulk-actions/pay-now`, { token: tokens.admin, body: { bill_ids: [sent] } });
    expect(pay.body.results[0], pay.text).toMatchObject({ ok: true, bill: { status: 'SCHEDULED' } });
    const inFlight = await close(sent, spare);
    expect(refusal(inFlight)).toEqual([422, 'REQUEST_7001']);
    expect(inFlight.body.error_v2.message).toContain('already on its way');
    expect(refusal(await close(await approvedBill({ token: bToken, vendorId: bVendor, amount: 31_000 }), spare))).toEqual([404, 'REQUEST_7004']);

    // The body is strict.
    const extra = await close(bill, spare, { body: { transaction_id: spare, note: 'x' } });
    expect(refusal(extra)).toEqual([422, 'REQUEST_7001']);
    expect(extra.body.error_v2.errors).toBeDefined();
    expect(refusal(await close(bill, spare, { body: {} }))).toEqual([422, 'REQUEST_7001']);
  });

  it('is for bill managers only, and an AP clerk closes only with charges they may see', async () => {
    const bill = await approvedBill({ amount: 52_000 });
    const adminCharge = await charge({ amount: 52_000 });
    const clerkCharge = await charge({ amount: 52_000, role: 'teammate' });
    for (const role of ['employee', 'manager'] as const) {
      expect(refusal(await suggestions({}, tokens[role]))).toEqual([403, 'FORBIDDEN_7003']);
      expect(refusal(await close(bill, adminCharge, { token: tokens[role] }))).toEqual([403, 'FORBIDDEN_7003']);
      expect(refusal(await request(t.app, 'DELETE', `${BILLS}/${bill}/paid-by-card`, { token: tokens[role] }))).toEqual([403, 'FORBIDDEN_7003']);
    }
    const seen = await suggestions({ bill_id: bill }, tokens.teammate);
    expect(seen.body.data.map((s) => s.transaction_id)).toEqual([clerkCharge]);
    expect(refusal(await close(bill, adminCharge, { token: tokens.teammate }))).toEqual([404, 'REQUEST_7004']);
    expect((await close(bill, clerkCharge, { token: tokens.teammate })).status).toBe(200);
    const read = await request(t.app, 'GET', `${BILLS}/${bill}/paid-by-card`, { token: tokens.bookkeeper });
    expect(read.body.transaction.id).toBe(clerkCharge);
  });

  it('undoes a close back to APPROVED and frees the charge; reverse does too; a reconciled bill stays', async () => {
    const bill = await approvedBill({ amount: 64_000 });
    const txn = await charge({ amount: 64_000 });
    const before = await ledger();
    expect((await close(bill, txn)).status).toBe(200);

    const undo = await request(t.app, 'DELETE', `${BILLS}/${bill}/paid-by-card`, { token: tokens.admin });
    expect(undo.status, undo.text).toBe(200);
    expect(undo.body).toMatchObject({ id: bill, status: 'APPROVED', paid_manually: false, payment_date: null, paid_at: null });
    expect((await request(t.app, 'GET', `${BILLS}/${bill}/paid-by-card`, { token: tokens.admin })).body.transaction).toBeNull();
    expect((await suggestions({ bill_id: bill })).body.data.map((s) => s.transaction_id)).toEqual([txn]);
    const twice = await request(t.app, 'DELETE', `${BILLS}/${bill}/paid-by-card`, { token: tokens.admin });
    expect(refusal(twice)).toEqual([422, 'REQUEST_7001']);
    expect(twice.body.error_v2.message).toContain('nothing to undo');

    // reverse-bill-payment on a bill closed by card lets go of the charge as well.
    expect((await close(bill, txn)).status).toBe(200);
    const reversed = await request(t.app, 'POST', `${BILLS}/reverse-bill-payment/${bill}`, { token: tokens.admin, body: {} });
    expect(reversed.status, reversed.text).toBe(200);
    const twin = await approvedBill({ amount: 64_000 });
    expect((await close(twin, txn)).status).toBe(200);

    const rec = await request(t.app, 'POST', `${BILLS}/bulk-actions/mark-bills-as-reconciled`, { token: tokens.admin, body: { bill_ids: [twin] } });
    expect(rec.body.results[0], rec.text).toMatchObject({ ok: true });
    const stays = await request(t.app, 'DELETE', `${BILLS}/${twin}/paid-by-card`, { token: tokens.admin });
    expect(refusal(stays)).toEqual([422, 'REQUEST_7001']);
    expect(stays.body.error_v2.message).toContain('status RECONCILED');
    expect(await ledger()).toEqual(before);
  });

  it('a scheduled bill closed by card is never sent by the settlement job', async () => {
    const bill = await approvedBill({ amount: 27_300 });
    const txn = await charge({ amount: 27_300 });
    const schedule = await request(t.app, 'PATCH', `${BILLS}/bulk-actions/payment-date`, {
      token: tokens.admin, body: { bill_ids: [bill], payment_date: '2026-11-25' },
    });
    expect(schedule.body.results[0], schedule.text).toMatchObject({ ok: true, bill: { status: 'SCHEDULED' } });
    const suggested = await suggestions({ bill_id: bill });
    expect(suggested.body.data.map((s) => s.transaction_id)).toEqual([txn]);
    const closed = await close(bill, txn);
    expect(closed.body.bill, closed.text).toMatchObject({ status: 'PAID', payment_date: '2026-11-05' });
    // The job runs past the payment date (it settles other tests' attempts too: only this bill is looked at).
    await settleBillPayments(t.db, new Date('2026-11-26T12:00:00Z'));
    expect(await t.db.query('SELECT 1 FROM bill_payments WHERE bill_id = $1', [bill])).toHaveLength(0);
    expect((await getBill(bill)).status).toBe('PAID');
  });

  it('the database lets a charge close one bill only, and only a paid bill carry one', async () => {
    const [one, two] = [await approvedBill({ amount: 8_800 }), await approvedBill({ amount: 8_800 })];
    const txn = await charge({ amount: 8_800 });
    await t.db.query(`UPDATE bills SET status = 'PAID', paid_by_transaction_id = $2 WHERE id = $1`, [one, txn]);
    await expect(t.db.query(`UPDATE bills SET status = 'PAID', paid_by_transaction_id = $2 WHERE id = $1`, [two, txn]))
      .rejects.toMatchObject({ code: '23505' });
    await expect(t.db.query(`UPDATE bills SET status = 'APPROVED' WHERE id = $1`, [one])).rejects.toMatchObject({ code: '23514' });
  });
});
