import { randomUUID } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { parse as parseCsv } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { exportHeader } from '../../schema/exports.ts';
import { toMinorUnits } from '../../schema/money.ts';
import { REPORT_COLLECTIONS } from '../../schema/reports.ts';
import { seedReportRows, type ReportFixture } from '../domain/reporting/report-fixture.ts';
import { useTestApp } from '../test-app.ts';
import { expectFileHeaders } from '../http/file-headers-test-kit.ts';
import { testDatabases } from '../test-db.ts';
import { makeBusiness, request, signIn, type Fixture } from '../test-fixtures.ts';

/**
 * Server CSV exports (issue 12): the file is a CSV attachment with schema/exports.ts's columns,
 * read back by an independent reader (csv-parse; the exporter writes with papaparse) and re-totalled; it holds the caller's visible
 * rows only, across keyset pages; formula-like text is neutralised; bad filters are 422.
 */
const TX = '/v1/auth/transactions/export_as_file';
const ANY = '/v1/auth/reporting/export-as-file';

function parse(text: string): { header: string[]; rows: Record<string, string>[] } {
  const [header, ...lines] = parseCsv(text, { skip_empty_lines: true }) as string[][];
  return { header: header!, rows: lines.map((l) => Object.fromEntries(header!.map((h, i) => [h, l[i]!]))) };
}

describe.each(await testDatabases())('CSV exports on %s', (kind) => {
  const t = useTestApp(kind);
  let a: Fixture;
  let seeded: ReportFixture;
  let admin: string;
  let employee: string;
  const evil = randomUUID();

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 2100 });
    seeded = await seedReportRows(t.db, a, { transactions: 40 });
    await t.db.query(
      `WITH bump AS (UPDATE businesses SET change_seq = change_seq + 1 WHERE id = $1 RETURNING change_seq)
       INSERT INTO transactions (id, business_id, card_id, user_id, merchant_name, merchant_category, amount, currency, occurred_at, state, memo, change_seq)
       SELECT $2, $1, $3, $4, '=HYPERLINK("http://evil.test")', '+cmd', -1999, 'USD', '2026-02-01T10:00:00Z', 'CLEARED', $5, change_seq FROM bump`,
      [a.businessId, evil, a.cards.employee, a.users.employee, 'Lunch, "client"\nsecond line'],
    );
    admin = await signIn(t.app, a.email('admin'));
    employee = await signIn(t.app, a.email('employee'));
  });

  it("answers every visible transaction as a CSV attachment, across pages, re-totalling to the table's sums", async () => {
    const res = await request(t.app, 'POST', TX, { token: admin, body: {} });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expectFileHeaders(res.headers, /^attachment; filename="transactions-\d{4}-\d{2}-\d{2}\.csv"$/);
    const { header, rows } = parse(res.text);
    expect(header).toEqual(exportHeader('transactions'));
    const sums = await t.db.query<{ currency: string; n: number; total: string }>(
      `SELECT currency, count(*)::int AS n, sum(amount)::text AS total FROM transactions WHERE business_id = $1 AND NOT deleted GROUP BY currency`,
      [a.businessId]);
    expect(rows.length).toBe(sums.reduce((s, r) => s + r.n, 0));
    expect(rows.length).toBeGreaterThan(2000);
    expect(new Set(rows.map((r) => r['Transaction ID'])).size).toBe(rows.length);
    for (const { currency, total } of sums) {
      const mine = rows.filter((r) => r.Currency === currency).reduce((s, r) => s + toMinorUnits(r.Amount!, currency)!, 0);
      expect(mine, currency).toBe(Number(total));
    }
    // Newest first, the list's default order.
    const dates = rows.map((r) => r.Date!);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it('compresses the stream when the client accepts it (brotli or gzip), to the same file', async () => {
    const plain = await request(t.app, 'POST', ANY, { token: admin, body: { collection: 'transactions' } });
    for (const [accept, decode] of [['br', brotliDecompressSync], ['gzip', gunzipSync]] as const) {
      const res = await t.app.request(ANY, {
        method: 'POST', body: JSON.stringify({ collection: 'transactions' }),
        headers: { 'RAMP-ID-TOKEN': admin, 'content-type': 'application/json', 'accept-encoding': accept },
      });
      expect([res.status, res.headers.get('content-encoding')]).toEqual([200, accept]);
      const text = decode(Buffer.from(await res.arrayBuffer())).toString('utf8');
      expect(text).toBe(plain.text);
    }
  });

  it('neutralises formula-like cells and keeps commas, quotes and line breaks intact', async () => {
    const res = await request(t.app, 'POST', TX, { token: admin, body: { filters: { amount_max: -1999, amount_min: -1999 } } });
    const { rows } = parse(res.text);
    const row = rows.find((r) => r['Transaction ID'] === evil)!;
    expect(row).toMatchObject({
      Merchant: `'=HYPERLINK("http://evil.test")`, 'Merchant category': "'+cmd", Amount: '-19.99', Memo: 'Lunch, "client"\nsecond line',
    });
    expect(row.Merchant!.startsWith("'")).toBe(true);
  });

  it("gives an employee their own rows only, with the caller's filter and sort", async () => {
    const res = await request(t.app, 'POST', TX, { token: employee, body: { filters: { states: ['CLEARED'] }, sort: 'amount_desc' } });
    expect(res.status).toBe(200);
    const { rows } = parse(res.text);
    const [own] = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM transactions WHERE user_id = $1 AND state = 'CLEARED' AND NOT deleted`, [a.users.employee]);
    expect(rows.length).toBe(own!.n);
    expect(new Set(rows.map((r) => r.Cardholder))).toEqual(new Set(['Employee ' + (await lastName(a.users.employee))]));
    const amounts = rows.map((r) => toMinorUnits(r.Amount!, r.Currency!)!);
    // amount_desc sorts by minor units, whatever the currency.
    expect(amounts).toEqual([...amounts].sort((x, y) => y - x));
  });

  async function lastName(userId: string) {
    const [u] = await t.db.query<{ last_name: string }>('SELECT last_name FROM spend_users WHERE id = $1', [userId]);
    return u!.last_name;
  }

  it('exports every table by its filter, each with its own columns and the visible rows', async () => {
    for (const collection of REPORT_COLLECTIONS) {
      const res = await request(t.app, 'POST', ANY, { token: admin, body: { collection } });
      expect(res.status, `${collection} ${res.text.slice(0, 200)}`).toBe(200);
      expect(res.headers.get('content-disposition')).toContain(`filename="${collection}-`);
      const { header, rows } = parse(res.text);
      expect(header).toEqual(exportHeader(collection));
      const table = collection === 'transactions' ? 'transactions' : collection;
      const [n] = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE business_id = $1 AND NOT deleted`, [a.businessId]);
      expect(rows.length, collection).toBe(n!.n);
    }
    const bills = parse((await request(t.app, 'POST', ANY, { token: admin, body: { collection: 'bills', filters: { vendor_ids: [seeded.vendors[0]] } } })).text);
    const [vendorBills] = await t.db.query<{ n: number; name: string }>(
      'SELECT count(*)::int AS n, min(v.name) AS name FROM bills b JOIN vendors v ON v.id = b.vendor_id WHERE b.vendor_id = $1', [seeded.vendors[0]]);
    expect(bills.rows.length).toBe(vendorBills!.n);
    expect(new Set(bills.rows.map((r) => r.Vendor))).toEqual(new Set([vendorBills!.name]));
    // The employee's claims and cards are their own; their bills those they created.
    for (const [collection, column] of [['reimbursements', 'Employee'], ['cards', 'Cardholder']] as const) {
      const { rows } = parse((await request(t.app, 'POST', ANY, { token: employee, body: { collection } })).text);
      expect(rows.length, collection).toBeGreaterThan(0);
      expect(new Set(rows.map((r) => r[column])), collection).toEqual(new Set([`Employee ${await lastName(a.users.employee)}`]));
    }
    const [created] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM bills WHERE created_by = $1', [a.users.employee]);
    expect(parse((await request(t.app, 'POST', ANY, { token: employee, body: { collection: 'bills' } })).text).rows.length).toBe(created!.n);
  });

  it('refuses bad input with a catalogue error before any byte, and ignores an Idempotency-Key', async () => {
    const bad: [string, unknown][] = [
      [ANY, { collection: 'vendors' }], [ANY, { collection: 'bills', filters: { statuses: ['LOST'] } }],
      [ANY, { collection: 'cards', filters: { colour: 'red' } }], [ANY, {}], [TX, { filters: { states: ['NOPE'] } }],
      [TX, { sort: 'random' }], [TX, { filters: { amount_min: 'x' } }], [TX, { extra: true }],
    ];
    for (const [path, body] of bad) {
      const res = await request(t.app, 'POST', path, { token: admin, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect((res.body as { error_v2: { error_code: string } }).error_v2.error_code).toBe('REQUEST_7001');
    }
    const keyed = await request(t.app, 'POST', ANY, { token: admin, body: { collection: 'cards' }, headers: { 'Idempotency-Key': 'export-1' } });
    expect(keyed.status).toBe(200);
    expect(parse(keyed.text).header).toEqual(exportHeader('cards'));
  });
});
