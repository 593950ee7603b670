import { describe, expect, it } from 'vitest';
import { SHAPED_COLLECTIONS, shapersFileSource } from './shapers.ts';
import { engineTransactions, serverTransactions, storedTransactions } from './generated/transactions.ts';
import { transactionSchema, type Transaction } from '../../schema/entities/transaction.ts';
import { occurredDesc } from '../../schema/mirror.ts';

const ID = '00000000-0000-4000-8000-000000000001';
const full: Transaction = transactionSchema.parse({
  id: ID, card_id: ID, user_id: ID, merchant_name: 'Blue Bottle', merchant_category: 'Coffee', amount: 450,
  currency: 'USD', occurred_at: '2026-03-01T10:00:00.000Z', state: 'CLEARED', memo: 'beans', gl_account_id: null,
  department_id: null, location_id: null, tracking: {}, receipt_ids: [ID], accounting_synced_at: null,
  merchant_country: 'US', fraud_status: null, fraud_reasons: [], dispute_id: null, attendees: ['Ana Ruiz'], coding_suggestion_dismissed_at: null, attendee_split: null,
  business_id: ID, change_seq: 7, updated_at: '2026-03-01T10:00:00.000Z', deleted: false,
});
/** A row stored before receipts, accounting sync, fraud review and attendees were mirrored. */
const { receipt_ids, accounting_synced_at, merchant_country, fraud_status, fraud_reasons, dispute_id, attendees, coding_suggestion_dismissed_at, attendee_split, ...old } = full;
void [receipt_ids, accounting_synced_at, merchant_country, fraud_status, fraud_reasons, dispute_id, attendees, coding_suggestion_dismissed_at, attendee_split];

describe('generated row shapers', () => {
  it.each(SHAPED_COLLECTIONS)('generated/%s.ts is what its column map generates', async (c) => {
    await expect(shapersFileSource(c)).toMatchFileSnapshot(`./generated/${c}.ts`);
  });

  it('server rows: every field of the schema, in one order, absent fields filled, deleted false', () => {
    const a = serverTransactions({ ...full, deleted: true } as Transaction);
    const b = serverTransactions(old as Transaction);
    expect(Object.keys(a)).toEqual(Object.keys(transactionSchema.shape));
    // An absent list is the one shared empty list (rows are never mutated in place).
    expect(b.receipt_ids).toBe(serverTransactions(old as Transaction).receipt_ids);
    expect(Object.keys(b)).toEqual(Object.keys(a));
    expect(a).toEqual(full);
    expect(b).toMatchObject({ receipt_ids: [], accounting_synced_at: null, coding_suggestion_dismissed_at: null, attendee_split: null, fraud_status: null, fraud_reasons: [], dispute_id: null, deleted: false });
    // A field without `missing` is copied as is: the key is there (one hidden class), its value undefined.
    expect(b).toHaveProperty('attendees', undefined);
    expect(transactionSchema.parse(b)).toEqual(b);
  });

  it('engine rows carry the negated time and the server row; stored rows drop deleted and drop worker-only fields', () => {
    const server = serverTransactions(full);
    const e = engineTransactions({ ...full, memo: 'shown' }, server);
    expect(e).toEqual({ ...full, memo: 'shown', occurred_desc: occurredDesc(full.occurred_at), server });
    const s = storedTransactions({ ...e, server: undefined } as never);
    expect(s).not.toHaveProperty('deleted');
    expect(s).not.toHaveProperty('server');
    expect(s).toEqual({ ...Object.fromEntries(Object.entries(full).filter(([k]) => k !== 'deleted')), memo: 'shown', occurred_desc: occurredDesc(full.occurred_at) });
  });
});
