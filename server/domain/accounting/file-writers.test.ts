import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { minorToDecimal, toMinorUnits } from '../../../schema/money.ts';
import type { ExportItem, ExportLine } from './export-item.ts';
import { CSV_COLUMNS, exportFiles, IIF_HEADER, writeGenericCsv, writeIif, writeXeroCsv, XERO_COLUMNS } from './file-writers.ts';

const ACCOUNTS = { iif_card_account: 'Amex Corporate', iif_ap_account: 'Accounts Payable', iif_reimbursement_account: 'Reimbursements Payable' };

const line = (amount: number, over: Partial<ExportLine> = {}): ExportLine => ({
  amount, account_code: '6000', account_name: 'Travel', department: 'Sales', location: null, tracking: 'Project: Apollo', description: null, ...over,
});
/** An item whose lines sum to its amount (the writers refuse anything else). */
function item(over: Partial<ExportItem> & { lines?: ExportLine[] } = {}): ExportItem {
  const lines = over.lines ?? [line(over.amount ?? 12_345)];
  return {
    type: 'transaction', id: '00000000-0000-4000-8000-000000000001', date: '2026-03-07', payee: 'Delta Air Lines',
    memo: null, reference: null, currency: 'USD', ...over, amount: lines.reduce((s, l) => s + l.amount, 0), lines,
  };
}

/** An independent IIF reader: blocks of TRNS + SPL lines, amounts back to minor units. */
function iifBlocks(text: string, currency = 'USD') {
  const rows = text.split('\r\n').filter((r) => r !== '').map((r) => r.split('\t'));
  const blocks: { rows: string[][]; total: number }[] = [];
  let current: string[][] | null = null;
  for (const row of rows.slice(IIF_HEADER.length)) {
    if (row[0] === 'TRNS') current = [row];
    else if (row[0] === 'SPL') current!.push(row);
    else if (row[0] === 'ENDTRNS') {
      blocks.push({ rows: current!, total: current!.reduce((s, r) => s + toMinorUnits(r[5]!, currency)!, 0) });
      current = null;
    } else throw new Error(`unexpected IIF row ${row.join('|')}`);
  }
  expect(current).toBeNull();
  return { header: rows.slice(0, IIF_HEADER.length), blocks };
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
      item({ type: 'bill', id: '00000000-0000-4000-8000-000000000002', payee: 'Acme, "Ltd"', reference: 'INV-7',
        lines: [line(10_000, { account_name: 'Rent' }), line(-2_000, { description: 'Credit note' })] }),
      item({ type: 'reimbursement', currency: 'JPY', amount: 3_000, lines: [line(3_000)] }),
    ];
    const parsed = Papa.parse<Record<string, string>>(writeGenericCsv(items), { header: true, skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.meta.fields).toEqual([...CSV_COLUMNS]);
    expect(parsed.data).toHaveLength(4);
    const total = (c: string) => parsed.data.filter((r) => r.Currency === c).reduce((s, r) => s + toMinorUnits(r['Line amount']!, c)!, 0);
    expect(total('USD')).toBe(4_500 + 8_000);
    expect(total('JPY')).toBe(3_000);
    expect(parsed.data[1]).toMatchObject({ Type: 'Bill', Payee: 'Acme, "Ltd"', Amount: '80.00', 'Line amount': '100.00', 'GL account': 'Rent' });
    expect(parsed.data[2]!['Line amount']).toBe('-20.00');
  });

  it('defuses spreadsheet formulas but keeps negative amounts numeric', () => {
    const text = writeGenericCsv([item({ payee: '=HYPERLINK("http://x")', memo: '-cmd|calc', lines: [line(-250)] })]);
    const [row] = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true }).data;
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
      item({ type: 'bill', payee: 'Acme', reference: 'INV-1', lines: [line(7_001), line(2_999, { account_name: 'Software' }), line(-1_000)] }),
      item({ type: 'reimbursement', payee: 'Ann Lee', lines: [line(4_200, { account_name: 'Meals' })] }),
    ];
    const { header, blocks } = iifBlocks(writeIif(items, ACCOUNTS));
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

  it('keeps every field on one line without tabs or quotes', () => {
    const text = writeIif([item({ payee: 'Bad\tName\r\nInc', memo: 'say "hi"\nthere' })], ACCOUNTS);
    const rows = text.split('\r\n').filter(Boolean).map((r) => r.split('\t'));
    expect(rows.every((r) => r.length === 8 || r.length === 1)).toBe(true);
    expect(rows[3]!.slice(4)).toEqual(['Bad Name Inc', '-123.45', '', "say 'hi' there"]);
  });

  it('writes amounts in the currency exponent and still balances', () => {
    const { blocks } = iifBlocks(writeIif([item({ currency: 'BHD', lines: [line(1_001), line(2)] })], ACCOUNTS), 'BHD');
    expect(blocks[0]!.rows.map((r) => r[5])).toEqual(['-1.003', '1.001', '0.002']);
    expect(blocks[0]!.total).toBe(0);
  });
});

describe('Xero bank-statement CSV', () => {
  it('splits at 1,000 lines per file, by currency, with the Xero header and formats', () => {
    const usd = Array.from({ length: 2_001 }, (_, i) => item({ id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, amount: 100 + i }));
    const eur = [item({ currency: 'EUR', amount: -500, date: '2026-12-31', reference: 'R-1' })];
    const files = writeXeroCsv([...usd, ...eur]);
    expect(files.map((f) => [f.currency, f.part])).toEqual([['EUR', 1], ['USD', 1], ['USD', 2], ['USD', 3]]);
    const parsed = files.map((f) => Papa.parse<Record<string, string>>(f.content, { header: true, skipEmptyLines: true }));
    for (const p of parsed) {
      expect(p.errors).toEqual([]);
      expect(p.meta.fields).toEqual([...XERO_COLUMNS]);
      expect(p.data.length).toBeLessThanOrEqual(1_000);
    }
    expect(parsed.map((p) => p.data.length)).toEqual([1, 1_000, 1_000, 1]);
    expect(parsed[0]!.data[0]).toMatchObject({ Date: '31/12/2026', Amount: '5.00', Reference: 'R-1' });
    expect(parsed[1]!.data[0]).toMatchObject({ Date: '07/03/2026', Amount: '-1.00', Payee: 'Delta Air Lines' });
    const usdTotal = parsed.slice(1).flatMap((p) => p.data).reduce((s, r) => s + toMinorUnits(r.Amount!, 'USD')!, 0);
    expect(usdTotal).toBe(-usd.reduce((s, i) => s + i.amount, 0));
  });

  it('writes dates in the organisation\'s format: day first by default, month first or ISO when chosen', () => {
    const items = [item({ date: '2026-03-07' })];
    const dateOf = (content: string) => Papa.parse<Record<string, string>>(content, { header: true, skipEmptyLines: true }).data[0]!.Date;
    expect(dateOf(writeXeroCsv(items)[0]!.content)).toBe('07/03/2026');
    expect(dateOf(writeXeroCsv(items, 1_000, 'MM/DD/YYYY')[0]!.content)).toBe('03/07/2026');
    expect(dateOf(writeXeroCsv(items, 1_000, 'YYYY-MM-DD')[0]!.content)).toBe('2026-03-07');
    expect(dateOf(exportFiles('xero_csv', items, { ...ACCOUNTS, xero_date_format: 'MM/DD/YYYY' }, 's')[0]!.content)).toBe('03/07/2026');
  });

  it('names the parts of a commit after the provider', () => {
    const items = Array.from({ length: 1_001 }, () => item());
    expect(exportFiles('xero_csv', items, ACCOUNTS, '20261127-0400').map((f) => f.name)).toEqual([
      'ledgerline-xero-20261127-0400-USD_part-1.csv', 'ledgerline-xero-20261127-0400-USD_part-2.csv',
    ]);
    expect(exportFiles('quickbooks_desktop', items, ACCOUNTS, 's')[0]!.name).toBe('ledgerline-quickbooks-s.iif');
    expect(exportFiles('csv', items, ACCOUNTS, 's')[0]).toMatchObject({ name: 'ledgerline-export-s.csv', content_type: 'text/csv; charset=utf-8' });
  });
});
