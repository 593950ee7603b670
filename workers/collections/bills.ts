import { billEntity, type Bill, type BillFilter, type billFilterSchema, type BillSort } from '../../schema/entities/bill.ts';
import { QueryEngine } from '../query-engine.ts';
import type { RowShape } from '../rebase.ts';
import { specEngine, specText } from './spec-engine.ts';
import type { WorkerCollection } from './worker-collection.ts';
import { engineBills, serverBills, storedBills } from './generated/bills.ts';

/**
 * bills in the worker (issue 11): built from the definition alone (spec-engine.ts; row shapers
 * generated from its columns, generated/bills.ts), as card requests are. A business holds
 * thousands of bills, so no typed sort keys; the text is the definition's (invoice number, memo)
 * plus the vendor's name from `refs` (referencedIds).
 */

export type AnyBillRow = Omit<Bill, 'deleted'> & { deleted?: boolean; server?: Bill };
export type BillEngineRow = Bill & { server: Bill | undefined };

const ROWS: RowShape<AnyBillRow, Bill, BillEngineRow> = {
  server: serverBills,
  engine: engineBills,
  apply: (index, entry, row) => index.applyTo(entry, row),
};

export const billCollection: WorkerCollection<'bills', AnyBillRow, BillEngineRow> = {
  name: 'bills',
  rows: ROWS,
  stored: storedBills,
  engine: (refs) =>
    new QueryEngine<BillEngineRow, BillFilter, BillSort>(
      specEngine<BillEngineRow, typeof billFilterSchema, BillSort>(
        billEntity.query,
        specText<BillEngineRow>(billEntity.searchText, billEntity.query.referencedIds, refs),
      ),
    ),
};
