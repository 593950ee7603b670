import type { RowView } from '../../../workers/contracts/views.ts';
import { StatusPill } from '../../components/status-pill.tsx';
import { WAITING_TO_SYNC } from '../../components/sync-mark.tsx';
import { formatShortDay } from '../../lib/format.ts';
import { KIND_ICONS, KIND_LABELS, KIND_TONES, relativeTime } from './notification-words.ts';

/** A notification as the mirror shows it (mark-read made offline applied), with its outbox marks. */
export type NotificationRow = RowView<'notifications'>;

/** "12 Nov" for a day older than a week. */
export const shortDay = (ms: number) => formatShortDay(ms);

/** The kind's mark: a glyph in a tinted circle; the kind's words for assistive tech come from the title. */
export function KindIcon({ row }: { row: NotificationRow }) {
  return (
    <span className={`ntf-icon ntf-icon-${KIND_TONES[row.kind]}`} aria-hidden="true" title={KIND_LABELS[row.kind]}>
      {KIND_ICONS[row.kind]}
    </span>
  );
}

/**
 * The row's outbox state in words: marked read on this device and not yet confirmed is "Waiting
 * to sync" (never "synced"); refused says so. Not `SyncMark`, whose conflict button cannot sit
 * inside the item's button.
 */
export function ReadMark({ row }: { row: NotificationRow }) {
  if (row.pending === null) return null;
  if (row.pending === 'failed' || row.pending === 'conflict') {
    return <StatusPill tone="danger" title={row.failure?.message}>Not synced</StatusPill>;
  }
  return <StatusPill tone="sync">{WAITING_TO_SYNC}</StatusPill>;
}

/** Title (with "Unread" for assistive tech), body (two lines at most) and when, as the panel and the page show them. */
export function NotificationText({ row, now }: { row: NotificationRow; now: number }) {
  const unread = row.read_at === null;
  return (
    <span className="ntf-text">
      <span className="ntf-title">
        {unread && <span className="sr-only">Unread: </span>}
        {row.title}
      </span>
      {row.body && <span className="ntf-body">{row.body}</span>}
      <span className="ntf-meta">
        <time dateTime={row.created_at}>{relativeTime(row.created_at, now, shortDay)}</time>
        <ReadMark row={row} />
      </span>
    </span>
  );
}

/** One notification in the bell's panel: a button that opens it (and marks it read). */
export function NotificationItem({ row, now, onOpen }: { row: NotificationRow; now: number; onOpen(row: NotificationRow): void }) {
  const unread = row.read_at === null;
  return (
    <button type="button" className={unread ? 'ntf-item ntf-unread' : 'ntf-item'} data-testid="notification-item" data-unread={unread} onClick={() => onOpen(row)}>
      <KindIcon row={row} />
      <NotificationText row={row} now={now} />
      {unread && <span className="ntf-dot" aria-hidden="true" />}
    </button>
  );
}
