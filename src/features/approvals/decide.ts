import type { ApprovalObjectType } from '../../../schema/entities/approval.ts';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { toastError, toastInfo } from '../../lib/toast-store.ts';
import { reviewedText } from './approval-rows.ts';

/** What a decision needs of a row: the approval's id and what it reviews (for the words). */
export interface DecisionTarget {
  id: string;
  kind: ApprovalObjectType;
}

/**
 * Runs the decisions as commands through the worker, one per approval, claims and card requests
 * alike (offline too: each is durable in the outbox before it shows, and sent exactly once). Says
 * how many were saved; the first local refusal is shown in the worker's words. Resolves to the ids
 * queued.
 */
export async function decide(
  client: DataClient, targets: readonly DecisionTarget[], decision: { kind: 'approve' } | { kind: 'reject'; reason: string }, online: boolean,
): Promise<string[]> {
  const queued: DecisionTarget[] = [];
  let refusal: string | null = null;
  for (const target of targets) {
    const approval_id = target.id;
    const result = decision.kind === 'approve'
      ? await client.run('approval.approve', { approval_id })
      : await client.run('approval.reject', { approval_id, reason: decision.reason });
    if (result.ok) queued.push(target);
    else refusal ??= errorText(result.error);
  }
  if (queued.length > 0) toastInfo(decisionText(decision.kind, queued.map((t) => t.kind), online));
  if (refusal) toastError(refusal);
  return queued.map((t) => t.id);
}

/** "Approved 2 claims." / "Rejected 1 card request. It syncs when you're back online." */
export function decisionText(kind: 'approve' | 'reject', kinds: readonly ApprovalObjectType[], online: boolean): string {
  const verb = kind === 'approve' ? 'Approved' : 'Rejected';
  const n = kinds.length;
  const what = reviewedText(kinds);
  return online ? `${verb} ${what}.` : `${verb} ${what}. ${n === 1 ? 'It syncs' : 'They sync'} when you’re back online.`;
}
