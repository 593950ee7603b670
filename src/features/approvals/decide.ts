import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { toastError, toastInfo } from '../../lib/toast-store.ts';

/**
 * Runs the decisions as commands through the worker, one per approval (offline too: each is
 * durable in the outbox before it shows, and sent exactly once). Says how many were saved;
 * the first local refusal is shown in the worker's words. Resolves to the ids queued.
 */
export async function decide(
  client: DataClient, ids: readonly string[], decision: { kind: 'approve' } | { kind: 'reject'; reason: string }, online: boolean,
): Promise<string[]> {
  const queued: string[] = [];
  let refusal: string | null = null;
  for (const approval_id of ids) {
    const result = decision.kind === 'approve'
      ? await client.run('approval.approve', { approval_id })
      : await client.run('approval.reject', { approval_id, reason: decision.reason });
    if (result.ok) queued.push(approval_id);
    else refusal ??= errorText(result.error);
  }
  if (queued.length > 0) toastInfo(decisionText(decision.kind, queued.length, online));
  if (refusal) toastError(refusal);
  return queued;
}

/** "Approved 2 claims." / "Rejected 1 claim. It syncs when you're back online." */
export function decisionText(kind: 'approve' | 'reject', n: number, online: boolean): string {
  const verb = kind === 'approve' ? 'Approved' : 'Rejected';
  const what = `${n} claim${n === 1 ? '' : 's'}`;
  return online ? `${verb} ${what}.` : `${verb} ${what}. ${n === 1 ? 'It syncs' : 'They sync'} when you’re back online.`;
}
