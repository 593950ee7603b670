import { useCallback, useMemo, useState } from 'react';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import type { NotificationKind } from '../../../schema/entities/notification.ts';
import { Button } from '../../components/button.tsx';
import { Tabs } from '../../components/tabs.tsx';
import { useAppState } from '../../data-access/data-context.tsx';
import { collectionReads } from '../../lib/list/collection-reads.ts';
import { ListPage } from '../../lib/list/list-page.tsx';
import type { ListFilter } from '../../lib/list/list-spec.ts';
import { useListPage } from '../../lib/list/use-list-page.ts';
import { useRows } from '../../lib/list/use-rows.ts';
import { toastError, toastInfo } from '../../lib/toast-store.ts';
import { usePageData } from '../../lib/use-page-data.ts';
import { markRead, unreadIds } from './mark-read.ts';
import type { NotificationRow } from './notification-item.tsx';
import { KIND_OPTIONS, notificationsSpec } from './notifications-list.tsx';
import { KIND_LABELS, safePath } from './notification-words.ts';
import { knownKind, type NotificationsSearch } from './search-params.ts';
import { useUnreadCount } from './use-unread-count.ts';
import { useNow } from '../../lib/use-now.ts';

// The bell loads its panel from here: the page and the panel share one chunk.
export { NotificationsPanel } from './notifications-panel.tsx';

const routeApi = getRouteApi('/_app/notifications');

/**
 * Issue 29: /notifications, the person's notifications from the mirror (offline too), newest
 * first: Unread / All, a kind filter, j/k and Enter like every list. Opening one marks it read
 * (the outbox: "Waiting to sync" until the server confirms) and goes to its page.
 */
export function NotificationsPage() {
  const search = routeApi.useSearch();
  const navigate = routeApi.useNavigate();
  const go = useNavigate();
  const { client, dataVersion } = usePageData();
  const online = useAppState((s) => s.online);
  const unread = useUnreadCount() ?? 0;
  const [busy, setBusy] = useState(false);
  const show = search.show ?? 'all';
  const kindParam = knownKind(search.kind, KIND_LABELS);
  const now = useNow();
  const setSearch = useCallback(
    (patch: Partial<NotificationsSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true }),
    [navigate],
  );

  const filter = useMemo(() => ({ ...(show === 'unread' ? { unread: true } : {}), ...(kindParam ? { kinds: [kindParam] } : {}) }), [show, kindParam]);
  const key = JSON.stringify(filter);
  const rows = useRows<NotificationRow>({
    key,
    version: dataVersion,
    what: 'Notifications',
    read: (offset, limit) => collectionReads(client).query('notifications', { filter, sort: 'created_desc', offset, limit }),
  });
  const open = useCallback(
    (row: NotificationRow) => void (async () => {
      if (row.read_at === null) {
        const outcome = await markRead(client, [row.id]);
        if (!outcome.ok) toastError(outcome.message);
      }
      await go({ href: safePath(row.path) });
    })(),
    [client, go],
  );
  const list = useListPage({ key, rows, onOpen: open });

  const markAll = useCallback(async () => {
    setBusy(true);
    const outcome = await markRead(client, await unreadIds(client));
    setBusy(false);
    if (!outcome.ok) toastError(outcome.message);
    else if (outcome.queued > 0) toastInfo(online ? `${outcome.queued} marked read.` : `${outcome.queued} marked read on this device: they sync when you reconnect.`);
  }, [client, online]);

  const kind = useMemo<ListFilter>(
    () => ({
      key: 'kind', label: 'Kind', value: kindParam ?? '', options: KIND_OPTIONS, leading: [{ value: '', label: 'All kinds' }],
      onChange: (v) => setSearch({ kind: (v || undefined) as NotificationKind | undefined }),
    }),
    [kindParam, setSearch],
  );
  const filtered = kindParam !== undefined;
  const spec = useMemo(
    () => notificationsSpec({
      now, show, kind, filtered, clearFilters: () => setSearch({ kind: undefined }),
      toolbarExtra: (
        <Button size="sm" variant="secondary" loading={busy} disabled={unread === 0} onClick={() => void markAll()}>
          Mark all read
        </Button>
      ),
    }),
    [now, show, kind, filtered, setSearch, busy, unread, markAll],
  );

  const body = <ListPage spec={spec} list={list} loading={rows.total === null} filtered={filtered || show === 'unread'} />;
  return (
    <div className="notifications">
      <div className="page-header">
        <h1>Notifications</h1>
        <span className="spacer" />
        {!online && <span className="muted ntf-offline-note">Offline: marking read syncs when you reconnect.</span>}
      </div>
      <Tabs
        label="Which notifications"
        tabs={[
          { key: 'all', label: 'All', panel: body },
          { key: 'unread', label: unread > 0 ? `Unread (${unread > 99 ? '99+' : unread})` : 'Unread', panel: body },
        ]}
        selected={show}
        onSelect={(next) => setSearch({ show: next === 'unread' ? 'unread' : undefined })}
      />
    </div>
  );
}
