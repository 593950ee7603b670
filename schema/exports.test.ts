import { describe, expect, it } from 'vitest';
import { ENTITIES } from './collections.ts';
import { EXPORT_COLUMNS, exportCell, exportFileName, exportHeader, exportNames, exportRow, formulaSafe } from './exports.ts';
import { minorToDecimal, toMinorUnits } from './money.ts';
import { REPORT_COLLECTIONS } from './report-query.ts';

const ids = {
  dept: '00000000-0000-4000-8000-000000000001', gl: '00000000-0000-4000-8000-000000000002',
  user: '00000000-0000-4000-8000-000000000003', card: '00000000-0000-4000-8000-000000000004',
  cat: '00000000-0000-4000-8000-000000000005', opt: '00000000-0000-4000-8000-000000000006',
  tx: '00000000-0000-4000-8000-000000000007', biz: '00000000-0000-4000-8000-000000000008',
  gl2: '00000000-0000-4000-8000-000000000009', vendor: '00000000-0000-4000-8000-00000000000a',
};
const names = exportNames({
  departments: [{ id: ids.dept, name: 'Engineering' }],
  locations: [],
  gl_accounts: [{ id: ids.gl, code: '6000', name: 'Travel' }, { id: ids.gl2, code: '6100', name: 'Software' }],
  users: [{ id: ids.user, first_name: 'Ada', last_name: 'Lovelace' }],
  cards: [{ id: ids.card, display_name: 'Travel card', last_four: '4242' }],
  vendors: [{ id: ids.vendor, name: '=HYPERLINK("x")' }],
  tracking_categories: [{ id: ids.cat, name: 'Project', options: [{ id: ids.opt, name: 'Apollo' }] }],
});
const mirrored = { business_id: ids.biz, change_seq: 1, updated_at: '2026-01-01T00:00:00.000Z', deleted: false };

describe('minorToDecimal', () => {
  it.each([
    [123450, 'USD', '1234.50'], [-5, 'USD', '-0.05'], [0, 'EUR', '0.00'], [1500, 'JPY', '1500'], [-1500, 'JPY', '-1500'],
    [1, 'KWD', '0.001'], [100_000_000_000, 'USD', '1000000000.00'],
  ])('%d %s is %s, and reads back', (minor, currency, text) => {
    expect(minorToDecimal(minor, currency)).toBe(text);
    expect(toMinorUnits(text, currency)).toBe(minor);
  });
});

describe('formulaSafe and exportCell', () => {
  it.each([
    ['=SUM(A1:A9)', "'=SUM(A1:A9)"], ['+1+2', "'+1+2"], ['-1+2', "'-1+2"], ['@cmd', "'@cmd"], ['\tx', "'\tx"], ['\r=1', "'\r=1"],
    // After any leading whitespace, ideographic and no-break spaces included; full-width triggers too.
    ['  =1+1', "'  =1+1"], ['\u3000=1', "'\u3000=1"], ['\u00a0@x', "'\u00a0@x"], [' \tx', "' \tx"], [' \rx', "' \rx"],
    ['\uff1d1+1', "'\uff1d1+1"], ['\uff0b1', "'\uff0b1"], ['\uff0dcmd', "'\uff0dcmd"], ['\uff20SUM(A1)', "'\uff20SUM(A1)"], ['\u3000\uff1d1', "'\u3000\uff1d1"],
    // Text is text: a memo reading like a number is neutralised too.
    ['-12.50', "'-12.50"], ['-3', "'-3"],
    ['Uber', 'Uber'], ['', ''], ['a=b', 'a=b'], ['  Uber', '  Uber'], ['1+1', '1+1'], ['x\t=1', 'x\t=1'],
  ])('text %j → %j', (cell, safe) => {
    expect(formulaSafe(cell)).toBe(safe);
    expect(exportCell(cell)).toBe(safe);
  });

  it.each([['-12.50', '-12.50'], ['-3', '-3'], ['0', '0'], ['1234.5', '1234.5'], ['', ''], ['-1+2', "'-1+2"], ['=1', "'=1"]])(
    'number %j → %j (a plain number as is; anything else as text)', (cell, out) => expect(exportCell(cell, 'number')).toBe(out),
  );
});

describe('export columns', () => {
  it('have one header per column, all distinct, for every exportable collection', () => {
    for (const c of REPORT_COLLECTIONS) {
      expect(exportHeader(c).length).toBe(EXPORT_COLUMNS[c].length);
      expect(new Set(exportHeader(c)).size).toBe(EXPORT_COLUMNS[c].length);
    }
  });

  it('write a transaction with names, decimal money, ISO dates and formula-safe text', () => {
    const tx = ENTITIES.transactions.schema.parse({
      id: ids.tx, card_id: ids.card, user_id: ids.user, merchant_name: '@Evil Corp', merchant_category: 'Software',
      amount: -12345, currency: 'USD', occurred_at: '2026-01-05T10:00:00.000Z', state: 'CLEARED', memo: 'Team, "offsite"\nday 2',
      gl_account_id: ids.gl, department_id: ids.dept, location_id: null, tracking: { [ids.cat]: ids.opt }, receipt_ids: [], ...mirrored,
    });
    const row = Object.fromEntries(exportHeader('transactions').map((h, i) => [h, exportRow('transactions', tx, names)[i]]));
    expect(row).toEqual({
      Date: '2026-01-05T10:00:00.000Z', Merchant: "'@Evil Corp", 'Merchant category': 'Software', Amount: '-123.45', Currency: 'USD',
      State: 'CLEARED', Cardholder: 'Ada Lovelace', Card: 'Travel card (4242)', Memo: 'Team, "offsite"\nday 2', 'GL account': '6000 Travel',
      Department: 'Engineering', Location: '', Tracking: 'Project: Apollo', Receipts: '0', 'Transaction ID': ids.tx,
    });
  });

  it("write a bill's lines' distinct coding, and a vendor name that looks like a formula as text", () => {
    const line = (gl: string, amount: number) => ({ id: crypto.randomUUID(), description: 'x', amount, gl_account_id: gl, department_id: ids.dept });
    const bill = ENTITIES.bills.schema.parse({
      id: ids.tx, vendor_id: ids.vendor, invoice_number: 'INV-1', invoice_date: '2026-01-31', due_date: '2026-03-02', currency: 'JPY',
      amount: 3000, line_items: [line(ids.gl, 1000), line(ids.gl2, 1500), line(ids.gl, 500)], memo: null, status: 'APPROVED',
      entity_id: null, invoice_file_id: null, created_by: ids.user, submitted_at: null, approved_by: null, approved_at: null,
      rejection_reason: null, payment_attempt: 0, payment_failure_reason: null, paid_at: null, paid_manually: false, reconciled_at: null,
      created_at: '2026-01-31T09:00:00.000Z', ...mirrored,
    });
    const cells = exportRow('bills', bill, names);
    const at = (h: string) => cells[exportHeader('bills').indexOf(h)];
    expect([at('Vendor'), at('Amount'), at('GL accounts'), at('Departments'), at('Created by')])
      .toEqual(["'=HYPERLINK(\"x\")", '3000', '6000 Travel; 6100 Software', 'Engineering', 'Ada Lovelace']);
  });

  it('name unknown and null ids as empty cells, and files by table and UTC day', () => {
    expect(names.name('departments', null)).toBe('');
    expect(names.name('departments', ids.gl)).toBe('');
    expect(names.tracking(ids.dept, ids.opt)).toBe('');
    expect(exportFileName('cards', new Date('2026-11-27T23:59:59Z'))).toBe('cards-2026-11-27.csv');
  });
});
