import { describe, expect, it } from 'vitest';
import type { Reimbursement } from '../../../schema/entities/reimbursement.ts';
import type { DataClient } from '../../data-access/types.ts';
import { findLocalDuplicates } from './duplicates.ts';

const U = 'u1';
const row = (i: number, date: string, over: Partial<Reimbursement> = {}) =>
  ({ id: `c${i}`, user_id: U, amount: 2318, currency: 'USD', transaction_date: date, merchant: 'Uber', status: 'SUBMITTED', deleted: false, ...over }) as Reimbursement;

/** A client whose query answers pages of `rows` (already newest claim date first) and records the asks. */
function fakeClient(rows: Reimbursement[]) {
  const asks: { offset: number; limit: number; filter: unknown }[] = [];
  const client = {
    query: async (_c: string, q: { offset: number; limit: number; filter: unknown }) => {
      asks.push(q);
      return { rows: rows.slice(q.offset, q.offset + q.limit), total: rows.length };
    },
  } as unknown as DataClient;
  return { client, asks };
}

describe('findLocalDuplicates', () => {
  const probe = { id: null, user_id: U, amount: 2318, transaction_date: '2026-11-09', merchant: 'UBER *TRIP' };

  it("finds the claimant's similar claims on the day and stops at the first older claim", async () => {
    const rows = [
      row(1, '2026-11-20'),
      row(2, '2026-11-09'),
      row(3, '2026-11-09', { merchant: 'Lyft' }),
      row(4, '2026-11-09', { amount: 100 }),
      row(5, '2026-11-08'),
      ...Array.from({ length: 2000 }, (_, i) => row(10 + i, '2026-01-01')),
    ];
    const { client, asks } = fakeClient(rows);
    expect((await findLocalDuplicates(client, probe)).map((r) => r.id)).toEqual(['c2']);
    expect(asks).toHaveLength(1);
    expect(asks[0]!.filter).toEqual({ user_ids: [U], statuses: ['DRAFT', 'SUBMITTED', 'APPROVED', 'REJECTED', 'PAID'] });
  });

  it('reads further pages while the claims are not older yet', async () => {
    const rows = [...Array.from({ length: 600 }, (_, i) => row(i, '2026-11-30')), row(900, '2026-11-09')];
    const { client, asks } = fakeClient(rows);
    expect((await findLocalDuplicates(client, probe)).map((r) => r.id)).toEqual(['c900']);
    expect(asks.map((a) => a.offset)).toEqual([0, 500]);
  });
});
