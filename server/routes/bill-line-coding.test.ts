import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { billSchema } from '../../schema/entities/bill.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { type Fixture, makeBusiness, makeVendor, refusal, request, signIn } from '../test-fixtures.ts';

/**
 * A bill line's location and tracking (set by bulk coding or accounting) survive an edit of the
 * lines: the line input takes them, checked as a transaction's coding is (another business's
 * location, an option outside its category: 422 by field, nothing changed).
 */
const BILLS = '/v1/auth/bill-pay';

describe.each(await testDatabases())('bill line coding on %s', (kind) => {
  const t = useTestApp(kind, { now: () => Date.parse('2026-11-20T12:00:00Z') });
  let a: Fixture;
  let b: Fixture;
  let admin: string;
  let vendor: string;

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 0 });
    b = await makeBusiness(t.db, { transactions: 0 });
    admin = await signIn(t.app, a.email('admin'));
    vendor = await makeVendor(t.app, admin, 'Landlord Co');
  });

  it("keeps a line's location and tracking when the lines are re-sent; another business's location or a stray option is refused by field", async () => {
    const [category] = a.tracking;
    const line = { description: 'Rent', amount: 50_000, location_id: a.locations[1]!, tracking: { [category!.categoryId]: category!.options[0]! } };
    const created = await request(t.app, 'POST', BILLS, {
      token: admin,
      body: { vendor_id: vendor, invoice_number: `INV-${randomUUID().slice(0, 8)}`, invoice_date: '2026-11-01', due_date: '2026-11-30', currency: 'USD', line_items: [line] },
    });
    expect(created.status, created.text).toBe(200);
    const draft = billSchema.parse(created.body);
    expect(draft.line_items[0]).toMatchObject({ location_id: a.locations[1], tracking: line.tracking });
    const edited = await request(t.app, 'PATCH', `${BILLS}/${draft.id}`, { token: admin, body: { line_items: [{ ...line, amount: 60_000 }] } });
    expect(edited.status, edited.text).toBe(200);
    expect(billSchema.parse(edited.body).line_items).toMatchObject([{ amount: 60_000, location_id: a.locations[1], tracking: line.tracking }]);
    const [stored] = await t.db.query<{ location_id: string; tracking: unknown }>('SELECT location_id::text, tracking FROM bill_line_items WHERE bill_id = $1', [draft.id]);
    expect(stored).toEqual({ location_id: a.locations[1], tracking: line.tracking });

    const foreign = await request(t.app, 'PATCH', `${BILLS}/${draft.id}`, { token: admin, body: { line_items: [{ ...line, location_id: b.locations[0] }] } });
    expect(refusal(foreign)).toEqual([422, 'REQUEST_7001']);
    expect(foreign.body.error_v2.errors).toMatchObject({ 'line_items.0.location_id': 'location_id must be a location of this business' });
    const stray = await request(t.app, 'PATCH', `${BILLS}/${draft.id}`, {
      token: admin, body: { line_items: [{ ...line, tracking: { [category!.categoryId]: b.tracking[0]!.options[0] } }] },
    });
    expect(refusal(stray)).toEqual([422, 'REQUEST_7001']);
    expect(Object.keys(stray.body.error_v2.errors)).toEqual([`line_items.0.tracking.${category!.categoryId}`]);
    const after = billSchema.parse((await request(t.app, 'GET', `${BILLS}/${draft.id}`, { token: admin })).body);
    expect(after.line_items).toMatchObject([{ amount: 60_000, location_id: a.locations[1], tracking: line.tracking }]);
  });
});
