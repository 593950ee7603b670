import type { CommandInput } from '../../../schema/commands/index.ts';
import type { BillBulkRequest, BillCallFailure } from '../../../workers/api.ts';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { toastError, toastInfo } from '../../lib/toast-store.ts';
import { bulkOutcomeText, type OfferedBulkAction } from './bill-actions.ts';

/** What a bulk action answered, in words: shown in the page's result panel and toasted. */
export interface BulkOutcome {
  text: string;
  failed: number;
}

/** A refused direct call in words (offline: nothing was sent). */
export const failureText = (r: BillCallFailure): string => errorText(r.error);

/**
 * Sends a bulk action for the bills whose status allows it (`skipped`: the selected ones left
 * out; `held`: why each bill the pay rule or its match kept back was not sent) and words the
 * server's per-bill answer. Null when the call itself was refused (toasted).
 */
export async function runBulkAction(
  client: DataClient, req: BillBulkRequest & { action: OfferedBulkAction }, skipped: number, held: readonly string[] = [],
): Promise<BulkOutcome | null> {
  const r = await client.billBulkAction(req);
  if (!r.ok) {
    toastError(failureText(r));
    return null;
  }
  const outcome = bulkOutcomeText(req.action, r.results, skipped, held);
  (outcome.failed > 0 ? toastError : toastInfo)(outcome.text);
  return outcome;
}

/**
 * One bill command through the worker's outbox (offline too): `done` is toasted once the
 * command is durable here; a local refusal is toasted in the catalogue's words.
 */
export async function runBillCommand<N extends 'bill.update' | 'bill.delete' | 'bill.payNow'>(
  client: DataClient, name: N, input: CommandInput<N>, done: string,
): Promise<boolean> {
  const result = await client.run(name, input);
  if (!result.ok) {
    toastError(errorText(result.error));
    return false;
  }
  toastInfo(done);
  return true;
}
