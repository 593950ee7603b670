import {
  approvalEntity, type Approval, type ApprovalFilter, type approvalFilterSchema, type ApprovalSort,
} from '../../schema/entities/approval.ts';
import { occurredDesc, type MirroredRow } from '../../schema/mirror.ts';
import { QueryEngine } from '../query-engine.ts';
import type { RowShape } from '../rebase.ts';
import { specEngine, specText } from './spec-engine.ts';
import type { WorkerCollection } from './worker-collection.ts';

/**
 * Approvals in the worker (the reviewer's inbox): built from the definition alone, like
 * reimbursements. The inbox lists `status=PENDING` with `exclude_user_ids=[me]`, newest first.
 */

export type AnyApprovalRow = Omit<Approval, 'deleted'> & { deleted?: boolean; created_desc?: number; server?: Approval };
export type ApprovalEngineRow = Approval & { server: Approval | undefined };

function serverRow(r: AnyApprovalRow): Approval {
  const { created_desc, server, ...row } = r;
  void created_desc;
  void server;
  return { ...row, deleted: false };
}

const ROWS: RowShape<AnyApprovalRow, Approval, ApprovalEngineRow> = {
  server: serverRow,
  engine: (r, server) => ({ ...serverRow(r), server }),
  apply: (index, entry, row) => index.applyTo(entry, row),
};

function stored(r: Approval): MirroredRow<'approvals'> {
  const { deleted, ...row } = r;
  void deleted;
  return { ...row, created_desc: occurredDesc(r.created_at) };
}

export const approvalCollection: WorkerCollection<'approvals', AnyApprovalRow, ApprovalEngineRow> = {
  name: 'approvals',
  rows: ROWS,
  stored,
  engine: (refs) =>
    new QueryEngine<ApprovalEngineRow, ApprovalFilter, ApprovalSort>(
      specEngine<ApprovalEngineRow, typeof approvalFilterSchema, ApprovalSort>(
        approvalEntity.query,
        specText<ApprovalEngineRow>(approvalEntity.searchText, approvalEntity.query.referencedIds, refs),
      ),
    ),
};
