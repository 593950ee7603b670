import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { minorToDecimal, toMinorUnits } from '../../../schema/money.ts';
import type { ExportItem, ExportLine } from './export-item.ts';
import {
  CSV_COLUMNS, exportFiles, IIF_HEADER, iifAccountName, writeGenericCsv, writeIif, writeIifFiles, writeXeroCsv, XERO_COLUMNS,
} from './file-writers.ts';

/**
 * The writers, pure. Every file is read back with readers that are not the exporter's: csv-parse
 * (a registry CSV parser; the writers use papaparse) and the IIF reader below.
 */

const ACCOUNTS = { iif_card_account: 'Amex Corporate', iif_ap_account: 'Accounts Payable', iif_reimbursement_account: 'Reimbursements Payable' };
const SETTINGS = { ...ACCOUNTS, home_currency: 'USD' };

const line = (amount: number, over: Partial<ExportLine> = {}): ExportLine => ({
  amount, account_code: '6000', account_name: 'Travel', department: 'Sales', location: null, tracking: 'Project: Apollo', description: null, ...over,
});
/** An item whose lines sum to its amount (the writers refuse anything else); money moved on its date unless told. */
function item(over: Partial<ExportItem> & { lines?: ExportLine[] } = {}): ExportItem {
  const lines = over.lines ?? [line(over.amount ?? 12_345)];
  const date = over.date ?? '2026-03-07';
  return {
    type: 'transaction', id: '00000000-0000-4000-8000-000000000001', payee: 'Delta Air Lines',
    memo: null, reference: null, currency: 'USD', paid_on: date, ...over, date, amount: lines.reduce((s, l) => s + l.amount, 0), lines,
  };
}

/** CSV text → header-keyed records, by csv-parse (strict: every row as wide as the header). */
const readCsv = (text: string): Record<string, string>[] => parse(text, { columns: true, skip_empty_lines: true, relax_column_count: false });
const csvHeader = (text: string): string[] => (parse(text, { to_line: 1 }) as string[][])[0]!;

/** An independent IIF reader: the header rows, then TRNS + SPL blocks closed by ENDTRNS, amounts back to minor units. */
function iifBlocks(text: string, currency = 'USD') {
  const rows = text.split('\r\n').filter((r) => r !== '').map((r) => r.split('\t'));
  const header = rows.slice(0, 3);
  const amount = header[0]!.indexOf('AMOUNT');
  const blocks: { rows: string[][]; total: number }[] = [];
  let current: string[][] | null = null;
  for (const row of rows.slice(3)) {
    if (row[0] === 'TRNS') {
      expect(current).toBeNull();
      current = [row];
    } else if (row[0] === 'SPL') current!.push(row);
    else if (row[0] === 'ENDTRNS') {
      blocks.push({ rows: current!, total: current!.reduce((s, r) => s + toMinorUnits(r[amount]!, currency)!, 0) });
      current = null;
    } else throw new Error(`unexpected IIF row ${row.join('|')}`);
  }
  expect(current).toBeNull();
  return { header, blocks };
}

describe('minorToDecimal', () => {
  it.each([
    [0, 'USD', '0.00'], [5, 'USD', '0.05'], [-1230, 'USD', '-12.30'], [123456789, 'USD', '1234567.89'],
    [500, 'JPY', '500'], [-7, 'JPY', '-7'], [1234, 'BHD', '1.234'], [-1, 'KWD', '-0.001'],
  ])('%i %s → %s, and back', (minor, currency, text) => {
    expect(minorToDecimal(minor, currency)).toBe(text);
    expect(toMinorUnits(text, currency)).toBe(minor);
  });
});

describe('generic CSV', () => {
  it('parses back with every line and re-totals to the items', () => {
    const items = [
      item({ amount: 4_500 }),
      item({ type: 'bill', id: '00000000-0000-4000-8000-000000000002', payee: 'Acme, "Ltd"', reference: 'INV-7', paid_on: null,
        lines: [line(10_000, { account_name: 'Rent' }), line(-2_000, { description: 'Credit note' })] }),
      item({ type: 'reimbursement', currency: 'JPY', amount: 3_000, lines: [line(3_000)] }),
    ];
    const text = writeGenericCsv(items);
    expect(csvHeader(text)).toEqual([...CSV_COLUMNS]);
    const rows = readCsv(text);
    expect(rows).toHaveLength(4);
    const total = (c: string) => rows.filter((r) => r.Currency === c).reduce((s, r) => s + toMinorUnits(r['Line amount']!, c)!, 0);
    expect(total('USD')).toBe(4_500 + 8_000);
    expect(total('JPY')).toBe(3_000);
    expect(rows[1]).toMatchObject({ Type: 'Bill', Payee: 'Acme, "Ltd"', Amount: '80.00', 'Line amount': '100.00', 'GL account': 'Rent' });
    expect(rows[2]!['Line amount']).toBe('-20.00');
  });

  it('defuses spreadsheet formulas but keeps negative amounts numeric', () => {
    const [row] = readCsv(writeGenericCsv([item({ payee: '=HYPERLINK("http://x")', memo: '-cmd|calc', lines: [line(-250)] })]));
    expect(row!.Payee).toBe(`'=HYPERLINK("http://x")`);
    expect(row!.Memo).toBe(`'-cmd|calc`);
    expect(row!.Amount).toBe('-2.50');
  });

  it('refuses an item whose lines do not add up', () => {
    expect(() => writeGenericCsv([{ ...item(), amount: 1 }])).toThrow(/lines sum/);
  });
});

describe('QuickBooks Desktop IIF', () => {
  it('writes the header rows and one balanced TRNS/SPL/ENDTRNS block per item', () => {
    const items = [
      item({ amount: 12_345 }),
      item({ amount: -999, memo: 'Refund' }),
      item({ type: 'bill', payee: 'Acme', reference: 'INV-1', paid_on: null, lines: [line(7_001), line(2_999, { account_name: 'Software' }), line(-1_000)] }),
      item({ type: 'reimbursement', payee: 'Ann Lee', lines: [line(4_200, { account_name: 'Meals' })] }),
    ];
    const { header, blocks } = iifBlocks(writeIif(items, ACCOUNTS, 'USD', 'USD'));
    expect(header).toEqual(IIF_HEADER.map((r) => [...r]));
    expect(blocks).toHaveLength(4);
    for (const b of blocks) expect(b.total).toBe(0);
    const [card, refund, bill, claim] = blocks;
    expect(card!.rows[0]).toEqual(['TRNS', 'CREDIT CARD', '03/07/2026', 'Amex Corporate', 'Delta Air Lines', '-123.45', '', 'Delta Air Lines']);
    expect(card!.rows[1]!.slice(0, 6)).toEqual(['SPL', 'CREDIT CARD', '03/07/2026', 'Travel', 'Delta Air Lines', '123.45']);
    expect(refund!.rows[0]!.slice(1, 2).concat(refund!.rows[0]![5]!)).toEqual(['CCARD REFUND', '9.99']);
    expect(bill!.rows[0]!.slice(1, 7)).toEqual(['BILL', '03/07/2026', 'Accounts Payable', 'Acme', '-90.00', 'INV-1']);
    expect(bill!.rows.slice(1).map((r) => r[5])).toEqual(['70.01', '29.99', '-10.00']);
    expect(claim!.rows[0]!.slice(1, 4)).toEqual(['GENERAL JOURNAL', '03/07/2026', 'Reimbursements Payable']);
  });

  it('writes one file per currency, each balanced, with the balance-sheet accounts of that currency', () => {
    const items = [
      item({ amount: 1_000 }),
      item({ currency: 'GBP', amount: 547_266 }),
      item({ currency: 'EUR', amount: 81_022 }),
      item({ type: 'bill', currency: 'GBP', payee: 'Acme UK', reference: 'UK-1', lines: [line(2_500), line(500)] }),
      item({ type: 'reimbursement', currency: 'EUR', payee: 'Ann Lee', amount: 1_999 }),
    ];
    const files = writeIifFiles(items, ACCOUNTS, 'USD');
    expect(files.map((f) => f.currency)).toEqual(['EUR', 'GBP', 'USD']);
    const accounts: Record<string, string[]> = {};
    for (const f of files) {
      const { blocks } = iifBlocks(f.content, f.currency);
      for (const b of blocks) expect(b.total, f.currency).toBe(0);
      accounts[f.currency] = blocks.map((b) => b.rows[0]![3]!);
      // What the file books: every item of its currency, and only those.
      const booked = blocks.reduce((s, b) => s - toMinorUnits(b.rows[0]![5]!, f.currency)!, 0);
      expect(booked).toBe(items.filter((i) => i.currency === f.currency).reduce((s, i) => s + i.amount, 0));
    }
    expect(accounts).toEqual({
      EUR: ['Amex Corporate EUR', 'Reimbursements Payable EUR'],
      GBP: ['Amex Corporate GBP', 'Accounts Payable GBP'],
      USD: ['Amex Corporate'],
    });
    expect(iifAccountName('Corporate Card', 'GBP', 'GBP')).toBe('Corporate Card');
    expect(() => writeIif(items, ACCOUNTS, 'USD', 'USD')).toThrow(/GBP in the USD IIF file/);
  });

  it('keeps every field on one line without tabs or quotes', () => {
    const text = writeIif([item({ payee: 'Bad\tName\r\nInc', memo: 'say "hi"\nthere' })], ACCOUNTS, 'USD', 'USD');
    const rows = text.split('\r\n').filter(Boolean).map((r) => r.split('\t'));
    expect(rows.every((r) => r.length === 8 || r.length === 1)).toBe(true);
    expect(rows[3]!.slice(4)).toEqual(['Bad Name Inc', '-123.45', '', "say 'hi' there"]);
  });

  it('writes amounts in the currency exponent and still balances', () => {
    const { blocks } = iifBlocks(writeIif([item({ currency: 'BHD', lines: [line(1_001), line(2)] })], ACCOUNTS, 'BHD', 'USD'), 'BHD');
    expect(blocks[0]!.rows.map((r) => r[5])).toEqual(['-1.003', '1.001', '0.002']);
    expect(blocks[0]!.rows[0]![3]).toBe('Amex Corporate BHD');
    expect(blocks[0]!.total).toBe(0);
  });
});

describe('Xero bank-statement CSV', () => {
  it('splits at 1,000 lines per file, by account and currency, with the Xero header and formats', () => {
    const usd = Array.from({ length: 2_001 }, (_, i) => item({ id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, amount: 100 + i }));
    const eur = [item({ currency: 'EUR', amount: -500, date: '2026-12-31', reference: 'R-1' })];
    const files = writeXeroCsv([...usd, ...eur]);
    expect(files.map((f) => [f.account, f.currency, f.part])).toEqual([['card', 'EUR', 1], ['card', 'USD', 1], ['card', 'USD', 2], ['card', 'USD', 3]]);
    for (const f of files) expect(csvHeader(f.content)).toEqual([...XERO_COLUMNS]);
    const parsed = files.map((f) => readCsv(f.content));
    expect(parsed.map((p) => p.length)).toEqual([1, 1_000, 1_000, 1]);
    expect(parsed[0]![0]).toMatchObject({ Date: '31/12/2026', Amount: '5.00', Reference: 'R-1' });
    expect(parsed[1]![0]).toMatchObject({ Date: '07/03/2026', Amount: '-1.00', Payee: 'Delta Air Lines' });
    const usdTotal = parsed.slice(1).flat().reduce((s, r) => s + toMinorUnits(r.Amount!, 'USD')!, 0);
    expect(usdTotal).toBe(-usd.reduce((s, i) => s + i.amount, 0));
  });

  it('puts card charges on the card statement and bill and claim payments on the bank statement, dated when the money moved', () => {
    const files = writeXeroCsv([
      item({ amount: 1_000 }),
      item({ type: 'bill', payee: 'Acme', reference: 'INV-9', date: '2026-02-01', paid_on: '2026-03-20', amount: 7_500 }),
      item({ type: 'reimbursement', id: '00000000-0000-4000-8000-00000000000c', payee: 'Ann Lee', date: '2026-02-03', paid_on: '2026-03-21', amount: 2_000 }),
      item({ type: 'bill', currency: 'GBP', payee: 'Acme UK', reference: 'UK-1', paid_on: '2026-03-22', amount: 300 }),
    ]);
    expect(files.map((f) => [f.account, f.currency])).toEqual([['bank', 'GBP'], ['bank', 'USD'], ['card', 'USD']]);
    const bank = readCsv(files[1]!.content);
    expect(bank.map((r) => [r.Date, r.Amount, r.Payee, r.Reference])).toEqual([
      ['20/03/2026', '-75.00', 'Acme', 'INV-9'],
      ['21/03/2026', '-20.00', 'Ann Lee', '00000000-0000-4000-8000-00000000000c'],
    ]);
    expect(readCsv(files[2]!.content).map((r) => r.Amount)).toEqual(['-10.00']);
  });

  it('refuses an item whose money has not moved: a bank statement books no unpaid bill or claim', () => {
    expect(() => writeXeroCsv([item({ type: 'bill', reference: 'INV-1', paid_on: null })])).toThrow(/no money has moved/);
    expect(() => writeXeroCsv([item({ type: 'reimbursement', paid_on: null })])).toThrow(/no money has moved/);
  });

  it('writes dates in the organisation\'s format: day first by default, month first or ISO when chosen', () => {
    const items = [item({ date: '2026-03-07' })];
    const dateOf = (content: string) => readCsv(content)[0]!.Date;
    expect(dateOf(writeXeroCsv(items)[0]!.content)).toBe('07/03/2026');
    expect(dateOf(writeXeroCsv(items, 1_000, 'MM/DD/YYYY')[0]!.content)).toBe('03/07/2026');
    expect(dateOf(writeXeroCsv(items, 1_000, 'YYYY-MM-DD')[0]!.content)).toBe('2026-03-07');
    expect(dateOf(exportFiles('xero_csv', items, { ...SETTINGS, xero_date_format: 'MM/DD/YYYY' }, 's')[0]!.content)).toBe('03/07/2026');
  });

  it('names the files of a commit after the provider, the account and the currency', () => {
    const items = [...Array.from({ length: 1_001 }, () => item()), item({ type: 'bill', currency: 'GBP', reference: 'UK-1' })];
    expect(exportFiles('xero_csv', items, SETTINGS, '20261127-0400').map((f) => [f.name, f.currency, f.statement_account])).toEqual([
      ['ledgerline-xero-20261127-0400-bank-account-GBP_part-1.csv', 'GBP', 'bank'],
      ['ledgerline-xero-20261127-0400-corporate-card-USD_part-1.csv', 'USD', 'card'],
      ['ledgerline-xero-20261127-0400-corporate-card-USD_part-2.csv', 'USD', 'card'],
    ]);
    expect(exportFiles('quickbooks_desktop', items, SETTINGS, 's').map((f) => [f.name, f.currency])).toEqual([
      ['ledgerline-quickbooks-s-GBP.iif', 'GBP'], ['ledgerline-quickbooks-s-USD.iif', 'USD'],
    ]);
    expect(exportFiles('csv', items, SETTINGS, 's')).toEqual([
      expect.objectContaining({ name: 'ledgerline-export-s.csv', content_type: 'text/csv; charset=utf-8', currency: null, statement_account: null }),
    ]);
  });
});
