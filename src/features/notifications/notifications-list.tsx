import type { ReactNode } from 'react';
import { listKeyHint } from '../../lib/list/key-hint.ts';
import type { ListColumn, ListFilter, ListSpec } from '../../lib/list/list-spec.ts';
import { KindIcon, NotificationText, type NotificationRow } from './notification-item.tsx';
import { KIND_LABELS } from './notification-words.ts';

const KEY_HINT = listKeyHint({});
/** A notification as a card on a phone (`.grid-cards .ntf-row` in notifications.css has this height). */
const CARD_HEIGHT = 96;

export const KIND_OPTIONS = Object.entries(KIND_LABELS).map(([value, label]) => ({ value, label }));

function columns(now: number): ListColumn<NotificationRow>[] {
  return [
    {
      key: 'notification', header: 'Notification', className: 'cell-ntf', rowHeader: true, sorted: 'descending',
      cell: (r) => (
        <span className="ntf-cell">
          <KindIcon row={r} />
          <NotificationText row={r} now={now} />
        </span>
      ),
      title: (r) => (r.body ? `${r.title}\n${r.body}` : r.title),
    },
    { key: 'kind', header: 'Kind', className: 'cell-kind', cell: (r) => KIND_LABELS[r.kind] },
    {
      key: 'state', header: 'State', className: 'cell-read',
      cell: (r) => (r.read_at === null ? <span className="ntf-unread-mark"><span className="ntf-dot" aria-hidden="true" />Unread</span> : 'Read'),
      muted: (r) => r.read_at !== null,
    },
  ];
}

export interface NotificationsSpecOptions {
  now: number;
  show: 'unread' | 'all';
  kind: ListFilter;
  filtered: boolean;
  clearFilters(): void;
  toolbarExtra: ReactNode;
}

/** The notifications list, declared: newest first, a kind filter, cards on a phone; Enter or a click opens one. */
export function notificationsSpec(o: NotificationsSpecOptions): ListSpec<NotificationRow> {
  const empty = emptyWords(o.show, o.kind.value !== '');
  return {
    label: 'Notifications',
    rowIdPrefix: 'ntf-row',
    rowClassName: 'ntf-row',
    gridClassName: 'grid-ntf',
    rowHeight: 76,
    phone: { className: 'grid-cards', rowHeight: CARD_HEIGHT },
    columns: columns(o.now),
    pending: (r) => r.pending ?? null,
    filters: [o.kind],
    ...(o.filtered ? { clearFilters: o.clearFilters } : {}),
    toolbarExtra: o.toolbarExtra,
    partialNouns: ['notification', 'notifications'],
    countText: (n) => `${n} ${n === 1 ? 'notification' : 'notifications'}`,
    emptyText: empty.text,
    emptyHint: empty.hint,
    waitingText: 'Opening your saved notifications…',
    loadingWhat: 'notifications',
    keyHint: KEY_HINT,
  };
}

/** What an empty list says once the mirror is complete (ListEmpty says "still downloading" before). */
export function emptyWords(show: 'unread' | 'all', kindFiltered: boolean): { text: string; hint: string } {
  if (kindFiltered) return { text: 'No notifications of this kind.', hint: 'Choose another kind, or All kinds.' };
  if (show === 'unread') return { text: 'You’re all caught up.', hint: 'Nothing unread. Earlier notifications are under All.' };
  return { text: 'No notifications yet.', hint: 'Approvals waiting for you, decisions on your requests, mentions and missing receipts show here.' };
}
