import type { ApprovalInstance } from '../../schema/api/calls-approval-policies.ts';
import { reresolveInstance } from '../../schema/approval-policy.ts';
import type { ApprovalObjectType } from '../../schema/entities/approval.ts';
import { ApiError, validationError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { chainNow, instanceSubject, lockInstance, stateOf, storeInstance } from './approval-policies.ts';
import { openStepApproval } from './approval-rows.ts';
import { writeMirrored } from './collections.ts';
import { pointSpendRequestAt } from './procurement/fulfil.ts';

/**
 * §7 PATCH approval instance policy (issue 29): an admin re-resolves a running instance with the
 * policy that governs its object now (groups and people as they stand). Decided steps stay
 * decided (schema/approval-policy.ts `reresolveInstance`). When the open step changes, its
 * PENDING approval is canceled and the new open step's approval opened, each with a seq, so
 * mirrors drop the old one and the new approvers get theirs; a spend request is pointed at it and
 * a bill re-stamped, as a decision that moves the chain does (domain/approvals.ts).
 */
export async function reapplyInstancePolicy(tx: Queryable, businessId: string, instanceId: string, at: string): Promise<ApprovalInstance> {
  return writeMirrored(tx, businessId, 1, async (w) => {
    const instance = await lockInstance(tx, businessId, instanceId);
    if (instance.status !== 'PENDING') throw validationError({ instance_id: `This approval is ${instance.status.toLowerCase()}: its chain cannot change.` });
    const subject = await instanceSubject(tx, instance.id);
    if (!subject) throw new ApiError('POLICY_7024');
    const { chain, version } = await chainNow(tx, businessId, instance.object_type, subject);
    const next = reresolveInstance(stateOf(instance), chain);
    if (!next.ok) throw new ApiError('POLICY_7023');
    await tx.query('UPDATE approval_instances SET policy_version = $2 WHERE id = $1', [instance.id, version]);
    const stored = await storeInstance(tx, businessId, instance.id, next.instance, at);
    if (!next.open_changed) return stored;
    const [closed] = await tx.query<{ object_type: ApprovalObjectType }>(
      `UPDATE approvals SET status = 'CANCELED', change_seq = $3, updated_at = $4
        WHERE business_id = $1 AND instance_id = $2 AND status = 'PENDING' RETURNING object_type`,
      [businessId, instance.id, w.seqs.first, at],
    );
    const type = closed?.object_type;
    if (!type) return stored;
    const opened = await openStepApproval(tx, stored, next.open_index, businessId, type, (await w.reserve(1)).last, at);
    if (type === 'spend_request') await pointSpendRequestAt(tx, instance.object_id, opened, (await w.reserve(1)).last);
    if (type === 'bill') {
      await tx.query('UPDATE bills SET change_seq = $3, updated_at = $4 WHERE business_id = $1 AND id = $2',
        [businessId, instance.object_id, (await w.reserve(1)).last, at]);
    }
    return stored;
  });
}
