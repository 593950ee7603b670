import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { syncChanges } from '../../schema/api/calls.ts';
import { billSchema, type Bill } from '../../schema/entities/bill.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { type Fixture, type FixtureRole, insertPdfUpload, makeBusiness, makeVendor, refusal, request, signIn } from '../test-fixtures.ts';
import { settleBillPayments } from '../domain/bill-settlement.ts';
import { storeBankAccount } from '../domain/vendors.ts';

/**
 * Bill pay (issue 11) through the API: create (the amount is the lines' sum), validation
 * messages by field, unknown and foreign vendors, duplicate invoices, settlement dates across
 * Thanksgiving, the status machine's refusals, mark paid / reverse, pay-now per bill, and §6
 * refusals. Approval itself is another slice: tests approve a bill by setting its status.
 */
const BILLS = '/v1/auth/bill-pay';

describe.each(await testDatabases())('bills on %s', (kind) => {
  const t = useTestApp(kind, { now: () => Date.parse('2026-11-20T12:00:00Z') });
  let a: Fixture;
  let b: Fixture;
  const tokens = {} as Record<FixtureRole, string>;
  let vendor: string;
  let bVendor: string;

  const body = (over: Record<string, unknown> = {}) => ({
    vendor_id: vendor, invoice_number: `INV-${randomUUID().slice(0, 8)}`, invoice_date: '2026-11-01', due_date: '2026-11-30',
    currency: 'USD', line_items: [{ description: 'Paper', amount: 12_000 }, { description: 'Toner', amount: 3_050 }], ...over,
  });
  const create = async (over: Record<string, unknown> = {}, role: FixtureRole = 'admin') => {
    const res = await request(t.app, 'POST', BILLS, { token: tokens[role], body: body(over) });
    expect(res.status, res.text).toBe(200);
    return billSchema.parse(res.body);
  };
  const approved = async () => {
    const bill = await create();
    await t.db.query(`UPDATE bills SET status = 'APPROVED' WHERE id = $1`, [bill.id]);
    return bill;
  };

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 0 });
    b = await makeBusiness(t.db, { transactions: 0 });
    await t.db.query(`UPDATE spend_users SET user_permissions = '["AP_ACCESS"]' WHERE id = $1`, [a.users.teammate]);
    for (const role of ['owner', 'admin', 'bookkeeper', 'manager', 'employee', 'teammate', 'auditor'] as const) {
      tokens[role] = await signIn(t.app, a.email(role));
    }
    vendor = await makeVendor(t.app, tokens.admin, 'Paper Co');
    // Issue 25: paid only to a verified bank account (stored as the bank-account call stores it).
    await storeBankAccount(t.db, vendor, { routing_number: '021000021', account_number: '4401927731', account_type: 'CHECKING' });
    bVendor = await makeVendor(t.app, await signIn(t.app, b.email('owner')), 'Foreign Co');
  });

  it('creates a draft whose amount is the sum of its lines, and reads it back', async () => {
    const bill = await create({ memo: 'November supplies', line_items: [{ description: 'Paper', amount: 12_000, gl_account_id: a.glAccounts.active[0] }, { description: 'Toner', amount: 3_050 }] });
    expect(bill).toMatchObject({ status: 'DRAFT', amount: 15_050, vendor_id: vendor, memo: 'November supplies', payment_attempt: 0 });
    expect(bill.line_items.map((l) => [l.description, l.amount, l.gl_account_id])).toEqual([
      ['Paper', 12_000, a.glAccounts.active[0]], ['Toner', 3_050, null],
    ]);
    const got = await request(t.app, 'GET', `${BILLS}/${bill.id}`, { token: tokens.bookkeeper });
    expect(got.status, got.text).toBe(200);
    expect(got.body).toEqual(bill);
  });

  it('submits for approval: PENDING_APPROVAL with an approval instance from the bill policy', async () => {
    const bill = await create({ submit: true });
    expect(bill.status).toBe('PENDING_APPROVAL');
    expect(bill.submitted_at).not.toBeNull();
    const rows = await t.db.query<{ status: string }>(`SELECT status FROM approval_instances WHERE object_type = 'bill' AND object_id = $1`, [bill.id]);
    expect(rows).toHaveLength(1);
  });

  it('answers field messages for bad bills, and 404 for an unknown or foreign vendor', async () => {
    const negative = await request(t.app, 'POST', BILLS, { token: tokens.admin, body: body({ line_items: [{ description: 'Refund', amount: -500 }, { description: 'x', amount: 900 }] }) });
    expect(refusal(negative)).toEqual([422, 'REQUEST_7001']);
    expect(negative.body.error_v2.errors['line_items.0.amount']).toMatch(/cannot be negative/);
    const dates = await request(t.app, 'POST', BILLS, { token: tokens.admin, body: body({ due_date: '2026-10-01' }) });
    expect(refusal(dates)).toEqual([422, 'REQUEST_7001']);
    expect(dates.text).toContain('The due date cannot be before the invoice date.');
    const empty = await request(t.app, 'POST', BILLS, { token: tokens.admin, body: body({ line_items: [], invoice_number: ' ' }) });
    expect(refusal(empty)).toEqual([422, 'REQUEST_7001']);
    expect(empty.text).toContain('Add at least one line');
    expect(empty.text).toContain('Enter the invoice number.');
    const zero = await request(t.app, 'POST', BILLS, { token: tokens.admin, body: body({ line_items: [{ description: 'Free', amount: 0 }] }) });
    expect(zero.text).toContain('must total more than zero');
    expect(refusal(await request(t.app, 'POST', BILLS, { token: tokens.admin, body: body({ vendor_id: randomUUID() }) }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'POST', BILLS, { token: tokens.admin, body: body({ vendor_id: bVendor }) }))).toEqual([404, 'REQUEST_7004']);
    const foreignGl = await request(t.app, 'POST', BILLS, { token: tokens.admin, body: body({ line_items: [{ description: 'x', amount: 1, gl_account_id: b.glAccounts.active[0] }] }) });
    expect(refusal(foreignGl)).toEqual([422, 'REQUEST_7001']);
  });

  it('finds duplicate invoices by vendor and normalized number; canceled bills do not count', async () => {
    const bill = await create({ invoice_number: 'inv 2026-77' });
    const check = (invoice_number: string, vendor_id = vendor) =>
      request(t.app, 'POST', `${BILLS}/check-duplicate-invoice-number`, { token: tokens.admin, body: { vendor_id, invoice_number } });
    const dup = await check('INV2026-77');
    expect(dup.status, dup.text).toBe(200);
    expect(dup.body.is_duplicate).toBe(true);
    expect(dup.body.bills.map((x: Bill) => x.id)).toEqual([bill.id]);
    expect((await check('INV-2026-78')).body).toEqual({ is_duplicate: false, bills: [] });
    expect((await check('INV-2026-077')).body.is_duplicate).toBe(true);
    expect(refusal(await check('INV2026-77', bVendor))).toEqual([404, 'REQUEST_7004']);
    await t.db.query(`UPDATE bills SET status = 'CANCELED' WHERE id = $1`, [bill.id]);
    expect((await check('INV2026-77')).body.is_duplicate).toBe(false);
  });

  it('computes settlement dates on the bank calendar, skipping Thanksgiving 2026', async () => {
    const settle = (payment_date: string, extra: Record<string, unknown> = {}) =>
      request(t.app, 'POST', `${BILLS}/get-expected-settlement-date`, { token: tokens.admin, body: { payment_date, ...extra } });
    expect((await settle('2026-11-25')).body).toEqual({ expected_settlement_date: '2026-11-30' });
    expect((await settle('2026-11-26', { business_days: 0 })).body).toEqual({ expected_settlement_date: '2026-11-27' });
    expect((await settle('2026-11-24', { business_days: 1 })).body).toEqual({ expected_settlement_date: '2026-11-25' });
    expect(refusal(await settle('2026-02-30'))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await settle('2026-11-25', { business_days: -1 }))).toEqual([422, 'REQUEST_7001']);
  });

  it('edits a draft, refuses payable edits once submitted, and deletes drafts only', async () => {
    const draft = await create();
    const patched = await request(t.app, 'PATCH', `${BILLS}/${draft.id}`, {
      token: tokens.teammate, body: { line_items: [{ description: 'All', amount: 999 }], memo: 'Fixed' },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ amount: 999, memo: 'Fixed' });
    const badDates = await request(t.app, 'PATCH', `${BILLS}/${draft.id}`, { token: tokens.admin, body: { due_date: '2026-01-01' } });
    expect(badDates.text).toContain('The due date cannot be before the invoice date.');

    const submitted = await create({ submit: true });
    const refused = await request(t.app, 'PATCH', `${BILLS}/${submitted.id}`, { token: tokens.admin, body: { line_items: [{ description: 'x', amount: 1 }] } });
    expect(refusal(refused)).toEqual([422, 'REQUEST_7001']);
    expect(refused.body.error_v2.message).toContain('status PENDING_APPROVAL');
    expect((await request(t.app, 'PATCH', `${BILLS}/${submitted.id}`, { token: tokens.admin, body: { memo: 'Still fine' } })).status).toBe(200);
    expect(refusal(await request(t.app, 'DELETE', `${BILLS}/${submitted.id}`, { token: tokens.admin }))).toEqual([422, 'REQUEST_7001']);

    const gone = await request(t.app, 'DELETE', `${BILLS}/${draft.id}`, { token: tokens.admin });
    expect(gone.status, gone.text).toBe(200);
    expect(gone.body.deleted).toBe(true);
    expect(refusal(await request(t.app, 'GET', `${BILLS}/${draft.id}`, { token: tokens.admin }))).toEqual([404, 'REQUEST_7004']);
  });

  it('refuses changing what a sync commit exported of a bill (409 ACCOUNTING_7301, nothing changed) until it is marked not synced', async () => {
    const bill = await approved();
    await t.db.query(`UPDATE bills SET accounting_synced_at = '2026-11-19T09:30:00Z' WHERE id = $1`, [bill.id]);
    const read = async () => billSchema.parse((await request(t.app, 'GET', `${BILLS}/${bill.id}`, { token: tokens.admin })).body);
    const before = await read();
    const message = 'This bill was exported to your accounting system on 2026-11-19. ' +
      'Mark it as not synced to change its vendor, invoice number, dates, amounts or coding.';
    for (const patch of [{ due_date: '2026-12-15' }, { invoice_date: '2026-10-30' }, { line_items: [{ description: 'All', amount: 1 }] },
      { memo: 'with a date', due_date: '2026-12-15' }]) {
      const res = await request(t.app, 'PATCH', `${BILLS}/${bill.id}`, { token: tokens.admin, body: patch });
      expect(res.status, res.text).toBe(409);
      expect(res.body.error_v2).toEqual({ error_code: 'ACCOUNTING_7301', message });
    }
    expect(await read()).toEqual(before);
    // Notes, the invoice document's kind of edit and status moves stay allowed.
    const memo = await request(t.app, 'PATCH', `${BILLS}/${bill.id}`, { token: tokens.admin, body: { memo: 'Paid by wire' } });
    expect(memo.status, memo.text).toBe(200);
    expect(memo.body).toMatchObject({ memo: 'Paid by wire', due_date: before.due_date, accounting_synced_at: '2026-11-19T09:30:00.000Z' });

    const unsync = await request(t.app, 'POST', '/v1/auth/accounting/mark-not-synced', { token: tokens.bookkeeper, body: { items: [{ type: 'bill', id: bill.id }] } });
    expect(unsync.status, unsync.text).toBe(200);
    const moved = await request(t.app, 'PATCH', `${BILLS}/${bill.id}`, { token: tokens.admin, body: { due_date: '2026-12-15' } });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ due_date: '2026-12-15', accounting_synced_at: null });
  });

  it('marks a bill paid, reverses it, and refuses both outside the status machine', async () => {
    const draft = await create();
    const early = await request(t.app, 'POST', `${BILLS}/mark-bill-as-paid/${draft.id}`, { token: tokens.admin, body: {} });
    expect(refusal(early)).toEqual([422, 'REQUEST_7001']);
    expect(early.body.error_v2.message).toContain('status DRAFT');
    const bill = await approved();
    const paid = await request(t.app, 'POST', `${BILLS}/mark-bill-as-paid/${bill.id}`, { token: tokens.admin, body: { payment_date: '2026-11-19' } });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body).toMatchObject({ status: 'PAID', paid_manually: true, payment_date: '2026-11-19' });
    const reversed = await request(t.app, 'POST', `${BILLS}/reverse-bill-payment/${bill.id}`, { token: tokens.admin, body: {} });
    expect(reversed.status, reversed.text).toBe(200);
    expect(reversed.body).toMatchObject({ status: 'APPROVED', paid_at: null, paid_manually: false });
    expect(refusal(await request(t.app, 'POST', `${BILLS}/reverse-bill-payment/${bill.id}`, { token: tokens.admin, body: {} }))).toEqual([422, 'REQUEST_7001']);
  });

  it('sends approved bills now, once each, with per-bill refusals; they settle on their bank day; a reversal lets the next attempt pay again', async () => {
    const [one, two] = [await approved(), await approved()];
    const draft = await create();
    const pay = (bill_ids: string[], headers: Record<string, string> = {}) =>
      request(t.app, 'POST', `${BILLS}/bulk-actions/pay-now`, { token: tokens.admin, body: { bill_ids }, headers });
    const first = await pay([one.id, draft.id, two.id], { 'Idempotency-Key': 'pay-1' });
    expect(first.status, first.text).toBe(200);
    const results = first.body.results as { id: string; ok: boolean; bill?: Bill; error_v2?: { error_code: string; message: string } }[];
    expect(results.map((r) => [r.id, r.ok])).toEqual([[one.id, true], [draft.id, false], [two.id, true]]);
    // Sent, not paid: SCHEDULED (processing) until the settlement day (Fri 2026-11-20 + 2 bank days).
    expect(results[0]!.bill).toMatchObject({ status: 'SCHEDULED', payment_attempt: 1, paid_manually: false, payment_date: '2026-11-20', paid_at: null });
    expect(results[1]!.error_v2).toMatchObject({ error_code: 'REQUEST_7001' });
    expect(results[1]!.error_v2!.message).toContain('status DRAFT');

    const replay = await pay([one.id, draft.id, two.id], { 'Idempotency-Key': 'pay-1' });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const again = await pay([one.id, two.id]);
    expect(again.status).toBe(200);
    expect(again.body.results.map((r: { ok: boolean }) => r.ok)).toEqual([false, false]);
    expect(again.body.results[0].error_v2.message).toContain('already on its way (it settles on 2026-11-24)');
    const payments = await request(t.app, 'GET', `${BILLS}/payments?bill_id=${one.id}`, { token: tokens.admin });
    expect(payments.status, payments.text).toBe(200);
    expect(payments.body.data).toEqual([{
      id: expect.any(String), bill_id: one.id, amount: 15_050, status: 'PENDING', attempt: 1, created_at: expect.any(String),
      settles_on: '2026-11-24', settled_at: null,
      // Issue 30: the default rail with a bank account is ACH, as before rails.
      rail: 'ACH', check_number: null, mailed_at: null, cleared_at: null, voided_at: null, uetr: null, wire_fee: null,
    }]);

    // The job the day before settles nothing; on the settlement day, each payment once.
    await settleBillPayments(t.db, new Date('2026-11-23T23:00:00Z'));
    expect((await request(t.app, 'GET', `${BILLS}/${one.id}`, { token: tokens.admin })).body.status).toBe('SCHEDULED');
    const day = await settleBillPayments(t.db, new Date('2026-11-24T09:00:00Z'));
    expect(day.settled).toBeGreaterThanOrEqual(2);
    expect((await settleBillPayments(t.db, new Date('2026-11-24T09:05:00Z'))).settled).toBe(0);
    const settled = await request(t.app, 'GET', `${BILLS}/${one.id}`, { token: tokens.admin });
    expect(settled.body).toMatchObject({ status: 'PAID', paid_at: '2026-11-24T09:00:00.000Z', payment_attempt: 1 });

    expect((await request(t.app, 'POST', `${BILLS}/reverse-bill-payment/${one.id}`, { token: tokens.admin, body: {} })).status).toBe(200);
    const repaid = await pay([one.id]);
    expect(repaid.body.results[0]).toMatchObject({ ok: true, bill: { status: 'SCHEDULED', payment_attempt: 2 } });
    const after = await request(t.app, 'GET', `${BILLS}/payments?bill_id=${one.id}`, { token: tokens.admin });
    expect(after.body.data.map((p: { attempt: number; status: string }) => [p.attempt, p.status])).toEqual([[1, 'REVERSED'], [2, 'PENDING']]);

    const none = await pay([]);
    expect(none.status).toBeGreaterThanOrEqual(400);
    expect(none.status).toBeLessThan(500);
  });

  it('refuses to pay or schedule a bill whose vendor cannot be paid (BILL_PAY_7101 naming the vendor), and pays the others', async () => {
    const noBank = await makeVendor(t.app, tokens.admin, `No Bank Supply ${randomUUID().slice(0, 4)}`);
    const stranded = await create({ vendor_id: noBank });
    await t.db.query(`UPDATE bills SET status = 'APPROVED' WHERE id = $1`, [stranded.id]);
    const euro = await create({ currency: 'EUR' });
    await t.db.query(`UPDATE bills SET status = 'APPROVED' WHERE id = $1`, [euro.id]);
    const fine = await approved();
    const res = await request(t.app, 'POST', `${BILLS}/bulk-actions/pay-now`, { token: tokens.admin, body: { bill_ids: [stranded.id, fine.id, euro.id] } });
    expect(res.status, res.text).toBe(200);
    const [a1, a2, a3] = res.body.results as { ok: boolean; error_v2?: { error_code: string; message: string } }[];
    expect(a1).toMatchObject({ ok: false, error_v2: { error_code: 'BILL_PAY_7101' } });
    expect(a1!.error_v2!.message).toMatch(/^No Bank Supply .* has no bank account on file/);
    expect(a2).toMatchObject({ ok: true });
    expect(a3).toMatchObject({ ok: false, error_v2: { error_code: 'BILL_PAY_7101' } });
    expect(a3!.error_v2!.message).toContain('Paper Co is paid by ACH, which moves US dollars only; this bill is in EUR');
    expect(await t.db.query('SELECT 1 FROM bill_payments WHERE bill_id = ANY($1::uuid[])', [[stranded.id, euro.id]])).toHaveLength(0);

    // Scheduling is refused the same way; an unverified account (not ACH-routable) too.
    const schedule = (ids: string[]) => request(t.app, 'PATCH', `${BILLS}/bulk-actions/payment-date`, { token: tokens.admin, body: { bill_ids: ids, payment_date: '2026-11-27' } });
    const refused = await schedule([stranded.id]);
    expect(refused.status, refused.text).toBe(200);
    expect(refused.body.results[0]).toMatchObject({ ok: false, error_v2: { error_code: 'BILL_PAY_7101' } });
    await storeBankAccount(t.db, noBank, { routing_number: '800000080', account_number: '12345678', account_type: 'CHECKING' });
    const unverified = await schedule([stranded.id]);
    expect(unverified.body.results[0].error_v2.message).toContain('bank account is not verified');
    expect((await request(t.app, 'GET', `${BILLS}/${stranded.id}`, { token: tokens.admin })).body.status).toBe('APPROVED');
    // Once its details verify, it schedules; the job sends it on its day and settles it two bank days later.
    await storeBankAccount(t.db, noBank, { routing_number: '111000025', account_number: '88120045', account_type: 'SAVINGS' });
    const scheduled = await schedule([stranded.id]);
    expect(scheduled.body.results[0]).toMatchObject({ ok: true, bill: { status: 'SCHEDULED', payment_date: '2026-11-27', payment_attempt: 0 } });
    await settleBillPayments(t.db, new Date('2026-11-26T12:00:00Z'));
    expect(await t.db.query('SELECT 1 FROM bill_payments WHERE bill_id = $1', [stranded.id])).toHaveLength(0);
    await settleBillPayments(t.db, new Date('2026-11-27T12:00:00Z'));
    const [sent] = await t.db.query<{ status: string; settles_on: string }>(
      `SELECT status, to_char(settles_on, 'YYYY-MM-DD') AS settles_on FROM bill_payments WHERE bill_id = $1`, [stranded.id]);
    expect(sent).toEqual({ status: 'PENDING', settles_on: '2026-12-01' });
    await settleBillPayments(t.db, new Date('2026-12-01T12:00:00Z'));
    expect((await request(t.app, 'GET', `${BILLS}/${stranded.id}`, { token: tokens.admin })).body).toMatchObject({ status: 'PAID', payment_attempt: 1 });
  });

  it('fails a scheduled payment whose vendor lost its bank account before the day, and moves no money', async () => {
    const gone = await makeVendor(t.app, tokens.admin, `Gone Bank ${randomUUID().slice(0, 4)}`);
    await storeBankAccount(t.db, gone, { routing_number: '021000021', account_number: '55512345', account_type: 'CHECKING' });
    const bill = await create({ vendor_id: gone });
    await t.db.query(`UPDATE bills SET status = 'APPROVED' WHERE id = $1`, [bill.id]);
    const ok = await request(t.app, 'PATCH', `${BILLS}/bulk-actions/payment-date`, { token: tokens.admin, body: { bill_ids: [bill.id], payment_date: '2026-11-25' } });
    expect(ok.body.results[0].ok).toBe(true);
    await storeBankAccount(t.db, gone, null);
    await settleBillPayments(t.db, new Date('2026-11-25T12:00:00Z'));
    const after = await request(t.app, 'GET', `${BILLS}/${bill.id}`, { token: tokens.admin });
    expect(after.body.status).toBe('PAYMENT_FAILED');
    expect(after.body.payment_failure_reason).toContain('has no bank account on file');
    expect(await t.db.query('SELECT 1 FROM bill_payments WHERE bill_id = $1', [bill.id])).toHaveLength(0);
  });

  it('lists bills newest first with status and vendor filters and keyset pages', async () => {
    const other = await makeVendor(t.app, tokens.admin, `List vendor ${randomUUID().slice(0, 6)}`);
    const made = [await create({ vendor_id: other }), await create({ vendor_id: other }), await create({ vendor_id: other, submit: true })];
    const page1 = await request(t.app, 'GET', `${BILLS}?vendor_id=${other}&page_size=2&include_count=true`, { token: tokens.admin });
    expect(page1.status, page1.text).toBe(200);
    expect(page1.body.total_count).toBe(3);
    const page2 = await request(t.app, 'GET', `${BILLS}?vendor_id=${other}&page_size=2&start=${encodeURIComponent(page1.body.page.next)}`, { token: tokens.admin });
    const ids = [...page1.body.data, ...page2.body.data].map((x: Bill) => x.id);
    expect(new Set(ids)).toEqual(new Set(made.map((m) => m.id)));
    expect(page2.body.page.next).toBeNull();
    const pending = await request(t.app, 'GET', `${BILLS}?vendor_id=${other}&status=PENDING_APPROVAL`, { token: tokens.admin });
    expect(pending.body.data.map((x: Bill) => x.id)).toEqual([made[2]!.id]);
  });

  it('moves bills to the survivor when payees merge', async () => {
    const merged = await makeVendor(t.app, tokens.admin, `Merged ${randomUUID().slice(0, 6)}`);
    const bill = await create({ vendor_id: merged });
    const res = await request(t.app, 'POST', '/v1/auth/vendors/merge-payees', { token: tokens.admin, body: { survivor_payee_id: vendor, merged_payee_ids: [merged] } });
    expect(res.status, res.text).toBe(200);
    const moved = await request(t.app, 'GET', `${BILLS}/${bill.id}`, { token: tokens.admin });
    expect(moved.body.vendor_id).toBe(vendor);
    expect(moved.body.change_seq).toBeGreaterThan(bill.change_seq);
  });

  it('attaches an invoice file the user may read; an unknown or another business\'s file is not found and changes nothing', async () => {
    const upload = async (biz: Fixture, user: string) => {
      return insertPdfUpload(t.db, biz.businessId, user);
    };
    const bill = await create({}, 'teammate');
    const mine = await upload(a, a.users.teammate);
    for (const fileId of [randomUUID(), await upload(b, b.users.admin)]) {
      const res = await request(t.app, 'PATCH', `${BILLS}/${bill.id}`, { token: tokens.teammate, body: { invoice_file_id: fileId, memo: 'x' } });
      expect(refusal(res), res.text).toEqual([404, 'REQUEST_7004']);
      expect(res.body.error_v2.message ?? res.text).toContain('invoice file');
    }
    expect((await request(t.app, 'GET', `${BILLS}/${bill.id}`, { token: tokens.teammate })).body).toMatchObject({ invoice_file_id: null, memo: null });
    const ok = await request(t.app, 'PATCH', `${BILLS}/${bill.id}`, { token: tokens.teammate, body: { invoice_file_id: mine } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.invoice_file_id).toBe(mine);
  });

  describe('completing a provisional bill (the bill inbox)', () => {
    const PROVISIONAL = `${BILLS}/provisional-bills`;
    /** An invoice PDF `user` uploaded to `biz`, kept as a provisional bill there; answers both ids. */
    const inboxed = async (biz: Fixture, user: string, token: string) => {
      const file = await insertPdfUpload(t.db, biz.businessId, user);
      const res = await request(t.app, 'POST', PROVISIONAL, { token, body: { invoice_file_id: file, invoice_number: 'INV-IN' } });
      expect(res.status, res.text).toBe(201);
      return { file, id: res.body.id as string, seq: res.body.change_seq as number };
    };
    const live = async (token: string) => (await request(t.app, 'GET', PROVISIONAL, { token })).body.data.map((r: { id: string }) => r.id);

    it('takes its invoice file and deletes it in the same write, with a tombstone the feed carries before the bill', async () => {
      const mine = await inboxed(a, a.users.admin, tokens.admin);
      const other = await inboxed(a, a.users.admin, tokens.admin);
      const id = randomUUID();
      const bill = await create({ id, provisional_bill_id: mine.id });
      expect(bill).toMatchObject({ id, invoice_file_id: mine.file, status: 'DRAFT', amount: 15_050 });
      expect(await live(tokens.admin)).not.toContain(mine.id);
      expect(await live(tokens.admin)).toContain(other.id);
      const feed = await request(t.app, 'GET', `${syncChanges.path}?after=${mine.seq}&limit=1000`, { token: tokens.admin });
      expect(feed.status, feed.text).toBe(200);
      const changes = feed.body.changes as { collection: string; id: string; deleted: boolean; seq: number }[];
      const tombstone = changes.find((c) => c.collection === 'provisional_bills' && c.id === mine.id);
      expect(tombstone).toMatchObject({ deleted: true });
      expect(tombstone!.seq).toBeLessThan(bill.change_seq);

      // A repeat of the same create (same client id) answers the stored bill and creates nothing more.
      const again = await request(t.app, 'POST', BILLS, { token: tokens.admin, body: body({ id, provisional_bill_id: mine.id }) });
      expect(again.status, again.text).toBe(200);
      expect(again.body).toMatchObject({ id, invoice_file_id: mine.file, change_seq: bill.change_seq });
      expect(await t.db.query('SELECT id FROM bills WHERE id = $1', [id])).toHaveLength(1);
    });

    it('another business\'s, an unknown or an already completed provisional bill is 404, and nothing is created', async () => {
      const bAdmin = await signIn(t.app, b.email('admin'));
      const foreign = await inboxed(b, b.users.admin, bAdmin);
      const done = await inboxed(a, a.users.admin, tokens.admin);
      await create({ provisional_bill_id: done.id });
      for (const provisional of [foreign.id, randomUUID(), done.id]) {
        const id = randomUUID();
        const res = await request(t.app, 'POST', BILLS, { token: tokens.admin, body: body({ id, provisional_bill_id: provisional }) });
        expect(refusal(res), res.text).toEqual([404, 'REQUEST_7004']);
        expect((await t.db.query('SELECT id FROM bills WHERE id = $1', [id])).length).toBe(0);
      }
      // B's provisional bill is untouched.
      expect(await live(bAdmin)).toContain(foreign.id);
    });
  });

  it('lets only bill managers in (403), and hides another business\'s bills (404)', async () => {
    const bill = await create();
    for (const role of ['employee', 'manager', 'auditor'] as const) {
      expect(refusal(await request(t.app, 'GET', `${BILLS}/${bill.id}`, { token: tokens[role] }))).toEqual([403, 'FORBIDDEN_7003']);
      expect(refusal(await request(t.app, 'POST', BILLS, { token: tokens[role], body: body() }))).toEqual([403, 'FORBIDDEN_7003']);
    }
    const bOwner = await signIn(t.app, b.email('owner'));
    expect(refusal(await request(t.app, 'GET', `${BILLS}/${bill.id}`, { token: bOwner }))).toEqual([404, 'REQUEST_7004']);
    const foreignPay = await request(t.app, 'POST', `${BILLS}/bulk-actions/pay-now`, { token: bOwner, body: { bill_ids: [bill.id] } });
    expect(foreignPay.body.results[0]).toMatchObject({ ok: false, error_v2: { error_code: 'REQUEST_7004' } });
    expect((await request(t.app, 'GET', BILLS, { token: bOwner })).body.data).toEqual([]);
  });
});
