import { describe, expect, it } from 'vitest';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn } from '../test-fixtures.ts';

/** Three months of an Amex-style export: two subscriptions, a one-off, a payment, one day with two identical charges. */
const STATEMENT = [
  'Date,Description,Amount',
  '09/03/2026,NETFLIX.COM 866-579-7172 CA,15.49',
  '10/03/2026,NETFLIX.COM 866-579-7172 CA,15.49',
  '09/12/2026,"FIGMA, INC.",45.00',
  '10/12/2026,"FIGMA, INC.",45.00',
  '10/12/2026,"FIGMA, INC.",45.00',
  '10/20/2026,BLUE BOTTLE COFFEE #12,6.50',
  '10/25/2026,AUTOPAY PAYMENT - THANK YOU,-250.00',
].join('\n');
/** The next month, overlapping October: only November's charges are new. */
const NEXT = ['Date,Description,Amount', '10/03/2026,NETFLIX.COM 866-579-7172 CA,15.49', '11/03/2026,NETFLIX.COM 866-579-7172 CA,17.99'].join('\n');

describe.each(await testDatabases())('switching vendors from another card on %s', (kind) => {
  const t = useTestApp(kind, { now: () => Date.UTC(2026, 11, 1) });
  const upload = (token: string, csv: string, query = 'file_name=amex.csv') =>
    request(t.app, 'POST', `/v1/auth/switching/statements?${query}`, { token, rawBody: csv, headers: { 'content-type': 'text/csv' } });

  it('reads a statement into recurring vendors, counts overlapping charges once, and refuses non-admins', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const admin = await signIn(t.app, f.email('admin'));
    const first = await upload(admin, STATEMENT);
    expect(first.status, first.text).toBe(201);
    expect(first.body.import).toMatchObject({ file_name: 'amex.csv', currency: 'USD', charges: 6, duplicates: 0, credits: 1, unreadable: 0, problems: [] });
    const names = first.body.overview.data.map((v: { name: string }) => v.name);
    // The coffee was bought once: not a vendor to move.
    expect(names).toEqual(['Figma Inc.', 'Netflix.com']);
    expect(first.body.overview.data[0]).toMatchObject({
      charges: 3, months: 2, cadence: 'MONTHLY', total: 13500, last_amount: 4500, largest_amount: 4500,
      first_charged_on: '2026-09-12', last_charged_on: '2026-10-12', suggested_limit: { amount: 5000, interval: 'MONTHLY' }, card: null,
    });
    const again = await upload(admin, NEXT, 'file_name=nov.csv');
    expect(again.body.import).toMatchObject({ charges: 2, duplicates: 1 });
    const netflix = again.body.overview.data.find((v: { name: string }) => v.name === 'Netflix.com');
    expect(netflix).toMatchObject({ charges: 3, months: 3, total: 4897, last_amount: 1799, suggested_limit: { amount: 2000, interval: 'MONTHLY' } });
    const list = await request(t.app, 'GET', '/v1/auth/switching/vendors', { token: admin });
    expect(list.body.imports.map((i: { file_name: string }) => i.file_name)).toEqual(['nov.csv', 'amex.csv']);

    for (const role of ['employee', 'bookkeeper', 'manager'] as const) {
      const token = await signIn(t.app, f.email(role));
      expect((await request(t.app, 'GET', '/v1/auth/switching/vendors', { token })).status).toBe(403);
      expect((await upload(token, STATEMENT)).status).toBe(403);
    }
  });

  it('answers SWITCHING_7002 for a file that is no card statement, keeping nothing', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const admin = await signIn(t.app, f.email('owner'));
    const people = await upload(admin, 'Name,Email\nAda,ada@example.com');
    expect(people.status).toBe(422);
    expect(people.body.error_v2).toMatchObject({ error_code: 'SWITCHING_7002', message: expect.stringContaining('date, a description and an amount') });
    const binary = await request(t.app, 'POST', '/v1/auth/switching/statements', { token: admin, rawBody: '\u00ff', headers: { 'content-type': 'text/csv' } });
    expect(binary.status).toBe(422);
    const bad = await upload(admin, 'Date,Description,Amount\nsoon,A,1\n10/01/2026,B,2');
    expect(bad.body.error_v2.message).toContain('Row 2: "soon" is not a date.');
    expect((await upload(admin, STATEMENT, 'currency=XYZ')).status).toBe(422);
    const rows = await t.db.query('SELECT 1 FROM switching_imports WHERE business_id = $1', [f.businessId]);
    expect(rows).toHaveLength(0);
  });

  it('moves a vendor onto one virtual card, exactly once, and removes another for good', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const admin = await signIn(t.app, f.email('admin'));
    const vendors = (await upload(admin, STATEMENT)).body.overview.data as { id: string; name: string }[];
    const figma = vendors.find((v) => v.name === 'Figma Inc.')!;
    const body = { user_id: f.users.manager, limit: { amount: 5000, interval: 'MONTHLY' } };
    const moved = await request(t.app, 'POST', `/v1/auth/switching/vendors/${figma.id}/card`, { token: admin, body });
    expect(moved.status, moved.text).toBe(201);
    expect(moved.body).toMatchObject({ created: true, card: { display_name: 'Figma Inc.', user_id: f.users.manager, is_physical: false, limit: { amount: 5000, currency: 'USD', interval: 'MONTHLY' } } });
    expect(moved.body.vendor.card).toMatchObject({ id: moved.body.card.id, display_name: 'Figma Inc.' });
    const repeat = await request(t.app, 'POST', `/v1/auth/switching/vendors/${figma.id}/card`, { token: admin, body: { ...body, limit: { amount: 9900, interval: 'YEARLY' } } });
    expect(repeat.status).toBe(200);
    expect(repeat.body).toMatchObject({ created: false, card: { id: moved.body.card.id } });
    const cards = await t.db.query('SELECT 1 FROM cards WHERE business_id = $1 AND display_name = $2', [f.businessId, 'Figma Inc.']);
    expect(cards).toHaveLength(1);
    expect((await request(t.app, 'POST', `/v1/auth/switching/vendors/${figma.id}/card`, { token: admin, body: { ...body, extra: 1 } })).status).toBe(422);

    const netflix = vendors.find((v) => v.name === 'Netflix.com')!;
    expect((await request(t.app, 'DELETE', `/v1/auth/switching/vendors/${netflix.id}`, { token: admin })).body).toEqual({ deleted: true });
    expect((await request(t.app, 'DELETE', `/v1/auth/switching/vendors/${netflix.id}`, { token: admin })).status).toBe(404);
    const after = await upload(admin, NEXT);
    expect(after.body.overview.data.map((v: { name: string }) => v.name)).toEqual(['Figma Inc.']);
  });

  it('answers 404 for another business’s vendor, and refuses a cardholder from elsewhere', async () => {
    const a = await makeBusiness(t.db, { transactions: 0 });
    const b = await makeBusiness(t.db, { transactions: 0 });
    const adminA = await signIn(t.app, a.email('admin'));
    const adminB = await signIn(t.app, b.email('admin'));
    const vendor = (await upload(adminA, STATEMENT)).body.overview.data[0].id as string;
    const body = { user_id: b.users.employee, limit: { amount: 5000, interval: 'MONTHLY' } };
    expect((await request(t.app, 'POST', `/v1/auth/switching/vendors/${vendor}/card`, { token: adminB, body: { ...body, user_id: b.users.employee } })).status).toBe(404);
    expect((await request(t.app, 'DELETE', `/v1/auth/switching/vendors/${vendor}`, { token: adminB })).status).toBe(404);
    expect((await request(t.app, 'GET', '/v1/auth/switching/vendors', { token: adminB })).body.data).toEqual([]);
    const elsewhere = await request(t.app, 'POST', `/v1/auth/switching/vendors/${vendor}/card`, { token: adminA, body });
    expect([elsewhere.status, elsewhere.body.error_v2.error_code]).toEqual([404, 'REQUEST_7004']);
    const stillWaiting = await request(t.app, 'GET', '/v1/auth/switching/vendors', { token: adminA });
    expect(stillWaiting.body.data[0].card).toBeNull();
  });
});
