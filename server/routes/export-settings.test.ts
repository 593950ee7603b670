import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { exportSettingsSchema } from '../../schema/export-settings.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, refusal, request, signIn, type FixtureRole } from '../test-fixtures.ts';

/**
 * Issue 32: export table user-settings (per person and table, saved, used by the server's exports)
 * and the primary-cards export (admins, filtered by department, status and words). Every CSV is
 * read back with papaparse, never with the exporter's own code.
 */
const SETTINGS = '/v1/auth/export-settings';
const PRIMARY = '/v1/auth/primary-cards/export';

/** A CSV answer as rows of cells (BOM dropped), read by papaparse. */
const csvRows = (text: string): string[][] => Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;

describe.each(await testDatabases())('export settings and the primary-cards export on %s', async (kind) => {
  const t = useTestApp(kind);
  const roles: FixtureRole[] = ['owner', 'admin', 'bookkeeper', 'employee'];
  const setup = (async () => {
    const f = await makeBusiness(t.db, { transactions: 6 });
    const other = await makeBusiness(t.db, { transactions: 0 });
    const tokens = {} as Record<FixtureRole, string>;
    for (const role of roles) tokens[role] = await signIn(t.app, f.email(role));
    // Primary cards: the admin's (ACTIVE, 2,500.00 USD a month, Sales), the employee's (LOCKED);
    // the bookkeeper's card is not primary; another business's primary card must never show.
    await t.db.query(`UPDATE spend_users SET department_id = $2 WHERE id = $1`, [f.users.admin, f.departments[1]]);
    await t.db.query(`UPDATE cards SET is_primary = true, limit_amount = 250000, limit_currency = 'USD', limit_interval = 'MONTHLY' WHERE id = $1`, [f.cards.admin]);
    await t.db.query(`UPDATE cards SET is_primary = true, status = 'LOCKED', last_four = '9876' WHERE id = $1`, [f.cards.employee]);
    await t.db.query(`UPDATE cards SET is_primary = true WHERE id = $1`, [other.cards.admin]);
    return { f, tokens, otherAdmin: await signIn(t.app, other.email('admin')) };
  });
  let ctx: Awaited<ReturnType<typeof setup>> | undefined;
  const fixture = async () => (ctx ??= await setup());
  const call = async (method: string, path: string, role: FixtureRole, body?: unknown) =>
    request(t.app, method, path, { token: (await fixture()).tokens[role], body });

  it('answers every column by default, saves a choice per person and table, resets it', async () => {
    const first = await call('GET', `${SETTINGS}/transactions`, 'bookkeeper');
    expect(first.status, first.text).toBe(200);
    const defaults = exportSettingsSchema.parse(first.body);
    expect(defaults).toMatchObject({ table: 'transactions', customized: false, updated_at: null });
    expect(defaults.columns.slice(0, 3)).toEqual(['date', 'merchant', 'merchant_category']);
    expect(defaults.available).toContainEqual({ key: 'transaction_id', header: 'Transaction ID' });

    const saved = await call('PUT', `${SETTINGS}/transactions`, 'bookkeeper', { columns: ['amount', 'merchant', 'date'] });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({ columns: ['amount', 'merchant', 'date'], customized: true });
    expect((await call('GET', `${SETTINGS}/transactions`, 'bookkeeper')).body.columns).toEqual(['amount', 'merchant', 'date']);
    // Another person, and another table of the same person, keep the default.
    expect((await call('GET', `${SETTINGS}/transactions`, 'employee')).body.customized).toBe(false);
    expect((await call('GET', `${SETTINGS}/bills`, 'bookkeeper')).body.customized).toBe(false);

    const reset = await call('DELETE', `${SETTINGS}/transactions`, 'bookkeeper');
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ customized: false, columns: defaults.columns });
    expect(await t.db.query('SELECT 1 FROM export_settings WHERE table_name = $1', ['transactions'])).toHaveLength(0);
  });

  it('refuses an unknown table, an unknown or repeated column, an empty choice and unknown fields (422)', async () => {
    expect(refusal(await call('GET', `${SETTINGS}/people`, 'admin'))).toEqual([422, 'REQUEST_7001']);
    const unknown = await call('PUT', `${SETTINGS}/cards`, 'admin', { columns: ['card', 'pin'] });
    expect(refusal(unknown)).toEqual([422, 'REQUEST_7001']);
    expect(unknown.text).toContain('columns.1');
    expect(refusal(await call('PUT', `${SETTINGS}/cards`, 'admin', { columns: ['card', 'card'] }))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await call('PUT', `${SETTINGS}/cards`, 'admin', { columns: [] }))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await call('PUT', `${SETTINGS}/cards`, 'admin', { columns: ['card'], user_id: 'x' }))).toEqual([422, 'REQUEST_7001']);
    expect(await t.db.query('SELECT 1 FROM export_settings WHERE table_name = $1', ['cards'])).toHaveLength(0);
  });

  it("the server's table export writes the caller's columns in their order", async () => {
    await call('PUT', `${SETTINGS}/transactions`, 'admin', { columns: ['transaction_id', 'amount', 'currency'] });
    const res = await call('POST', '/v1/auth/transactions/export_as_file', 'admin', {});
    expect(res.status, res.text).toBe(200);
    const rows = csvRows(res.text);
    expect(rows[0]).toEqual(['Transaction ID', 'Amount', 'Currency']);
    const { f } = await fixture();
    expect(rows.slice(1).map((r) => r[0]).sort()).toEqual([...f.allTransactions].sort());
    expect(rows.slice(1).every((r) => r[2] === 'USD' && /^\d+\.\d{2}$/.test(r[1]!))).toBe(true);
    // Someone else's export is untouched by the admin's choice.
    const theirs = csvRows((await call('POST', '/v1/auth/reporting/export-as-file', 'owner', { collection: 'transactions' })).text);
    expect(theirs[0]!.length).toBeGreaterThan(3);
    await call('DELETE', `${SETTINGS}/transactions`, 'admin');
  });

  it('exports each primary card (admins), filtered by department, status and words, in the saved columns', async () => {
    const { f } = await fixture();
    const all = await call('GET', PRIMARY, 'admin');
    expect(all.status, all.text).toBe(200);
    expect(all.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(all.headers.get('content-disposition')).toMatch(/attachment; filename="primary-cards-\d{4}-\d{2}-\d{2}\.csv"/);
    const rows = csvRows(all.text);
    const header = rows[0]!;
    expect(header).toEqual(['Cardholder', 'Email', 'Department', 'Location', 'Card', 'Last four', 'Type', 'Status', 'Limit', 'Currency', 'Interval', 'Expires', 'Card ID']);
    const byId = new Map(rows.slice(1).map((r) => [r[12], Object.fromEntries(header.map((h, i) => [h, r[i]]))]));
    expect([...byId.keys()].sort()).toEqual([f.cards.admin, f.cards.employee].sort());
    expect(byId.get(f.cards.admin)).toMatchObject({
      Cardholder: expect.stringMatching(/^Admin Fixture/), Email: f.email('admin'), Department: 'Sales', Status: 'ACTIVE',
      Limit: '2500.00', Currency: 'USD', Interval: 'MONTHLY', 'Last four': '4242',
    });
    expect(byId.get(f.cards.employee)).toMatchObject({ Status: 'LOCKED', 'Last four': '9876', Department: 'Engineering' });

    const ids = async (query: string) => csvRows((await call('GET', `${PRIMARY}?${query}`, 'admin')).text).slice(1).map((r) => r[12]);
    expect(await ids(`department_id=${f.departments[1]}`)).toEqual([f.cards.admin]);
    expect(await ids('status=LOCKED')).toEqual([f.cards.employee]);
    expect(await ids('q=9876')).toEqual([f.cards.employee]);
    expect(await ids(`q=${encodeURIComponent('admin fixture')}`)).toEqual([f.cards.admin]);
    expect(await ids('q=nobody')).toEqual([]);

    await call('PUT', `${SETTINGS}/primary_cards`, 'admin', { columns: ['last_four', 'cardholder'] });
    const picked = csvRows((await call('GET', `${PRIMARY}?status=LOCKED`, 'admin')).text);
    expect(picked).toEqual([['Last four', 'Cardholder'], ['9876', expect.stringMatching(/^Employee Fixture/)]]);
  });

  it('refuses people who are not owners or admins (403) and a bad query (422); another business sees only its own', async () => {
    expect(refusal(await call('GET', PRIMARY, 'bookkeeper'))).toEqual([403, 'FORBIDDEN_7003']);
    expect(refusal(await call('GET', PRIMARY, 'employee'))).toEqual([403, 'FORBIDDEN_7003']);
    expect(refusal(await call('GET', `${PRIMARY}?status=LOST`, 'admin'))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await call('GET', `${PRIMARY}?department_id=nope`, 'admin'))).toEqual([422, 'REQUEST_7001']);
    const { f, otherAdmin } = await fixture();
    const theirs = await request(t.app, 'GET', PRIMARY, { token: otherAdmin });
    const rows = csvRows(theirs.text).slice(1);
    expect(rows).toHaveLength(1);
    expect(rows.flat()).not.toContain(f.cards.admin);
    // Their department filter with our department's id matches nothing.
    expect(csvRows((await request(t.app, 'GET', `${PRIMARY}?department_id=${f.departments[1]}`, { token: otherAdmin })).text)).toHaveLength(1);
  });
});
