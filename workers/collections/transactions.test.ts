import { describe, expect, it } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { createRxDatabase } from 'rxdb';
import { matchesTransactionFilter, type TransactionFilter } from '../../schema/transaction-query.ts';
import { mirrorJsonSchema } from '../../schema/mirror.ts';
import { openMirrorDatabase, mirrorStorage } from '../db.ts';
import { makeTransaction, testUuid } from '../test-fixtures.ts';
import { compileTransactionFilter, serverRow, toMirrored } from './transactions.ts';

describe('transactions: receipts (issue 9 §2)', () => {
  const rows = [
    makeTransaction({ id: testUuid(1, 1) }),
    makeTransaction({ id: testUuid(1, 2), receipt_ids: [testUuid(9, 1)] }),
    makeTransaction({ id: testUuid(1, 3), receipt_ids: [testUuid(9, 2), testUuid(9, 3)], gl_account_id: testUuid(5, 1) }),
  ];

  it.each<[string, TransactionFilter, string[]]>([
    ['missing receipt', { missing_receipt: true }, [testUuid(1, 1)]],
    ['with a receipt', { missing_receipt: false }, [testUuid(1, 2), testUuid(1, 3)]],
    ['missing receipt and coding', { missing_receipt: false, missing_coding: true }, [testUuid(1, 2)]],
  ])('the compiled filter (%s) means what the shared one means', (_name, filter, expected) => {
    const compiled = compileTransactionFilter(filter)!;
    expect(rows.filter(compiled).map((t) => t.id)).toEqual(expected);
    expect(rows.filter((t) => matchesTransactionFilter(t, filter)).map((t) => t.id)).toEqual(expected);
  });

  it('a row stored before receipts were mirrored shows none', () => {
    const { receipt_ids, ...old } = toMirrored(rows[1]!);
    void receipt_ids;
    expect(serverRow(old).receipt_ids).toEqual([]);
  });

  it('a mirror stored under schema version 0 opens at version 1: its rows are dropped (re-pulled), not refused', async () => {
    const indexedDB = new IDBFactory();
    const name = `test-${crypto.randomUUID().slice(0, 8)}`;
    const storage = () => mirrorStorage({ indexedDB, IDBKeyRange });
    // Version 0: the transactions schema without receipt_ids, as devices stored it before.
    const current = mirrorJsonSchema('transactions');
    const { receipt_ids, ...properties } = current.properties;
    void receipt_ids;
    const v0 = { ...current, version: 0, properties, required: current.required.filter((f) => f !== 'receipt_ids') };
    const old = await createRxDatabase({ name, storage: storage(), multiInstance: false });
    await old.addCollections({ transactions: { schema: v0 as never } });
    const { receipt_ids: _, ...oldRow } = toMirrored(rows[0]!);
    void _;
    await old.collections.transactions!.insert(oldRow);
    await old.close();

    const db = await openMirrorDatabase({ name, storage: storage(), multiInstance: false });
    try {
      expect(await db.transactions.count().exec()).toBe(0);
      await db.transactions.insert(toMirrored(rows[1]!) as never);
      expect((await db.transactions.findOne(testUuid(1, 2)).exec())?.toJSON().receipt_ids).toEqual([testUuid(9, 1)]);
    } finally {
      await db.remove();
    }
  });
});
