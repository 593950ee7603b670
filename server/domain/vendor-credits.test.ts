import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { vendorCreditSchema, type VendorCredit } from '../../schema/entities/vendor-credit.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { type Fixture, makeBusiness, makeVendor, request, signIn } from '../test-fixtures.ts';

/**
 * Vendor credits (issue 11): create, list with what remains, apply through bill credit lines
 * (same business, vendor and currency; never more than remains), cancel releases, delete refused
 * once applied; another business's credit is 404.
 */
const BILLS = '/v1/auth/bill-pay';
const CREDITS = `${BILLS}/vendor-credits`;

describe.each(await testDatabases())('vendor credits on %s', (kind) => {
  const t = useTestApp(kind, { now: () => Date.parse('2026-11-20T12:00:00Z') });
  let a: Fixture;
  let admin: string;
  let vendor: string;
  let otherVendor: string;
  let foreignCredit: string;

  const credit = async (over: Record<string, unknown> = {}, token = admin) => {
    const res = await request(t.app, 'POST', CREDITS, {
      token, body: { vendor_id: vendor, currency: 'USD', amount: 10_000, credit_note_number: `CN-${randomUUID().slice(0, 6)}`, credit_date: '2026-11-01', ...over },
    });
    expect(res.status, res.text).toBe(201);
    return vendorCreditSchema.parse(res.body);
  };
  const bill = (creditId: string, take: number, over: Record<string, unknown> = {}) => request(t.app, 'POST', BILLS, {
    token: admin,
    body: {
      vendor_id: vendor, invoice_number: `INV-${randomUUID().slice(0, 8)}`, invoice_date: '2026-11-01', due_date: '2026-11-30', currency: 'USD',
      line_items: [{ description: 'Service', amount: 50_000 }, { description: 'Credit', amount: -take, vendor_credit_id: creditId }], ...over,
    },
  });
  const get = async (id: string) => (await request(t.app, 'GET', CREDITS, { token: admin })).body.data.find((c: VendorCredit) => c.id === id) as VendorCredit;

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 0 });
    const b = await makeBusiness(t.db, { transactions: 0 });
    admin = await signIn(t.app, a.email('admin'));
    vendor = await makeVendor(t.app, admin, 'Credit Co');
    otherVendor = await makeVendor(t.app, admin, 'Other Co');
    const bOwner = await signIn(t.app, b.email('owner'));
    foreignCredit = (await credit({ vendor_id: await makeVendor(t.app, bOwner, 'B Co') }, bOwner)).id;
  });

  it('creates and lists a credit with its remaining amount', async () => {
    const c = await credit({ memo: 'Returned toner' });
    expect(c).toMatchObject({ amount: 10_000, applied: 0, remaining: 10_000, memo: 'Returned toner', vendor_id: vendor });
    const list = await request(t.app, 'GET', `${CREDITS}?vendor_id=${vendor}`, { token: admin });
    expect(list.status, list.text).toBe(200);
    expect(list.body.data.map((x: VendorCredit) => x.id)).toContain(c.id);
    expect(list.body.data.map((x: VendorCredit) => x.id)).not.toContain(foreignCredit);
  });

  it('applies a credit through bill lines, never past what remains; a cancel releases it', async () => {
    const c = await credit();
    const first = await bill(c.id, 6_000);
    expect(first.status, first.text).toBe(200);
    expect(first.body.amount).toBe(44_000);
    expect(first.body.line_items[1]).toMatchObject({ amount: -6_000, vendor_credit_id: c.id });
    expect(await get(c.id)).toMatchObject({ applied: 6_000, remaining: 4_000 });
    const over = await bill(c.id, 5_000);
    expect([over.status, over.body.error_v2.error_code]).toEqual([422, 'REQUEST_7001']);
    expect(over.body.error_v2.errors['line_items.1.amount']).toMatch(/Only \$40\.00 of credit CN-.* remains/);
    // The bill's own earlier lines do not count against its edit.
    const edit = await request(t.app, 'PATCH', `${BILLS}/${first.body.id}`, {
      token: admin, body: { line_items: [{ description: 'Service', amount: 50_000 }, { description: 'Credit', amount: -10_000, vendor_credit_id: c.id }] },
    });
    expect(edit.status, edit.text).toBe(200);
    expect(await get(c.id)).toMatchObject({ applied: 10_000, remaining: 0 });
    const cancel = await request(t.app, 'POST', `${BILLS}/bulk-actions/cancel`, { token: admin, body: { bill_ids: [first.body.id] } });
    expect(cancel.status, cancel.text).toBe(200);
    expect(await get(c.id)).toMatchObject({ applied: 0, remaining: 10_000 });
    expect((await bill(c.id, 10_000)).status).toBe(200);
  });

  it('refuses a credit of another vendor or currency by field, and another business\'s credit with 404', async () => {
    const c = await credit();
    const wrongVendor = await bill(c.id, 100, { vendor_id: otherVendor });
    expect(wrongVendor.status).toBe(422);
    expect(wrongVendor.body.error_v2.errors['line_items.1.vendor_credit_id']).toMatch(/another vendor/);
    const eur = await credit({ currency: 'EUR' });
    const wrongCurrency = await bill(eur.id, 100);
    expect(wrongCurrency.body.error_v2.errors['line_items.1.vendor_credit_id']).toMatch(/is in EUR/);
    expect((await bill(foreignCredit, 100)).status).toBe(404);
    expect((await bill(randomUUID(), 100)).status).toBe(404);
    // A credit line must be negative; an ordinary line must not be (bill-rules.ts).
    const positive = await bill(c.id, -100);
    expect(positive.body.error_v2.errors['line_items.1.amount']).toMatch(/must be negative/);
    // Moving a credited draft to another vendor rechecks its credit lines.
    const ok = await bill(c.id, 100);
    const moved = await request(t.app, 'PATCH', `${BILLS}/${ok.body.id}`, { token: admin, body: { vendor_id: otherVendor } });
    expect(moved.status).toBe(422);
  });

  it('deletes an unused credit, and refuses one that is applied', async () => {
    const used = await credit();
    expect((await bill(used.id, 1_000)).status).toBe(200);
    const refused = await request(t.app, 'DELETE', `${CREDITS}/${used.id}`, { token: admin });
    expect([refused.status, refused.body.error_v2.error_code]).toEqual([422, 'REQUEST_7001']);
    const free = await credit();
    const del = await request(t.app, 'DELETE', `${CREDITS}/${free.id}`, { token: admin });
    expect(del.status, del.text).toBe(200);
    expect(del.body.deleted).toBe(true);
    expect((await request(t.app, 'DELETE', `${CREDITS}/${free.id}`, { token: admin })).status).toBe(404);
    expect((await request(t.app, 'DELETE', `${CREDITS}/${foreignCredit}`, { token: admin })).status).toBe(404);
    expect((await bill(free.id, 100)).status).toBe(404);
  });

  it('validates the credit body and refuses non-managers', async () => {
    const bad = await request(t.app, 'POST', CREDITS, { token: admin, body: { vendor_id: vendor, currency: 'USD', amount: -1, credit_note_number: 'x', credit_date: '2026-02-30' } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error_v2.errors)).toEqual(expect.arrayContaining(['amount', 'credit_date']));
    const employee = await signIn(t.app, a.email('employee'));
    expect((await request(t.app, 'GET', CREDITS, { token: employee })).status).toBe(403);
  });
});
