import { describe, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import Papa from 'papaparse';
import { exportHeader } from '../../schema/exports.ts';
import { aggregateReport } from '../../schema/reports.ts';
import { matchesTransactionFilter } from '../../schema/transaction-query.ts';
import { readCsv, runsAsFormula } from '../../schema/testing/csv-reader.ts';
import { makeGlAccount, makeTransactions, seedMirrorDb, signedInAdmin } from '../test-fixtures.ts';
import { signInOnly, startWorker } from '../testing/signed-in-worker.ts';

const { user: USER, dbName: DB_NAME } = signedInAdmin();

/** Sign-in only: the sync engine is off, so the report reads what the mirror already holds. */
const transport = signInOnly(['default', 'low-risk']);

/** Memos and merchants a spreadsheet would run: ASCII and full-width triggers behind ASCII and ideographic spaces. */
const FORMULAS = ['=1+1', ' +cmd', '\u3000-2+3', '@SUM(A1)', '\tx', '\r=1', '\uff1d1+1', '  \uff0bx', '\u3000\uff0d1', '\uff20A1', '-12.50'];

async function signedIn() {
  const idb = new IDBFactory();
  const txns = makeTransactions(400, 7).map((t, i) => (i < FORMULAS.length * 2
    ? { ...t, memo: FORMULAS[i % FORMULAS.length]!, merchant_name: FORMULAS[(i + 3) % FORMULAS.length]!, state: 'CLEARED' as const }
    : t));
  const rows = await seedMirrorDb(idb, DB_NAME, txns, 'Meals');
  const service = await startWorker({ transport, idb });
  await service.signIn(USER.email, 'demo-password-1');
  // As mirrored: seedMirrorDb stores every row uncoded.
  return { service, rows: rows.map((t) => ({ ...t, gl_account_id: null })) };
}

describe('ReportApi (the mirror, fake-indexeddb)', () => {
  it('answers the schema aggregation over the rows its table filter matches', async () => {
    const { service, rows } = await signedIn();
    const filters = { states: ['CLEARED' as const] };
    const query = { collection: 'transactions' as const, time_grain: 'month' as const, dimension: 'department' as const, measure: 'sum' as const, filters };
    const answer = await service.report(query);
    const matched = rows.filter((t) => matchesTransactionFilter(t, filters));
    expect(answer.scanned).toBe(matched.length);
    expect(answer.rows).toEqual(aggregateReport(matched, query));
    expect(answer.rows.length).toBeGreaterThan(3);
    // Every group's sum is that of its rows.
    const total = answer.rows.reduce((s, r) => s + r.value, 0);
    expect(total).toBe(matched.filter((t) => t.occurred_at.slice(0, 10) <= new Date().toISOString().slice(0, 10)).reduce((s, t) => s + t.amount, 0));
  });

  it('includes edits not yet synced: a bulk coding moves rows to their GL account at once', async () => {
    const { service, rows } = await signedIn();
    const query = { collection: 'transactions' as const, time_grain: 'span' as const, dimension: 'gl_account' as const, measure: 'count' as const };
    const before = await service.report(query);
    expect(before.rows.map((r) => r.key)).toEqual([null]);
    const gl = makeGlAccount(1, 'Meals');
    const spend = rows.filter((t) => t.state === 'CLEARED' || t.state === 'PENDING').slice(0, 25);
    expect(await service.codeTransactions(spend.map((t) => t.id), { gl_account_id: gl.id })).toMatchObject({ ok: true });
    const after = await service.report(query);
    expect(after.rows.map((r) => [r.key, r.value])).toEqual([
      [gl.id, 25],
      [null, before.rows[0]!.value - 25],
    ]);
  });

  it('refuses a query the schema refuses, saying why', async () => {
    const { service } = await signedIn();
    await expect(service.report({ collection: 'transactions', time_grain: 'month', dimension: 'vendor', measure: 'sum' })).rejects.toThrow(
      /dimension: transactions cannot be grouped by vendor/,
    );
  });
});

describe('ExportApi (the mirror, fake-indexeddb)', () => {
  it('writes the table’s filter in its order as CSV, the shared columns, reporting progress to the end', async () => {
    const { service, rows } = await signedIn();
    const filters = { states: ['CLEARED' as const] };
    const progress: [number, number][] = [];
    const answer = await service.exportCsv('transactions', filters, 'amount_desc', (done, total) => void progress.push([done, total]));
    if (!answer.ok) throw new Error(answer.message);
    const matched = rows.filter((t) => matchesTransactionFilter(t, filters)).sort((a, b) => b.amount - a.amount || (a.id < b.id ? 1 : -1));
    expect(answer.rows).toBe(matched.length);
    expect(answer.name).toMatch(/^transactions-\d{4}-\d{2}-\d{2}\.csv$/);
    // A UTF-8 byte-order mark first (Excel), which text() decodes away.
    expect([...new Uint8Array(await answer.file.arrayBuffer()).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const parsed = Papa.parse<string[]>(await answer.file.text(), { skipEmptyLines: true });
    expect(parsed.data[0]).toEqual(exportHeader('transactions'));
    const idColumn = exportHeader('transactions').indexOf('Transaction ID');
    expect(idColumn).toBeGreaterThanOrEqual(0);
    expect(parsed.data.slice(1).map((r) => r[idColumn])).toEqual(matched.map((t) => t.id));
    expect(progress.at(-1)).toEqual([matched.length, matched.length]);
  });

  it('writes the CSV on the device with every formula-like text cell neutralised and amounts as numbers', async () => {
    const { service } = await signedIn();
    const answer = await service.exportCsv('transactions', { states: ['CLEARED'] }, 'amount_desc', () => undefined);
    if (!answer.ok) throw new Error(answer.message);
    const [header, ...records] = readCsv(await answer.file.text());
    const col = (name: string) => header!.indexOf(name);
    let seeded = 0;
    for (const r of records) {
      expect(r[col('Amount')]).toMatch(/^-?\d+(\.\d+)?$/);
      for (const [i, cell] of r.entries()) {
        if (i === col('Amount') || i === col('Receipts')) continue;
        expect(cell.startsWith("'") || !runsAsFormula(cell), `${header![i]} ${JSON.stringify(cell)}`).toBe(true);
      }
      for (const name of ['Memo', 'Merchant']) {
        const cell = r[col(name)]!;
        if (FORMULAS.includes(cell.slice(1))) {
          expect(cell.startsWith("'")).toBe(true);
          seeded++;
        }
      }
    }
    expect(seeded).toBe(FORMULAS.length * 2 * 2);
  });
});
