import {
  reimbursementEntity, type Reimbursement, type ReimbursementFilter, type reimbursementFilterSchema, type ReimbursementSort,
} from '../../schema/entities/reimbursement.ts';
import { QueryEngine } from '../query-engine.ts';
import type { RowShape } from '../rebase.ts';
import { specEngine, specText } from './spec-engine.ts';
import type { WorkerCollection } from './worker-collection.ts';
import { engineReimbursements, serverReimbursements, storedReimbursements } from './generated/reimbursements.ts';

/**
 * Reimbursements in the worker: built from the definition alone (spec-engine.ts: the spec's
 * filter, comparators and search text; row shapers generated from its columns,
 * generated/reimbursements.ts). A claim list is small (a person's or a team's claims), so no
 * typed sort keys are needed.
 */

/** A claim as the worker meets it: stored (no `deleted`, with the negated date), wire, or engine row. */
export type AnyReimbursementRow = Omit<Reimbursement, 'deleted'> & { deleted?: boolean; date_desc?: number; server?: Reimbursement };
/** The engine's row: the claim as shown, with the confirmed server row underneath while commands are on top. */
export type ReimbursementEngineRow = Reimbursement & { server: Reimbursement | undefined };

const ROWS: RowShape<AnyReimbursementRow, Reimbursement, ReimbursementEngineRow> = {
  server: serverReimbursements,
  engine: engineReimbursements,
  apply: (index, entry, row) => index.applyTo(entry, row),
};

export const reimbursementCollection: WorkerCollection<'reimbursements', AnyReimbursementRow, ReimbursementEngineRow> = {
  name: 'reimbursements',
  rows: ROWS,
  stored: storedReimbursements,
  engine: (refs) =>
    new QueryEngine<ReimbursementEngineRow, ReimbursementFilter, ReimbursementSort>(
      specEngine<ReimbursementEngineRow, typeof reimbursementFilterSchema, ReimbursementSort>(
        reimbursementEntity.query,
        specText<ReimbursementEngineRow>(reimbursementEntity.searchText, reimbursementEntity.query.referencedIds, refs),
      ),
    ),
};
