import type { TransactionView } from '../../data-access/types.ts';
import { CardStatePill } from '../../components/transaction-state-pill.tsx';
import { SyncMark } from '../../components/sync-mark.tsx';
import { HeldPill } from '../../components/held-charges.tsx';

/** The sync mark moved down to components/ (reimbursements show it too). */
export { SyncMark, WAITING_TO_SYNC } from '../../components/sync-mark.tsx';

/** The card-state pill moved down to components/ (a card's latest transactions show it too). */
export { CARD_STATE_LABELS, CardStatePill } from '../../components/transaction-state-pill.tsx';

/**
 * The marks a row carries: its unsynced edit ("Waiting to sync", or "Failed" with the server's
 * reason) and its card state when it is not simply cleared. (Missing coding shows as the GL
 * account column's dash, and has its own filter.)
 */
export function StatusMarks({ row }: { row: TransactionView }) {
  return (
    <span className="marks">
      <SyncMark row={row} />
      <HeldPill row={row} />
      {row.state !== 'CLEARED' && <CardStatePill state={row.state} />}
    </span>
  );
}
