import { describe, expect, it, vi } from 'vitest';
import type { TransactionSort } from '../../../schema/transaction-query.ts';
import { transactionColumns } from './transactions-columns.tsx';
import type { ReferenceNames } from './use-reference-data.ts';

const names = { user: () => '', glAccount: () => '', department: () => '', location: () => '' } as unknown as ReferenceNames;

describe('transaction columns', () => {
  it('marks the sorted column and asks for the next sort when a sortable header is pressed', () => {
    const onSort = vi.fn<(s: TransactionSort) => void>();
    const columns = transactionColumns('occurred_desc', names, onSort);
    const byKey = new Map(columns.map((c) => [c.key, c]));
    expect(byKey.get('date')?.sorted).toBe('descending');
    expect(byKey.get('amount')?.sorted).toBe('none');
    expect(byKey.get('cardholder')?.onSort).toBeUndefined();
    byKey.get('date')?.onSort?.();
    byKey.get('amount')?.onSort?.();
    byKey.get('merchant')?.onSort?.();
    expect(onSort.mock.calls.map(([s]) => s)).toEqual(['occurred_asc', 'amount_desc', 'merchant_asc']);
  });

  it('marks a refund negative', () => {
    const amount = transactionColumns('occurred_desc', names, () => undefined).find((c) => c.key === 'amount')!;
    expect(amount.cellClassName?.({ amount: -500 } as never)).toBe('negative');
    expect(amount.cellClassName?.({ amount: 500 } as never)).toBeUndefined();
  });
});
