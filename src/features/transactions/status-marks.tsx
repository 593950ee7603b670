import type { TransactionView } from '../../data-access/types.ts';
import { StatusPill, type PillTone } from '../../components/status-pill.tsx';
import { SyncMark } from '../../components/sync-mark.tsx';

/** The sync mark moved down to components/ (reimbursements show it too). */
export { SyncMark, WAITING_TO_SYNC } from '../../components/sync-mark.tsx';

/**
 * Card states in words that never collide with the sync words: an authorisation not yet
 * settled is "Authorized" (never "Pending", which people read as "not synced").
 */
export const CARD_STATE_LABELS: Record<TransactionView['state'], string> = {
  CLEARED: 'Cleared',
  PENDING: 'Authorized',
  DECLINED: 'Declined',
  REVERSED: 'Reversed',
};

const CARD_STATE_TONES: Record<TransactionView['state'], PillTone> = {
  CLEARED: 'neutral',
  PENDING: 'info',
  DECLINED: 'danger',
  REVERSED: 'warn',
};

/**
 * The marks a row carries: its unsynced edit ("Waiting to sync", or "Failed" with the server's
 * reason) and its card state when it is not simply cleared. (Missing coding shows as the GL
 * account column's dash, and has its own filter.)
 */
export function StatusMarks({ row }: { row: TransactionView }) {
  return (
    <span className="marks">
      <SyncMark row={row} />
      {row.state !== 'CLEARED' && <CardStatePill state={row.state} />}
    </span>
  );
}

export function CardStatePill({ state }: { state: TransactionView['state'] }) {
  return <StatusPill tone={CARD_STATE_TONES[state]}>{CARD_STATE_LABELS[state]}</StatusPill>;
}
