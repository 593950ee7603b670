import type { TransactionView } from '../../data-access/types.ts';

const STATE_LABELS: Record<TransactionView['state'], string | null> = {
  CLEARED: null,
  PENDING: 'Authorized',
  DECLINED: 'Declined',
  REVERSED: 'Reversed',
};

/**
 * The marks a row carries: its unsynced edit ("Pending" until the server confirms, or
 * "Failed" with the server's reason) and its card state. (Missing coding shows as the GL
 * account column's dash, and has its own filter.)
 */
export function StatusMarks({ row }: { row: TransactionView }) {
  const state = STATE_LABELS[row.state];
  return (
    <span className="marks">
      <SyncMark row={row} />
      {state && <span className={`badge badge-state-${row.state.toLowerCase()}`}>{state}</span>}
    </span>
  );
}

export function SyncMark({ row }: { row: Pick<TransactionView, 'pending' | 'failure'> }) {
  switch (row.pending) {
    case null:
      return null;
    case 'pending':
    case 'sending':
      return (
        <span className="badge badge-pending" title="Saved on this device; not yet confirmed by the server">
          Pending<span className="sr-only"> sync</span>
        </span>
      );
    case 'needs_step_up':
      return (
        <span className="badge badge-warn" title="Additional verification is needed for this action.">
          Needs verification
        </span>
      );
    case 'failed':
    case 'conflict':
      return (
        <span className="badge badge-danger" title={row.failure?.message ?? 'Refused by the server'}>
          Failed<span className="sr-only">: {row.failure?.message ?? 'refused by the server'}</span>
        </span>
      );
  }
}
