import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../ledger/check.ts';
import { settleBillPayments } from '../domain/bill-settlement.ts';
import { storeBankAccount } from '../domain/vendors.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { type Fixture, makeBusiness, makeVendor, request, signIn } from '../test-fixtures.ts';

/**
 * Issue 30, bill payment rails: a check's lifecycle (mailed with the business's next number,
 * cleared on its last business day, or voided before that, money back), a wire's (same day, the fee
 * in the send's own entry, its MT103), the refusals, the documents' safety. The ledger proves
 * itself after each test (checkLedger).
 */
const BILLS = '/v1/auth/bill-pay';
const PAYMENTS = `${BILLS}/payments`;
const NOW = Date.parse('2026-11-20T12:00:00Z'); // a Friday; Thanksgiving is 2026-11-26
const BANK = { routing_number: '021000021', account_number: '4401927731', account_type: 'CHECKING' } as const;
const ADDRESS = { line1: '77 Larimer St', line2: null, city: 'Denver', state: 'CO', postal_code: '80202', country: 'US' };

type Row = { id: string; status: string; rail: string; check_number: number | null; uetr: string | null; wire_fee: number | null;
  mailed_at: string | null; cleared_at: string | null; voided_at: string | null; settles_on: string };

/** An independent reader of a FIN message: blocks by braces, block 4's fields by their `:tag:` lines (not the generator's code). */
function readFin(text: string) {
  const b3 = /\{3:\{121:([^}]*)\}\}/.exec(text);
  const open = text.indexOf('{4:\r\n');
  const close = text.lastIndexOf('\r\n-}');
  expect(open).toBeGreaterThan(0);
  expect(close).toBeGreaterThan(open);
  const lines = text.slice(open + 5, close).split('\r\n');
  const fields = new Map<string, string[]>();
  let current: string[] | null = null;
  for (const line of lines) {
    const m = /^:([0-9]{2}[A-Z]?):(.*)$/.exec(line);
    if (m) {
      current = [m[2]!];
      fields.set(m[1]!, current);
    } else {
      expect(current, `a line before any tag: ${line}`).not.toBeNull();
      current!.push(line);
    }
  }
  return { uetr: b3?.[1], fields, head: text.slice(0, open), contentLines: [...fields.values()].flat() };
}

describe.each(await testDatabases())('bill payment rails on %s', (kind) => {
  const t = useTestApp(kind, { now: () => NOW });
  let a: Fixture;
  let b: Fixture;
  const tok = {} as Record<'admin' | 'bookkeeper' | 'employee' | 'bAdmin', string>;
  const vendor = {} as Record<'mailOnly' | 'banked' | 'nothing' | 'script' | 'bVendor', string>;

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 0 });
    b = await makeBusiness(t.db, { transactions: 0 });
    tok.admin = await signIn(t.app, a.email('admin'));
    tok.bookkeeper = await signIn(t.app, a.email('bookkeeper'));
    tok.employee = await signIn(t.app, a.email('employee'));
    tok.bAdmin = await signIn(t.app, b.email('admin'));
    vendor.mailOnly = await makeVendor(t.app, tok.admin, 'Summit Office Furniture');
    vendor.banked = await makeVendor(t.app, tok.admin, 'Café Ümlaut & Söhne Precision Machining of North America');
    vendor.nothing = await makeVendor(t.app, tok.admin, 'Nowhere Supplies');
    vendor.script = await makeVendor(t.app, tok.admin, '<script>alert("x")</script> & Co');
    vendor.bVendor = await makeVendor(t.app, tok.bAdmin, 'Other business vendor');
    for (const id of [vendor.mailOnly, vendor.banked, vendor.script, vendor.bVendor]) {
      await t.db.query('UPDATE vendors SET address = $2::jsonb WHERE id = $1', [id, JSON.stringify(ADDRESS)]);
    }
    await storeBankAccount(t.db, vendor.banked, BANK);
  });

  const afterEachLedger = async () => {
    const report = await checkLedger(t.db);
    expect(report.ok, JSON.stringify(report)).toBe(true);
  };

  async function approvedBill(vendorId: string, amount: number, token = tok.admin, invoice = `INV-${randomUUID().slice(0, 8)}`) {
    const res = await request(t.app, 'POST', BILLS, { token, body: {
      vendor_id: vendorId, invoice_number: invoice, invoice_date: '2026-11-01', due_date: '2026-11-30',
      currency: 'USD', line_items: [{ description: 'Chairs', amount }],
    } });
    expect(res.status, res.text).toBe(200);
    await t.db.query(`UPDATE bills SET status = 'APPROVED' WHERE id = $1`, [res.body.id]);
    return res.body.id as string;
  }
  const payNow = (ids: string[], rail?: string, token = tok.admin, headers: Record<string, string> = {}) =>
    request(t.app, 'POST', `${BILLS}/bulk-actions/pay-now`, { token, body: rail ? { bill_ids: ids, rail } : { bill_ids: ids }, headers });
  const payments = async (billId: string, token = tok.admin) => {
    const res = await request<{ data: Row[] }>(t.app, 'GET', `${PAYMENTS}?bill_id=${billId}`, { token });
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  };
  const balances = async (f: Fixture) => Object.fromEntries((await t.db.query<{ kind: string; balance: string }>(
    'SELECT kind, sum(balance)::text AS balance FROM ledger_accounts WHERE business_id = $1 GROUP BY kind', [f.businessId]))
    .map((r) => [r.kind, Number(r.balance)]));
  const svgOf = (dataUrl: string) => Buffer.from(dataUrl.replace('data:image/svg+xml;base64,', ''), 'base64').toString('utf8');

  it('a vendor with only a mailing address is paid by check by default: mailed with number 1001, cleared on its 7th business day', async () => {
    const bill = await approvedBill(vendor.mailOnly, 123_456);
    const before = await balances(a);
    const paid = await payNow([bill]);
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.results[0]).toMatchObject({ ok: true, bill: { status: 'SCHEDULED' } });
    const [p] = await payments(bill);
    expect(p).toMatchObject({ rail: 'CHECK', status: 'PENDING', check_number: 1001, settles_on: '2026-12-02', uetr: null, wire_fee: null, cleared_at: null });
    expect(p!.mailed_at).toBe(new Date(NOW).toISOString());
    const sent = await balances(a);
    expect(sent.OPERATING).toBe(before.OPERATING! - 123_456);
    expect(sent.PAYMENTS_IN_FLIGHT ?? 0).toBe((before.PAYMENTS_IN_FLIGHT ?? 0) + 123_456);

    const images = await request(t.app, 'GET', `${PAYMENTS}/${p!.id}/check-images`, { token: tok.bookkeeper });
    expect(images.status, images.text).toBe(200);
    const front = svgOf(images.body.front);
    for (const words of ['Summit Office Furniture', '$1,234.56', 'One thousand two hundred thirty-four and 56/100 dollars', 'Invoice INV-', '1001', '2026-11-20', '77 Larimer St']) {
      expect(front).toContain(words);
    }
    // MICR: routing and account masked but for their last four, then the check number.
    expect(front).toMatch(/⑆X{5}6780⑆ X{8}\d{4}⑈ 001001/);
    expect(svgOf(images.body.back)).toContain('Not yet deposited');
    expect(svgOf(images.body.back)).not.toContain('For deposit only');

    // Not on the 6th business day; on the 7th it clears and settles.
    await settleBillPayments(t.db, new Date('2026-12-01T12:00:00Z'));
    expect((await payments(bill))[0]!.status).toBe('PENDING');
    await settleBillPayments(t.db, new Date('2026-12-02T12:00:00Z'));
    const [cleared] = await payments(bill);
    expect(cleared).toMatchObject({ status: 'SETTLED', cleared_at: '2026-12-02T12:00:00.000Z' });
    const after = await balances(a);
    expect(after.VENDOR_PAYMENTS).toBe((sent.VENDOR_PAYMENTS ?? 0) + 123_456);
    const back = await request(t.app, 'GET', `${PAYMENTS}/${p!.id}/check-images`, { token: tok.admin });
    expect(svgOf(back.body.back)).toContain('For deposit only');
    expect(svgOf(back.body.back)).toContain('Cleared 2026-12-02');
    await afterEachLedger();
  });

  it('check numbers follow per business, and a voided check gives the money back once and never reuses its number', async () => {
    const first = await approvedBill(vendor.mailOnly, 2_000);
    const second = await approvedBill(vendor.mailOnly, 3_000);
    expect((await payNow([first, second], 'CHECK')).body.results.map((r: { ok: boolean }) => r.ok)).toEqual([true, true]);
    const numbers = [(await payments(first))[0]!.check_number, (await payments(second))[0]!.check_number];
    expect(new Set(numbers).size).toBe(2);
    expect(Math.min(...numbers.map(Number))).toBeGreaterThan(1001);
    // Another business's checks start at its own first number.
    const other = await request(t.app, 'POST', BILLS, { token: tok.bAdmin, body: {
      vendor_id: vendor.bVendor, invoice_number: 'B-1', invoice_date: '2026-11-01', due_date: '2026-11-30', currency: 'USD',
      line_items: [{ description: 'x', amount: 100 }] } });
    await t.db.query(`UPDATE bills SET status = 'APPROVED' WHERE id = $1`, [other.body.id]);
    expect((await payNow([other.body.id], 'CHECK', tok.bAdmin)).body.results[0].ok).toBe(true);
    expect((await payments(other.body.id, tok.bAdmin))[0]!.check_number).toBe(1001);

    const before = await balances(a);
    const p = (await payments(first))[0]!;
    const voided = await request(t.app, 'POST', `${PAYMENTS}/${p.id}/void-check`, { token: tok.admin, body: {} });
    expect(voided.status, voided.text).toBe(200);
    expect(voided.body.status).toBe('APPROVED');
    const [row] = await payments(first);
    expect(row).toMatchObject({ status: 'REVERSED', voided_at: new Date(NOW).toISOString() });
    const after = await balances(a);
    expect(after.OPERATING).toBe(before.OPERATING! + 2_000);
    expect(after.PAYMENTS_IN_FLIGHT).toBe(before.PAYMENTS_IN_FLIGHT! - 2_000);
    const again = await request(t.app, 'POST', `${PAYMENTS}/${p.id}/void-check`, { token: tok.admin, body: {} });
    expect([again.status, again.body.error_v2.error_code]).toEqual([409, 'BILL_PAY_7104']);
    expect(svgOf((await request(t.app, 'GET', `${PAYMENTS}/${p.id}/check-images`, { token: tok.admin })).body.front)).toContain('VOID');
    // Paid again: a new attempt with a new number.
    expect((await payNow([first], 'CHECK')).body.results[0].ok).toBe(true);
    const attempts = await payments(first);
    expect(attempts).toHaveLength(2);
    expect(Math.max(...numbers.map(Number))).toBeLessThan(attempts[1]!.check_number!);
    // A check that cleared cannot be voided.
    await settleBillPayments(t.db, new Date('2026-12-02T12:00:00Z'));
    const cleared = (await payments(second))[0]!;
    const late = await request(t.app, 'POST', `${PAYMENTS}/${cleared.id}/void-check`, { token: tok.admin, body: {} });
    expect([late.status, late.body.error_v2.error_code]).toEqual([409, 'BILL_PAY_7104']);
    expect(late.body.error_v2.message).toContain('cleared on 2026-12-02');
    await afterEachLedger();
  });

  it('a wire settles the same day, posts its fee to FEES in the send entry once, and its MT103 reads field by field', async () => {
    const bill = await approvedBill(vendor.banked, 250_000, tok.admin, 'INV#2026/77');
    const before = await balances(a);
    const key = randomUUID();
    const paid = await payNow([bill], 'WIRE', tok.admin, { 'Idempotency-Key': key });
    expect(paid.status, paid.text).toBe(200);
    const replay = await payNow([bill], 'WIRE', tok.admin, { 'Idempotency-Key': key });
    expect(replay.text).toBe(paid.text);
    const [p] = await payments(bill);
    expect(p).toMatchObject({ rail: 'WIRE', status: 'PENDING', settles_on: '2026-11-20', wire_fee: 1500, check_number: null });
    expect(p!.uetr).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const sent = await balances(a);
    expect(sent.OPERATING).toBe(before.OPERATING! - 251_500);
    expect(sent.FEES).toBe((before.FEES ?? 0) + 1_500);
    const entries = await t.db.query<{ n: number; postings: number }>(
      `SELECT count(DISTINCT e.id)::int AS n, count(p.id)::int AS postings FROM journal_entries e JOIN postings p ON p.entry_id = e.id
        WHERE e.business_id = $1 AND e.idem_key = $2`, [a.businessId, `bill-payment:${p!.id}:send`]);
    expect(entries[0]).toEqual({ n: 1, postings: 3 });

    await settleBillPayments(t.db, new Date(NOW));
    expect((await payments(bill))[0]!.status).toBe('SETTLED');
    expect((await balances(a)).VENDOR_PAYMENTS).toBe((sent.VENDOR_PAYMENTS ?? 0) + 250_000);

    const res = await request(t.app, 'GET', `${PAYMENTS}/${p!.id}/mt103`, { token: tok.admin });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="MT103-LL[0-9A-F]{14}\.txt"$/);
    const text = res.text;
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/); // CRLF only
    const fin = readFin(text);
    expect(fin.head).toMatch(/^\{1:F01[A-Z0-9]{12}\d{10}\}\{2:I103[A-Z0-9]{12}N\}\{3:\{121:[0-9a-f-]{36}\}\}$/);
    expect(fin.uetr).toBe(p!.uetr);
    for (const line of fin.contentLines) {
      expect(line.length, line).toBeLessThanOrEqual(35);
      expect(line, line).toMatch(/^[A-Za-z0-9/\-?:().,'+ ]*$/);
    }
    for (const lines of fin.fields.values()) for (const cont of lines.slice(1)) expect(cont).not.toMatch(/^[:-]/);
    const f = (tag: string) => fin.fields.get(tag) ?? [];
    const ref = f('20')[0]!;
    expect(ref.length).toBeLessThanOrEqual(16);
    expect(ref).not.toMatch(/^\/|\/$|\/\//);
    expect(f('23B')).toEqual(['CRED']);
    expect(f('32A')).toEqual(['261120USD2500,00']);
    expect(f('33B')).toEqual(['USD2500,00']);
    expect(f('50K')[0]).toMatch(/^\/X+\d{4}$/);
    expect(f('50K')[1]).toMatch(/^Fixture/);
    expect(f('52D')[0]).toBe('//FW123456780');
    expect(f('57D')).toEqual(['//FW021000021']);
    expect(f('59')[0]).toBe('/XXXXXX7731');
    expect(f('59').slice(1).join(' ')).toContain('Cafe Umlaut + Sohne Precision');
    expect(f('59')).toContain('77 Larimer St');
    expect(f('59').length).toBeLessThanOrEqual(5);
    expect(f('70')).toEqual(['/INV/INV2026/77']);
    expect(f('71A')).toEqual(['OUR']);

    // Reversed after settling: the amount comes back from VENDOR_PAYMENTS; the bank's fee stays paid.
    const pre = await balances(a);
    expect((await request(t.app, 'POST', `${BILLS}/reverse-bill-payment/${bill}`, { token: tok.admin, body: {} })).status).toBe(200);
    const post = await balances(a);
    expect(post.OPERATING).toBe(pre.OPERATING! + 250_000);
    expect(post.FEES).toBe(pre.FEES);
    await afterEachLedger();
  });

  it('a schedule keeps its rail for the settlement job, and ACH stays the default with a bank account', async () => {
    const wired = await approvedBill(vendor.banked, 9_900);
    const sched = await request(t.app, 'PATCH', `${BILLS}/bulk-actions/payment-date`, { token: tok.admin, body: { bill_ids: [wired], payment_date: '2026-11-23', rail: 'WIRE' } });
    expect(sched.status, sched.text).toBe(200);
    expect(sched.body.results[0].ok).toBe(true);
    await settleBillPayments(t.db, new Date('2026-11-23T12:00:00Z'));
    expect((await payments(wired))[0]).toMatchObject({ rail: 'WIRE', status: 'SETTLED', settles_on: '2026-11-23', wire_fee: 1500 });

    const ach = await approvedBill(vendor.banked, 4_000);
    expect((await payNow([ach])).body.results[0].ok).toBe(true);
    expect((await payments(ach))[0]).toMatchObject({ rail: 'ACH', check_number: null, uetr: null, wire_fee: null, settles_on: '2026-11-24' });
    await afterEachLedger();
  });

  it('refuses what a rail cannot do, naming the field, and every document of another rail or business', async () => {
    const noAddress = await approvedBill(vendor.nothing, 1_000);
    const check = await payNow([noAddress], 'CHECK');
    expect(check.body.results[0].error_v2).toMatchObject({ error_code: 'BILL_PAY_7101', errors: { 'vendor.address': expect.stringContaining('Nowhere Supplies has no mailing address') } });
    const wire = await payNow([noAddress], 'WIRE');
    expect(wire.body.results[0].error_v2).toMatchObject({ error_code: 'BILL_PAY_7101', errors: { 'vendor.bank_account': expect.stringContaining('no bank account') } });
    // No bank account and no address: the refusal bill pay always gave.
    expect((await payNow([noAddress])).body.results[0].error_v2.error_code).toBe('BILL_PAY_7101');
    expect((await payNow([noAddress], 'CASH')).status).toBe(422);
    const extra = await request(t.app, 'POST', `${BILLS}/bulk-actions/pay-now`, { token: tok.admin, body: { bill_ids: [noAddress], rail: 'CHECK', speed: 'fast' } });
    expect([extra.status, extra.body.error_v2.error_code]).toEqual([422, 'REQUEST_7001']);
    expect(await t.db.query('SELECT 1 FROM bill_payments WHERE bill_id = $1', [noAddress])).toHaveLength(0);

    const checkBill = await approvedBill(vendor.mailOnly, 700);
    const wireBill = await approvedBill(vendor.banked, 800);
    await payNow([checkBill], 'CHECK');
    await payNow([wireBill], 'WIRE');
    const checkId = (await payments(checkBill))[0]!.id;
    const wireId = (await payments(wireBill))[0]!.id;
    const refusal = async (path: string, token = tok.admin) => {
      const r = await request(t.app, 'GET', path, { token });
      return [r.status, r.body?.error_v2?.error_code];
    };
    expect(await refusal(`${PAYMENTS}/${wireId}/check-images`)).toEqual([422, 'BILL_PAY_7103']);
    expect(await refusal(`${PAYMENTS}/${checkId}/mt103`)).toEqual([422, 'BILL_PAY_7103']);
    expect(await refusal(`${PAYMENTS}/${checkId}/check-images`, tok.bAdmin)).toEqual([404, 'REQUEST_7004']);
    expect(await refusal(`${PAYMENTS}/${wireId}/mt103`, tok.bAdmin)).toEqual([404, 'REQUEST_7004']);
    expect(await refusal(`${PAYMENTS}/${randomUUID()}/mt103`)).toEqual([404, 'REQUEST_7004']);
    expect((await refusal(`${PAYMENTS}/${checkId}/check-images`, tok.employee))[0]).toBe(403);
    expect((await refusal(`${PAYMENTS}/not-a-uuid/check-images`))[0]).toBe(422);
    const voidWire = await request(t.app, 'POST', `${PAYMENTS}/${wireId}/void-check`, { token: tok.admin, body: {} });
    expect([voidWire.status, voidWire.body.error_v2.error_code]).toEqual([422, 'BILL_PAY_7103']);
    const voidOther = await request(t.app, 'POST', `${PAYMENTS}/${checkId}/void-check`, { token: tok.bAdmin, body: {} });
    expect(voidOther.status).toBe(404);
    const voidExtra = await request(t.app, 'POST', `${PAYMENTS}/${checkId}/void-check`, { token: tok.admin, body: { reason: 'x' } });
    expect(voidExtra.status).toBe(422);
    await afterEachLedger();
  });

  it('escapes every text of a check: a vendor named <script> is text in the image, never markup', async () => {
    const bill = await approvedBill(vendor.script, 4_200, tok.admin, '<img src=x onerror=alert(1)>');
    expect((await payNow([bill], 'CHECK')).body.results[0].ok).toBe(true);
    const p = (await payments(bill))[0]!;
    const res = await request(t.app, 'GET', `${PAYMENTS}/${p.id}/check-images`, { token: tok.admin });
    for (const side of [svgOf(res.body.front), svgOf(res.body.back)]) {
      // Every tag is one of the drawing's own; no tag carries a handler or a link.
      const tags = side.match(/<[^>]*>/g) ?? [];
      for (const tag of tags) expect(tag).toMatch(/^<\/?(svg|title|rect|g|text|line)\b/);
      expect(tags.join('')).not.toMatch(/onerror|href|script/i);
      expect(side.match(/<svg\b/g)).toHaveLength(1);
    }
    expect(svgOf(res.body.front)).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co');
    expect(svgOf(res.body.front)).toContain('&lt;img src=x onerror=alert(1)&gt;');
    await afterEachLedger();
  });
});
