import {
  reimbursementEntity, type Reimbursement, type ReimbursementFilter, type reimbursementFilterSchema, type ReimbursementSort,
} from '../../schema/entities/reimbursement.ts';
import { occurredDesc, type MirroredRow } from '../../schema/mirror.ts';
import { QueryEngine } from '../query-engine.ts';
import type { RowShape } from '../rebase.ts';
import { specEngine, specText } from './spec-engine.ts';
import type { WorkerCollection } from './worker-collection.ts';

/**
 * Reimbursements in the worker: built from the definition alone (spec-engine.ts: the spec's
 * filter, comparators and search text). A claim list is small (a person's or a team's claims),
 * so no typed sort keys or hand-shaped rows are needed.
 */

/** A claim as the worker meets it: stored (no `deleted`, with the negated date), wire, or engine row. */
export type AnyReimbursementRow = Omit<Reimbursement, 'deleted'> & { deleted?: boolean; date_desc?: number; server?: Reimbursement };
/** The engine's row: the claim as shown, with the confirmed server row underneath while commands are on top. */
export type ReimbursementEngineRow = Reimbursement & { server: Reimbursement | undefined };

function serverRow(r: AnyReimbursementRow): Reimbursement {
  const { date_desc, server, ...row } = r;
  void date_desc;
  void server;
  // Rows stored before claims carried receipts read as none.
  return { ...row, receipt_ids: row.receipt_ids ?? [], deleted: false };
}

const ROWS: RowShape<AnyReimbursementRow, Reimbursement, ReimbursementEngineRow> = {
  server: serverRow,
  engine: (r, server) => ({ ...serverRow(r), server }),
  apply: (index, entry, row) => index.applyTo(entry, row),
};

/** The row to store: the server's fields without `deleted`, plus the indexed negated claim date. */
function stored(r: Reimbursement): MirroredRow<'reimbursements'> {
  const { deleted, ...row } = r;
  void deleted;
  return { ...row, date_desc: occurredDesc(r.transaction_date) };
}

export const reimbursementCollection: WorkerCollection<'reimbursements', AnyReimbursementRow, ReimbursementEngineRow> = {
  name: 'reimbursements',
  rows: ROWS,
  stored,
  engine: (refs) =>
    new QueryEngine<ReimbursementEngineRow, ReimbursementFilter, ReimbursementSort>(
      specEngine<ReimbursementEngineRow, typeof reimbursementFilterSchema, ReimbursementSort>(
        reimbursementEntity.query,
        specText<ReimbursementEngineRow>(reimbursementEntity.searchText, reimbursementEntity.query.referencedIds, refs),
      ),
    ),
};
