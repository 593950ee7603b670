import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { syncCommitSchema } from '../../schema/api/calls-accounting.ts';
import { expectFileHeaders } from '../http/file-headers-test-kit.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn, type Fixture } from '../test-fixtures.ts';
import { readCsv, runsAsFormula } from '../../schema/testing/csv-reader.ts';

/**
 * Issue 24 item 8: the formula matrix through every export route. Text that starts, after any
 * leading whitespace (ASCII, no-break, ideographic), with = + - @ (ASCII or full-width), a tab or
 * a carriage return is seeded in every text field the exports write (memo, merchant, merchant
 * category, payee, vendor name, invoice number, line description, card name, GL account name,
 * IIF account). Each file is read back with the readers below, written for this test (an RFC 4180
 * reader and a tab-split IIF reader over a Windows-1252 decode), not the exporter's papaparse:
 * every text cell that would run as a formula begins with `'`, and amounts are plain numbers.
 */

const TRIGGERS = ['=', '+', '-', '@', '\t', '\r', '\uff1d', '\uff0b', '\uff0d', '\uff20'];
const LEADS = ['', ' ', '   ', '\u3000', '\u00a0 ', ' \u3000'];
/** Every trigger behind every lead, and text that looks like a number (text is text). */
const MATRIX = [...LEADS.flatMap((lead) => TRIGGERS.map((t) => `${lead}${t}SUM(A1)`)), '-12.50', '+1', '\uff1d1+1'];
const N = MATRIX.length;
const at = (i: number) => MATRIX[i % N]!;
const NUMBER = /^-?\d+(\.\d+)?$/;

/** A CSV as header + row objects. */
function csvTable(text: string): { header: string[]; rows: Record<string, string>[] } {
  const [header, ...rest] = readCsv(text);
  for (const r of rest) expect(r.length, JSON.stringify(r)).toBe(header!.length);
  return { header: header!, rows: rest.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]!]))) };
}

/**
 * Every cell of a table: the number columns hold plain numbers (`negative`: at least one below
 * zero, unprefixed); every other cell is safe; each cell of a `seeded` column is `'` + the seeded text.
 */
function checkTable(label: string, text: string, numberColumns: string[], seeded: string[], negative = true) {
  const { header, rows } = csvTable(text);
  expect(rows.length, label).toBeGreaterThan(0);
  for (const c of [...numberColumns, ...seeded]) expect(header, label).toContain(c);
  for (const row of rows) {
    for (const [column, cell] of Object.entries(row)) {
      if (numberColumns.includes(column)) {
        if (cell !== '') expect(cell, `${label} ${column}`).toMatch(NUMBER);
      } else {
        expect(cell.startsWith("'") || !runsAsFormula(cell), `${label} ${column} ${JSON.stringify(cell)}`).toBe(true);
        if (seeded.includes(column)) expect(MATRIX.map((m) => `'${m}`), `${label} ${column}`).toContain(cell);
      }
    }
  }
  if (negative) expect(rows.some((r) => numberColumns.some((c) => r[c]!.startsWith('-'))), `${label}: a negative amount`).toBe(true);
  return rows;
}

/** What an accounting writer must make of seeded text: one line (controls → space, trimmed), then `'` if it would run. */
function oneLineSafe(text: string): string {
  const line = text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').replace(/ {2,}/g, ' ').trim();
  return runsAsFormula(line) ? `'${line}` : line;
}

describe.each(await testDatabases())('export formula matrix on %s', (kind) => {
  const clock = Date.parse('2026-11-27T04:00:00Z');
  const t = useTestApp(kind, { now: () => clock });
  let a: Fixture;
  let admin: string;
  const call = (method: string, path: string, body?: unknown) => request(t.app, method, path, { token: admin, ...(body !== undefined && { body }) });

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: N });
    admin = await signIn(t.app, a.email('admin'));
    const gl = a.glAccounts.active[0]!;
    await t.db.query(`UPDATE gl_accounts SET name = $2 WHERE id = $1`, [gl, '@Travel']);
    // Transactions: memo, merchant and category from the matrix; one refund (a negative amount).
    const txns = a.allTransactions;
    expect(txns.length).toBeGreaterThanOrEqual(N);
    for (const [i, id] of txns.entries()) {
      await t.db.query(
        `UPDATE transactions SET memo = $2, merchant_name = $3, merchant_category = $4, state = 'CLEARED', gl_account_id = $5,
                amount = CASE WHEN $6 THEN -1250 ELSE abs(amount) + 1 END WHERE id = $1`,
        [id, at(i), at(i + 1), at(i + 2), gl, i === 0],
      );
    }
    // Claims: merchant and memo; paid, and the payment settled, so a Xero bank statement carries them too.
    for (let i = 0; i < N; i++) {
      const id = randomUUID();
      await t.db.query(
        `WITH seq AS (UPDATE businesses SET change_seq = change_seq + 1 WHERE id = $2 RETURNING change_seq)
         INSERT INTO reimbursements (id, business_id, user_id, type, status, merchant, memo, amount, currency, transaction_date, gl_account_id, change_seq)
         SELECT $1, $2, $3, 'OUT_OF_POCKET', 'PAID', $4, $5, $6, 'USD', '2026-11-03', $7, change_seq FROM seq`,
        [id, a.businessId, a.users.employee, at(i), at(i + 3), 1000 + i, gl],
      );
      await t.db.query(
        `INSERT INTO ledger_entries (id, business_id, reimbursement_id, user_id, kind, method, amount, currency, created_by, created_at, settles_at)
         VALUES ($1, $2, $3, $4, 'PAYMENT', 'ACH', $5, 'USD', $6, '2026-11-10T12:00:00Z', '2026-11-13T12:00:00Z')`,
        [randomUUID(), a.businessId, id, a.users.employee, 1000 + i, a.users.admin],
      );
    }
    // Bills: vendor name, invoice number, memo and line description, one per trigger.
    for (let i = 0; i < TRIGGERS.length; i++) {
      const v = await call('POST', '/v1/auth/vendors', { name: `Vendor ${i}` });
      expect(v.status, v.text).toBe(201);
      const b = await call('POST', '/v1/auth/bill-pay', {
        vendor_id: v.body.id, invoice_number: `INV-${i}`, invoice_date: '2026-11-02', due_date: '2026-11-30', currency: 'USD',
        line_items: [{ description: 'Paper', amount: 6_000 + i, gl_account_id: gl }],
      });
      expect(b.status, b.text).toBe(200);
      const k = i * LEADS.length + (i % LEADS.length) * TRIGGERS.length;
      await t.db.query(`UPDATE vendors SET name = $2 WHERE id = $1`, [v.body.id, at(i + TRIGGERS.length * (i % LEADS.length))]);
      // Paid, the payment settled: on the bank account's Xero statement as well as in the ledgers.
      await t.db.query(`UPDATE bills SET status = 'PAID', invoice_number = $2, memo = $3 WHERE id = $1`, [b.body.id, at(k + 1), at(k + 2)]);
      await t.db.query(
        `INSERT INTO bill_payments (id, business_id, bill_id, attempt, payment_key, amount, currency, status, created_by, created_at, updated_at)
         VALUES ($1, $2, $3, 1, $4, $5, 'USD', 'SETTLED', $6, '2026-11-20T12:00:00Z', '2026-11-20T12:00:00Z')`,
        [randomUUID(), a.businessId, b.body.id, `test-${b.body.id}`, 6_000 + i, a.users.admin],
      );
      await t.db.query(`UPDATE bill_line_items SET description = $2 WHERE bill_id = $1`, [b.body.id, at(k + 3)]);
    }
    // Cards: their names.
    const cards = Object.values(a.cards);
    for (const [i, id] of cards.entries()) await t.db.query('UPDATE cards SET display_name = $2 WHERE id = $1', [id, at(i * 7)]);
  });

  it('transactions export_as_file', async () => {
    const res = await call('POST', '/v1/auth/transactions/export_as_file', {});
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expectFileHeaders(res.headers, /^attachment; filename="transactions-2026-11-27\.csv"$/);
    checkTable('transactions', res.text, ['Amount', 'Receipts'], ['Memo', 'Merchant', 'Merchant category']);
    // Text that looks like a number is text: the memo "-12.50" is neutralised, the amount -12.50 is not.
    const { rows } = csvTable(res.text);
    expect(rows.some((r) => r.Memo === "'-12.50")).toBe(true);
    expect(rows.some((r) => r.Amount === '-12.50')).toBe(true);
  });

  it.each([
    ['reimbursements', ['Amount', 'Distance (miles)'], ['Merchant', 'Memo']],
    ['bills', ['Amount'], ['Vendor', 'Invoice number', 'Memo']],
  ] as const)('reporting export-as-file: %s', async (collection, numbers, seeded) => {
    const res = await call('POST', '/v1/auth/reporting/export-as-file', { collection, filters: {} });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expectFileHeaders(res.headers, new RegExp(`^attachment; filename="${collection}-2026-11-27\\.csv"$`));
    // Claims and bills are never negative; the transactions export shows a negative amount stays a number.
    checkTable(collection, res.text, [...numbers], [...seeded], false);
  });

  it('reporting export-as-file: cards (names neutralised, limits numbers)', async () => {
    const res = await call('POST', '/v1/auth/reporting/export-as-file', { collection: 'cards', filters: {} });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    const rows = checkTable('cards', res.text, ['Limit'], ['Card'], false);
    expect(rows.length).toBe(Object.keys(a.cards).length);
  });

  /** Commits every syncable item to `provider` and answers its files' bodies; then marks them not synced. */
  async function commitFiles(provider: string): Promise<{ name: string; res: Response }[]> {
    expect((await call('POST', `/v1/auth/accounting/providers/${provider}/connect`, {})).status).toBe(200);
    const res = await call('POST', `/v1/auth/accounting/providers/${provider}/sync_commit`, {});
    expect(res.status, res.text).toBe(201);
    const commit = syncCommitSchema.parse(res.body);
    expect(commit.item_count).toBe(N * 2 + TRIGGERS.length);
    const files = [];
    for (const f of commit.files) files.push({ name: f.name, res: await t.app.request(f.url, { headers: { 'RAMP-ID-TOKEN': admin } }) });
    const items = [
      ...a.allTransactions.map((id) => ({ type: 'transaction', id })),
      ...(await t.db.query<{ id: string }>('SELECT id::text FROM reimbursements WHERE business_id = $1', [a.businessId])).map((r) => ({ type: 'reimbursement', id: r.id })),
      ...(await t.db.query<{ id: string }>('SELECT id::text FROM bills WHERE business_id = $1', [a.businessId])).map((r) => ({ type: 'bill', id: r.id })),
    ];
    const unsync = await call('POST', '/v1/auth/accounting/mark-not-synced', { items });
    expect(unsync.status, unsync.text).toBe(200);
    return files;
  }

  it('accounting CSV, Xero CSV and QuickBooks IIF', async () => {
    const seededTxn = new Map(a.allTransactions.map((id, i) => [id, { memo: at(i), payee: at(i + 1), category: at(i + 2) }]));
    const [csv] = await commitFiles('csv');
    expect(csv!.res.status).toBe(200);
    expectFileHeaders(csv!.res.headers, csv!.name);
    const general = checkTable('accounting csv', await csv!.res.text(), ['Amount', 'Line amount'], []);
    let seen = 0;
    for (const row of general) {
      const seed = seededTxn.get(row['Ledgerline ID']!);
      if (!seed) continue;
      seen++;
      expect([row.Payee, row.Memo, row['Line description'], row['GL account']]).toEqual([
        oneLineSafe(seed.payee), oneLineSafe(seed.memo), oneLineSafe(seed.category), "'@Travel",
      ]);
    }
    expect(seen).toBe(N);
    const bills = general.filter((r) => r.Type === 'Bill');
    expect(bills).toHaveLength(TRIGGERS.length);
    for (const r of bills) for (const c of ['Payee', 'Reference', 'Memo', 'Line description']) expect(MATRIX.map(oneLineSafe)).toContain(r[c]);

    const xero = await commitFiles('xero_csv');
    expect(xero.length).toBeGreaterThan(0);
    for (const f of xero) {
      expectFileHeaders(f.res.headers, f.name);
      const rows = checkTable(`xero ${f.name}`, await f.res.text(), ['Amount'], []);
      expect(rows.filter((r) => r.Payee!.startsWith("'")).length).toBeGreaterThan(0);
      expect(rows.filter((r) => r.Description!.startsWith("'")).length).toBeGreaterThan(0);
    }

    expect((await call('PATCH', '/v1/auth/accounting/preferences', { iif_card_account: '=Corporate Card', iif_ap_account: '+Payables' })).status).toBe(200);
    const [iif] = await commitFiles('quickbooks_desktop');
    expectFileHeaders(iif!.res.headers, iif!.name);
    // Windows-1252, tab-separated; the full-width triggers have no byte there and read as "?".
    const text = new TextDecoder('windows-1252').decode(await iif!.res.arrayBuffer());
    const lines = text.split('\r\n').filter(Boolean).map((l) => l.split('\t'));
    const header = lines.find((l) => l[0] === '!TRNS')!;
    const amount = header.indexOf('AMOUNT');
    const rows = lines.filter((l) => l[0] === 'TRNS' || l[0] === 'SPL');
    expect(rows.length).toBeGreaterThanOrEqual((N * 2 + TRIGGERS.length) * 2);
    let negatives = 0;
    const prefixed: Record<string, number> = {};
    for (const row of rows) {
      expect(row.length, row.join('|')).toBe(header.length);
      for (const [i, cell] of row.entries()) {
        if (i === 0) continue;
        if (i === amount) {
          expect(cell).toMatch(NUMBER);
          if (cell.startsWith('-')) negatives++;
          continue;
        }
        expect(cell.startsWith("'") || !runsAsFormula(cell), `IIF ${header[i]} ${JSON.stringify(cell)}`).toBe(true);
        if (cell.startsWith("'")) prefixed[header[i]!] = (prefixed[header[i]!] ?? 0) + 1;
      }
    }
    expect(negatives).toBeGreaterThan(0);
    // Payee, invoice number, memo and both account columns all carried neutralised text.
    for (const column of ['NAME', 'DOCNUM', 'MEMO', 'ACCNT']) expect(prefixed[column], column).toBeGreaterThan(0);
    expect(rows.filter((r) => r[0] === 'TRNS' && r[1] === 'CREDIT CARD').every((r) => r[header.indexOf('ACCNT')] === "'=Corporate Card")).toBe(true);
  });
});
