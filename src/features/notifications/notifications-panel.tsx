import { useEffect, useRef, useState, type RefObject } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { Button } from '../../components/button.tsx';
import { useLayer } from '../../components/use-layer.ts';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { collectionReads } from '../../lib/list/collection-reads.ts';
import { downloadingEmptyText } from '../../lib/sync-status-text.ts';
import { toastError } from '../../lib/toast-store.ts';
import { useAnswer } from '../../lib/use-answer.ts';
import { markRead, unreadIds } from './mark-read.ts';
import { NotificationItem, shortDay, type NotificationRow } from './notification-item.tsx';
import { groupByDay, safePath } from './notification-words.ts';
import { useNow } from '../../lib/use-now.ts';

/** How many the panel lists ("View all" shows the rest). */
export const PANEL_ROWS = 20;

export interface NotificationsPanelProps {
  id: string;
  /** The bell's box: a press inside it is the bell's own toggle, not "outside". */
  anchor: RefObject<HTMLElement | null>;
  unread: number;
  onClose(): void;
}

/**
 * The bell's panel: the newest notifications from the mirror grouped by day (kind, title, two
 * lines of body, when, unread dot, "Waiting to sync" while a mark-read is in the outbox), "Mark
 * all read" and "View all". Escape or a press outside closes it; opening one marks it read and
 * goes to its page. On a phone it is a sheet under the top bar (styles/notifications.css).
 */
export function NotificationsPanel({ id, anchor, unread, onClose }: NotificationsPanelProps) {
  const client = useDataClient();
  const navigate = useNavigate();
  const version = useAppState((s) => s.dataVersion);
  const status = useAppState((s) => s.status);
  const online = useAppState((s) => s.online);
  const ref = useRef<HTMLDivElement>(null);
  const [busy, setBusy] = useState(false);
  useLayer({ ref, modal: false, onEscape: onClose });
  useOutsidePress(anchor, onClose);
  const page = useAnswer(
    () => collectionReads(client).query('notifications', { filter: {}, sort: 'created_desc', offset: 0, limit: PANEL_ROWS }),
    [client, version],
  );
  const rows = (page?.rows ?? []) as NotificationRow[];
  const now = useNow();

  const open = (row: NotificationRow) => {
    onClose();
    void (async () => {
      if (row.read_at === null) {
        const outcome = await markRead(client, [row.id]);
        if (!outcome.ok) toastError(outcome.message);
      }
      await navigate({ href: safePath(row.path) });
    })();
  };
  const markAll = async () => {
    setBusy(true);
    const outcome = await markRead(client, await unreadIds(client));
    setBusy(false);
    if (!outcome.ok) toastError(outcome.message);
  };

  const downloading = downloadingEmptyText(status);
  return (
    <div id={id} ref={ref} className="popover ntf-panel" role="region" aria-label="Notifications">
      <div className="ntf-panel-head">
        <h2 className="ntf-panel-title">Notifications</h2>
        <span className="muted ntf-panel-count" data-testid="panel-unread">{unread > 0 ? `${unread} unread` : 'No unread'}</span>
        <Button variant="ghost" size="sm" loading={busy} disabled={unread === 0} onClick={() => void markAll()}>
          Mark all read
        </Button>
      </div>
      {!online && <p className="ntf-offline muted">Offline: what you mark read here syncs when you reconnect.</p>}
      <div className="ntf-panel-body">
        {page === null ? (
          <p className="muted ntf-panel-note" role="status">Reading notifications on this device…</p>
        ) : rows.length === 0 ? (
          <div className="ntf-empty" role="status">
            <p className="ntf-empty-title">{downloading ? downloading.title : 'You’re all caught up'}</p>
            <p className="muted">{downloading ? downloading.body : 'Approvals waiting for you, decisions on your requests, mentions and missing receipts show here.'}</p>
          </div>
        ) : (
          groupByDay(rows, now, shortDay).map((group) => (
            <section key={group.label} className="ntf-group" aria-label={group.label}>
              <h3 className="ntf-group-label">{group.label}</h3>
              <ul className="ntf-list">
                {group.rows.map((row) => (
                  <li key={row.id}>
                    <NotificationItem row={row} now={now} onOpen={open} />
                  </li>
                ))}
              </ul>
            </section>
          ))
        )}
      </div>
      <div className="ntf-panel-foot">
        <Link to="/notifications" className="btn btn-ghost btn-sm" onClick={onClose}>
          View all
        </Link>
      </div>
    </div>
  );
}

/** Closes on a press outside the anchor (the bell and its panel). */
function useOutsidePress(anchor: RefObject<HTMLElement | null>, onClose: () => void) {
  const latest = useRef(onClose);
  useEffect(() => {
    latest.current = onClose;
  });
  useEffect(() => {
    const onDown = (e: PointerEvent) => {
      if (e.target instanceof Node && anchor.current?.contains(e.target)) return;
      latest.current();
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [anchor]);
}
