import { describe, expect, it } from 'vitest';
import { applyCodingPatch, syncedCodingRefusal, transactionBulkCode, transactionCode } from './transaction-code.ts';
import { codingPatchSchema, bulkCodingBodySchema } from './coding-patch.ts';
import type { Transaction } from '../entities/transaction.ts';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const txn = (over: Partial<Transaction> = {}): Transaction => ({
  id: id(1), card_id: id(2), user_id: id(3), merchant_name: 'Delta', merchant_category: 'Airlines',
  amount: 45000, currency: 'USD', occurred_at: '2026-03-01T10:00:00.000Z', state: 'CLEARED', memo: null,
  gl_account_id: null, department_id: null, location_id: null, tracking: {}, receipt_ids: [],
  business_id: id(9), change_seq: 1, updated_at: '2026-03-01T10:00:00.000Z', deleted: false, ...over,
});

describe('coding patch', () => {
  it('changes only the keys present and leaves the input untouched', () => {
    const before = txn({ department_id: id(20), tracking: { [id(30)]: id(31) } });
    const after = applyCodingPatch(before, { gl_account_id: id(10), memo: 'Client visit' });
    expect(after).toMatchObject({ gl_account_id: id(10), memo: 'Client visit', department_id: id(20) });
    expect(after.tracking).toEqual({ [id(30)]: id(31) });
    expect(before.gl_account_id).toBeNull();
  });
  it('null clears fields and tracking options; empty memo becomes null', () => {
    const before = txn({ department_id: id(20), memo: 'x', tracking: { [id(30)]: id(31), [id(32)]: id(33) } });
    const after = applyCodingPatch(before, { department_id: null, memo: '', tracking: { [id(30)]: null, [id(34)]: id(35) } });
    expect(after.department_id).toBeNull();
    expect(after.memo).toBeNull();
    expect(after.tracking).toEqual({ [id(32)]: id(33), [id(34)]: id(35) });
  });
  it('refuses empty, unknown and malformed patches', () => {
    expect(codingPatchSchema.safeParse({}).success).toBe(false);
    expect(codingPatchSchema.safeParse({ colour: 'red' }).success).toBe(false);
    expect(codingPatchSchema.safeParse({ gl_account_id: 'nope' }).success).toBe(false);
    expect(codingPatchSchema.safeParse({ memo: 'x'.repeat(2001) }).success).toBe(false);
  });
  it('bulk bodies hold 1..10,000 distinct ids', () => {
    const patch = { gl_account_id: id(10) };
    expect(bulkCodingBodySchema.safeParse({ transaction_ids: [], patch }).success).toBe(false);
    expect(bulkCodingBodySchema.safeParse({ transaction_ids: [id(1), id(1)], patch }).success).toBe(false);
    const many = Array.from({ length: 10_001 }, (_, i) => id(i));
    expect(bulkCodingBodySchema.safeParse({ transaction_ids: many, patch }).success).toBe(false);
    expect(bulkCodingBodySchema.safeParse({ transaction_ids: many.slice(0, 10_000), patch }).success).toBe(true);
  });
});

describe('commands', () => {
  it('transaction.code maps to the PATCH call with the id in the path', () => {
    const args = transactionCode.args.parse({ transaction_id: id(1), patch: { memo: 'hi' } });
    expect(transactionCode.entityIds(args)).toEqual([id(1)]);
    expect(transactionCode.request(args)).toEqual({ params: { transaction_canonical_uuid: id(1) }, body: { memo: 'hi' } });
    expect(transactionCode.call.method).toBe('PATCH');
    expect(transactionCode.apply(txn(), args).memo).toBe('hi');
  });
  it('transaction.bulkCode touches every id and sends the body as is', () => {
    const args = transactionBulkCode.args.parse({ transaction_ids: [id(1), id(2)], patch: { location_id: id(40) } });
    expect(transactionBulkCode.entityIds(args)).toEqual([id(1), id(2)]);
    expect(transactionBulkCode.request(args)).toEqual({ body: args });
    expect(transactionBulkCode.apply(txn(), args).location_id).toBe(id(40));
  });
});

describe('synced transactions (issue 12)', () => {
  const rows = new Map<string, Partial<Transaction>>([[id(1), { accounting_synced_at: null }], [id(2), { accounting_synced_at: '2026-11-27T04:00:00.000Z' }], [id(3), {}]]);
  const mirror = { has: (x: string) => rows.has(x), get: (x: string) => rows.get(x) };
  const patch = { gl_account_id: id(10) };

  it.each([
    ['an unsynced row', transactionCode, { transaction_id: id(1), patch }, null],
    ['a row without the mark (older server)', transactionCode, { transaction_id: id(3), patch }, null],
    ['a synced row', transactionCode, { transaction_id: id(2), patch }, 'ACCOUNTING_7301'],
    ['a selection holding a synced row', transactionBulkCode, { transaction_ids: [id(1), id(2)], patch }, 'ACCOUNTING_7301'],
    ['a selection of unsynced rows', transactionBulkCode, { transaction_ids: [id(1), id(3)], patch }, null],
    ['an unknown row first', transactionBulkCode, { transaction_ids: [id(4), id(2)], patch }, 'REQUEST_7004'],
  ] as const)('check refuses %s → %s', (_label, def, args, expected) => {
    expect(def.check!(def.args.parse(args) as never, mirror)).toBe(expected);
  });

  it('lets a mirror that cannot read rows through (the server refuses instead)', () => {
    expect(transactionCode.check!({ transaction_id: id(2), patch }, { has: () => true })).toBeNull();
  });

  it('names the export day in the refusal', () => {
    expect(syncedCodingRefusal('2026-11-27T04:00:00.000Z')).toBe(
      'This transaction was exported to your accounting system on 2026-11-27. Mark it as not synced to change its coding.');
    expect(syncedCodingRefusal(null)).toBeNull();
  });
});
