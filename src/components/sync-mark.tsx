import { StatusPill } from './status-pill.tsx';
import { openConflict, REVIEW_CHANGES } from '../lib/conflict-store.ts';

/** The sync word of an unsynced edit: "Waiting to sync" until the server confirms it. */
export const WAITING_TO_SYNC = 'Waiting to sync';

/** A row's outbox state, as every list row carries it (`RowView`'s `pending` and `failure`). */
export interface SyncMarkRow {
  pending: 'pending' | 'sending' | 'needs_step_up' | 'failed' | 'conflict' | null;
  failure: { command_id: string; message: string; conflict?: true } | null;
}

/**
 * The mark of a row whose command is still in the outbox ("Waiting to sync"), parked on a
 * step-up, or refused ("Failed" with the server's reason). Shared by every list (transactions,
 * reimbursements), so one word always means the same sync state.
 */
export function SyncMark({ row }: { row: SyncMarkRow }) {
  // Issue 24: someone else changed a field this device's change also changed; the conflict
  // drawer shows both (also while a younger edit of the row is still waiting).
  const conflict = row.failure?.conflict ? row.failure : null;
  if (conflict && row.pending !== null) {
    return (
      <button
        type="button"
        className="pill pill-warn pill-button"
        title="Someone else changed this while your change was waiting to sync"
        // Inside a list row: opens the review, not the row.
        onClick={(e) => {
          e.stopPropagation();
          openConflict(conflict.command_id);
        }}
        onKeyDown={(e) => e.stopPropagation()}
      >
        {REVIEW_CHANGES}
      </button>
    );
  }
  switch (row.pending) {
    case null:
      return null;
    case 'pending':
    case 'sending':
      return (
        <StatusPill tone="sync" title="Saved on this device; not yet confirmed by the server">
          {WAITING_TO_SYNC}
        </StatusPill>
      );
    case 'needs_step_up':
      return (
        <StatusPill tone="warn" title="Additional verification is needed for this action.">
          Needs verification
        </StatusPill>
      );
    case 'failed':
    case 'conflict':
      return (
        <StatusPill tone="danger" title={row.failure?.message ?? 'Refused by the server'}>
          Failed<span className="sr-only">: {row.failure?.message ?? 'refused by the server'}</span>
        </StatusPill>
      );
  }
}
