import type { DataClient, TransactionView } from '../data-access/types.ts';
import { Button } from './button.tsx';
import { ConflictNotice } from './conflict-notice.tsx';

/**
 * A change to a row (claim, card, bill, transaction) that the server refused: a field conflict's
 * own notice (Review changes), else the server's words with Retry and Discard.
 */
export function RefusedChange({ row, client }: { row: Pick<TransactionView, 'failure'>; client: DataClient }) {
  const failure = row.failure;
  if (!failure) return null;
  if (failure.conflict) return <ConflictNotice commandId={failure.command_id} />;
  return (
    <div className="notice notice-error" role="alert">
      <strong>The server refused this change:</strong> {failure.message}
      <div className="row-actions">
        <Button size="sm" onClick={() => void client.retryCommand(failure.command_id)}>
          Retry
        </Button>
        <Button size="sm" variant="ghost" onClick={() => void client.discardCommand(failure.command_id)}>
          Discard
        </Button>
      </div>
    </div>
  );
}
