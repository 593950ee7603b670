import { describe, expect, it } from 'vitest';
import { transactionSchema } from '../entities/transaction.ts';
import { transactionClearAttendeeSplit, transactionCopyReceipts, transactionSplitAttendees } from './attendee-split.ts';

const ID = '00000000-0000-4000-8000-000000000001';
const ANA = '00000000-0000-4000-8000-000000000002';
const R1 = '00000000-0000-4000-8000-000000000003';
const R2 = '00000000-0000-4000-8000-000000000004';
const row = transactionSchema.parse({
  id: ID, card_id: ID, user_id: ID, merchant_name: 'Blue Bottle', merchant_category: 'Coffee', amount: 1001, currency: 'EUR',
  occurred_at: '2026-03-01T10:00:00.000Z', state: 'CLEARED', memo: null, gl_account_id: null, department_id: null,
  location_id: null, tracking: {}, receipt_ids: [R1], business_id: ID, change_seq: 7, updated_at: '2026-03-01T10:00:00.000Z', deleted: false,
});

describe('transaction.splitAttendees and .clearAttendeeSplit', () => {
  it('applies the schema rule locally and sends only the body as a PUT', () => {
    const args = transactionSplitAttendees.args.parse({
      transaction_id: ID, names: { [ANA]: 'Ana Ruiz' },
      split: { mode: 'even', attendees: [{ kind: 'internal', user_id: ANA }, { kind: 'external', name: 'Bo' }] },
    });
    expect(transactionSplitAttendees.request(args)).toEqual({ params: { transaction_canonical_uuid: ID }, body: args.split });
    expect(transactionSplitAttendees.call.method).toBe('PUT');
    const split = transactionSplitAttendees.apply(row, args).attendee_split;
    expect(split).toEqual({
      mode: 'even', currency: 'EUR', total: 1001,
      shares: [{ kind: 'internal', user_id: ANA, name: 'Ana Ruiz', amount: 501 }, { kind: 'external', name: 'Bo', company: null, amount: 500 }],
    });
    const off = transactionSplitAttendees.args.parse({ transaction_id: ID, split: { mode: 'custom', attendees: [{ kind: 'external', name: 'Bo', amount: 5 }] } });
    expect(transactionSplitAttendees.apply(row, off)).toBe(row);
    const cleared = transactionClearAttendeeSplit.apply({ ...row, attendee_split: split }, { transaction_id: ID });
    expect(cleared.attendee_split).toBeNull();
    expect(transactionClearAttendeeSplit.apply(row, { transaction_id: ID })).toBe(row);
    expect(transactionClearAttendeeSplit.call.method).toBe('DELETE');
  });
});

describe('transaction.copyReceipts', () => {
  it('shows the purchase’s receipts on the refund once each, and sends only the purchase id', () => {
    const args = transactionCopyReceipts.args.parse({ transaction_id: ID, source_transaction_id: ANA, receipt_ids: [R1, R2] });
    expect(transactionCopyReceipts.apply(row, args).receipt_ids).toEqual([R1, R2]);
    const once = transactionCopyReceipts.apply(row, args);
    expect(transactionCopyReceipts.apply(once, args)).toBe(once);
    expect(transactionCopyReceipts.request(args)).toEqual({ params: { transaction_canonical_uuid: ID }, body: { source_transaction_id: ANA } });
  });
});
