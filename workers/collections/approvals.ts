import {
  approvalEntity, type Approval, type ApprovalFilter, type approvalFilterSchema, type ApprovalSort,
} from '../../schema/entities/approval.ts';
import { QueryEngine } from '../query-engine.ts';
import type { RowShape } from '../rebase.ts';
import { specEngine, specText } from './spec-engine.ts';
import type { WorkerCollection } from './worker-collection.ts';
import { engineApprovals, serverApprovals, storedApprovals } from './generated/approvals.ts';

/**
 * Approvals in the worker (the reviewer's inbox): built from the definition alone (row shapers
 * generated from its columns, generated/approvals.ts). The inbox lists `status=PENDING` with `exclude_user_ids=[me]`, newest first.
 */

export type AnyApprovalRow = Omit<Approval, 'deleted'> & { deleted?: boolean; created_desc?: number; server?: Approval };
export type ApprovalEngineRow = Approval & { server: Approval | undefined };

const ROWS: RowShape<AnyApprovalRow, Approval, ApprovalEngineRow> = {
  server: serverApprovals,
  engine: engineApprovals,
  apply: (index, entry, row) => index.applyTo(entry, row),
};

export const approvalCollection: WorkerCollection<'approvals', AnyApprovalRow, ApprovalEngineRow> = {
  name: 'approvals',
  rows: ROWS,
  stored: storedApprovals,
  engine: (refs) =>
    new QueryEngine<ApprovalEngineRow, ApprovalFilter, ApprovalSort>(
      specEngine<ApprovalEngineRow, typeof approvalFilterSchema, ApprovalSort>(
        approvalEntity.query,
        specText<ApprovalEngineRow>(approvalEntity.searchText, approvalEntity.query.referencedIds, refs),
      ),
    ),
};
