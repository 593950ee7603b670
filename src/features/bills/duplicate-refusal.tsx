import type { RowView } from '../../../workers/api.ts';
import { Button } from '../../components/button.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { toastError, toastInfo } from '../../lib/toast-store.ts';

/**
 * Issue 25: the server refused this bill's create (or submit) as a duplicate invoice after it
 * left the device (the mirror did not know the other bill yet). The bill stays as typed; its
 * message names the other bill, and "Create anyway" sends the same command again with
 * `confirm_duplicate: true` in its place in the queue (`confirmDuplicate`), "Discard" drops it.
 * Other refusals keep the generic Retry/Discard notice.
 */
export function DuplicateRefusal({ bill, client }: { bill: Pick<RowView<'bills'>, 'failure' | 'change_seq'>; client: DataClient }) {
  const failure = bill.failure;
  if (!failure?.duplicate) return null;
  // A bill the server never created has no server version yet.
  const creating = bill.change_seq === 0;
  async function confirm() {
    if (await client.confirmDuplicate(failure!.command_id)) toastInfo('Sent again, marked as a confirmed possible duplicate.');
    else toastError('This change was already sent again or discarded.');
  }
  return (
    <div className="notice notice-error" role="alert" data-testid="duplicate-refusal">
      <strong>The server refused this bill as a possible duplicate:</strong> {failure.message}
      <div className="row-actions">
        <Button size="sm" onClick={() => void confirm()}>
          {creating ? 'Create anyway' : 'Save anyway'}
        </Button>
        <Button size="sm" variant="ghost" onClick={() => void client.discardCommand(failure.command_id)}>
          Discard
        </Button>
      </div>
    </div>
  );
}
