import { describe, expect, it } from 'vitest';
import type { ProvisionalBill } from '../../../../schema/entities/provisional-bill.ts';
import { completionPrefill, inboxOrder, missingForBill, readingPatch } from './inbox.ts';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const row = (over: Partial<ProvisionalBill> = {}): ProvisionalBill => ({
  id: id(1), invoice_file_id: id(70), vendor_id: null, invoice_number: null, invoice_date: null, due_date: null, currency: null,
  amount: null, memo: null, created_by: id(2), created_at: '2026-11-20T12:00:00.000Z', business_id: id(9), change_seq: 3,
  updated_at: '2026-11-20T12:00:00.000Z', deleted: false, ...over,
});
const VENDORS = [
  { id: id(30), name: 'Pacific Precision Machining, Inc.', status: 'ACTIVE' as const },
  { id: id(31), name: 'Acme Supply', status: 'ACTIVE' as const },
];
const READING = {
  vendorName: 'PACIFIC PRECISION MACHINING', invoiceNumber: 'INV-7781', invoiceDate: '2026-11-02', dueDate: '2026-12-02',
  total: { minor: 123_450, currency: 'USD' },
};

describe('the bill inbox', () => {
  it('a reading fills every empty field: the vendor matched by name, number, dates, the total with its currency', () => {
    expect(readingPatch(row(), READING, VENDORS)).toEqual({
      vendor_id: id(30), invoice_number: 'INV-7781', invoice_date: '2026-11-02', due_date: '2026-12-02', amount: 123_450, currency: 'USD',
    });
  });

  it('never overwrites what someone typed, and says nothing when the reading adds nothing', () => {
    const typed = row({ vendor_id: id(31), invoice_number: 'MINE-1', amount: 500, currency: 'USD' });
    expect(readingPatch(typed, READING, VENDORS)).toEqual({ invoice_date: '2026-11-02', due_date: '2026-12-02' });
    const full = row({ vendor_id: id(31), invoice_number: 'MINE-1', invoice_date: '2026-11-01', due_date: '2026-11-30', amount: 500, currency: 'USD' });
    expect(readingPatch(full, READING, VENDORS)).toBeNull();
    // A total in another currency than the one typed is not taken.
    expect(readingPatch(row({ currency: 'EUR' }), { total: READING.total }, VENDORS)).toBeNull();
  });

  it('an unknown vendor name is no vendor; the due date follows the terms read; a due date the rules refuse is left out', () => {
    expect(readingPatch(row(), { vendorName: 'Nobody We Know' }, VENDORS)).toBeNull();
    expect(readingPatch(row(), { invoiceDate: '2026-11-02', termsDays: 15 }, VENDORS)).toEqual({ invoice_date: '2026-11-02', due_date: '2026-11-17' });
    expect(readingPatch(row({ invoice_date: '2026-11-10' }), { dueDate: '2026-11-01' }, VENDORS)).toBeNull();
    // A read invoice date after a typed due date is left out too.
    expect(readingPatch(row({ due_date: '2026-11-05' }), { invoiceDate: '2026-11-10', invoiceNumber: 'A-1' }, VENDORS)).toEqual({ invoice_number: 'A-1' });
  });

  it('says what is still missing to make a bill', () => {
    expect(missingForBill(row())).toEqual(['vendor', 'invoice number', 'invoice date', 'due date', 'total']);
    expect(missingForBill(row({ vendor_id: id(30), invoice_number: 'X', invoice_date: '2026-11-01', due_date: '2026-11-30', amount: 1 }))).toEqual([]);
  });

  it('completing prefills the bill form with what the row holds and the total as its one line', () => {
    expect(completionPrefill(row({ vendor_id: id(30), invoice_number: 'INV-7781', amount: 123_450, currency: 'USD' }))).toEqual({
      invoice_file_id: id(70), vendor_id: id(30), invoice_number: 'INV-7781', currency: 'USD',
      lines: [{ key: 'inbox-total', description: 'Invoice total', amount: '1234.50', gl_account_id: '', department_id: '' }],
    });
    expect(completionPrefill(row())).toEqual({ invoice_file_id: id(70) });
  });

  it('lists the newest upload first', () => {
    const rows = [row({ id: id(1), created_at: '2026-11-01T00:00:00Z' }), row({ id: id(2), created_at: '2026-11-03T00:00:00Z' }), row({ id: id(3), created_at: '2026-11-03T00:00:00Z' })];
    expect(inboxOrder(rows).map((r) => r.id)).toEqual([id(3), id(2), id(1)]);
  });
});
