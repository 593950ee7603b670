import type { NotificationKind } from '../../../schema/entities/notification.ts';

export { badgeText, bellLabel } from './bell-words.ts';

/**
 * The notifications centre's words, pure (tested): each kind's label
 * and mark, relative times, the panel's day groups, and the chunks "Mark all read" sends.
 */

/** Each kind in words (the filter's options) and its mark in the list (aria-hidden: the title says it). */
export const KIND_LABELS: Record<NotificationKind, string> = {
  approval_waiting: 'Approvals waiting',
  approved: 'Approved',
  rejected: 'Rejected',
  missing_items: 'Missing items',
  mention: 'Mentions',
  comment: 'Comments',
  workflow: 'Workflows',
  large_transaction: 'Large transactions',
};

/** Short glyphs, no icon font (the bell stays tiny): each a shape a glance tells apart. */
export const KIND_ICONS: Record<NotificationKind, string> = {
  approval_waiting: '⏳',
  approved: '✓',
  rejected: '✕',
  missing_items: '!',
  mention: '@',
  comment: '💬',
  workflow: '⚙',
  large_transaction: '$',
};

/** The tone of a kind's mark (its class `ntf-icon-<tone>`). */
export const KIND_TONES: Record<NotificationKind, 'info' | 'ok' | 'danger' | 'warn'> = {
  approval_waiting: 'info', approved: 'ok', rejected: 'danger', missing_items: 'warn',
  mention: 'info', comment: 'info', workflow: 'info', large_transaction: 'warn',
};

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "just now", "5 min ago", "3 h ago", "yesterday", "4 days ago", then the day ("12 Nov"). */
export function relativeTime(at: string, now: number, formatDay: (ms: number) => string): string {
  const ms = Date.parse(at);
  const ago = now - ms;
  if (ago < MINUTE) return 'just now';
  if (ago < HOUR) return `${Math.floor(ago / MINUTE)} min ago`;
  if (ago < DAY) return `${Math.floor(ago / HOUR)} h ago`;
  const days = dayDiff(ms, now);
  if (days <= 1) return 'yesterday';
  if (days < 7) return `${days} days ago`;
  return formatDay(ms);
}

/** Whole local calendar days between two moments (0: the same day). */
function dayDiff(ms: number, now: number): number {
  const a = new Date(ms);
  const b = new Date(now);
  const start = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  return Math.round((start(b) - start(a)) / DAY);
}

/** A day group's heading: "Today", "Yesterday", else the day. */
export function dayLabel(at: string, now: number, formatDay: (ms: number) => string): string {
  const ms = Date.parse(at);
  const days = dayDiff(ms, now);
  if (days <= 0) return 'Today';
  if (days === 1) return 'Yesterday';
  return formatDay(ms);
}

/** Rows (newest first) grouped by local day, in order; each group named by `dayLabel`. */
export function groupByDay<T extends { created_at: string }>(rows: readonly T[], now: number, formatDay: (ms: number) => string): { label: string; rows: T[] }[] {
  const groups: { label: string; rows: T[] }[] = [];
  for (const row of rows) {
    const label = dayLabel(row.created_at, now, formatDay);
    const last = groups[groups.length - 1];
    if (last?.label === label) last.rows.push(row);
    else groups.push({ label, rows: [row] });
  }
  return groups;
}

/** Ids in chunks of at most `size` (the command takes MAX_MARK_READ_IDS at most), duplicates dropped. */
export function chunkIds(ids: readonly string[], size: number): string[][] {
  if (size < 1) throw new Error('chunk size must be at least 1');
  const unique = [...new Set(ids)];
  const chunks: string[][] = [];
  for (let i = 0; i < unique.length; i += size) chunks.push(unique.slice(i, i + size));
  return chunks;
}

const APP_ORIGIN = 'https://app.invalid';

/**
 * Where opening a notification goes: its in-app path, never another origin. The path is read as
 * a browser reads it (the URL parser drops tabs and newlines and takes `\\` for `/`, so
 * `/\t/host` and `/\\host` are another host, as `//host` is), and only a path that stays on the
 * app's origin is followed; anything else stays on /notifications.
 */
export function safePath(path: string): string {
  if (!path.startsWith('/')) return '/notifications';
  let url: URL;
  try {
    url = new URL(path, APP_ORIGIN);
  } catch {
    return '/notifications';
  }
  return url.origin === APP_ORIGIN ? `${url.pathname}${url.search}${url.hash}` : '/notifications';
}
