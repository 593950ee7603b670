import { approvalEntity } from '../../schema/entities/approval.ts';
import { specCollection } from './spec-collection.ts';
import { engineApprovals, serverApprovals, storedApprovals } from './generated/approvals.ts';

/**
 * Approvals in the worker (the reviewer's inbox): built from the definition alone (row shapers
 * generated from its columns, generated/approvals.ts). The inbox lists `status=PENDING` with `exclude_user_ids=[me]`, newest first.
 */
export const approvalCollection = specCollection(approvalEntity, {
  server: serverApprovals, engine: engineApprovals, stored: storedApprovals,
});
