import { useCallback, useEffect, useMemo, useState } from 'react';
import { getRouteApi } from '@tanstack/react-router';
import type { SpendUser } from '../../../schema/entities/spend-user.ts';
import { Button } from '../../components/button.tsx';
import { Tabs } from '../../components/tabs.tsx';
import { useAppState } from '../../data-access/data-context.tsx';
import { collectionReads } from '../../lib/list/collection-reads.ts';
import { ListPage } from '../../lib/list/list-page.tsx';
import { useListPage } from '../../lib/list/use-list-page.ts';
import { useRows } from '../../lib/list/use-rows.ts';
import { usePageCommands } from '../../lib/page-commands.ts';
import { usePageData } from '../../lib/use-page-data.ts';
import { clearNewRequest, newRequestCommand, peekNewRequest } from './commands.ts';
import { NewRequestDialog } from './new-request-dialog.tsx';
import { RequestDrawer } from './request-drawer.tsx';
import { hasTeamTab, teamIds } from './request-form.ts';
import { requestColumns, requestsSpec, type RequestRow } from './requests-list.tsx';
import { REQUEST_SORT, requestFilter, requestQueryKey, type RequestsSearch } from './search-params.ts';
import { useRequestNames } from './use-request-names.ts';
import { SavedViewsBar } from '../../components/saved-views/saved-views-bar.tsx';

const routeApi = getRouteApi('/_app/requests');

/**
 * Issue 28: /requests — the viewer's spend requests from the mirror (offline too), newest first,
 * with status, amount, type and what came of each (the card, the purchase order, the budget);
 * Status and Type filters; managers, bookkeepers and admins also have a Team tab. "New request"
 * opens the dialog (the `spendRequest.create` command: shown at once, waiting to sync); a row
 * opens its drawer (details, timeline, cancel, documents).
 */
export function RequestsPage() {
  const { user } = usePageData();
  if (!user) return null;
  return <Requests viewer={user} />;
}

function Requests({ viewer }: { viewer: SpendUser }) {
  const search = routeApi.useSearch();
  const navigate = routeApi.useNavigate();
  const { client, currency, dataVersion } = usePageData();
  const referenceVersion = useAppState((s) => s.referenceVersion);
  const { reference, names } = useRequestNames(client, referenceVersion);
  const setSearch = useCallback(
    (patch: Partial<RequestsSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true }),
    [navigate],
  );

  const teamTab = hasTeamTab(viewer);
  const view = teamTab && search.view === 'team' ? 'team' : 'mine';
  const users = reference.data.users;
  const team = useMemo(() => (view === 'team' ? teamIds(viewer, users) : []), [view, viewer, users]);
  const filter = useMemo(() => requestFilter({ view, status: search.status, type: search.type }, viewer.id, team), [view, search.status, search.type, viewer.id, team]);
  const key = requestQueryKey(filter);
  const rows = useRows<RequestRow>({
    key,
    version: dataVersion,
    what: 'Requests',
    read: (offset, limit) => collectionReads(client).query('spend_requests', { filter, sort: REQUEST_SORT, offset, limit }),
  });

  const [creating, setCreating] = useState(() => peekNewRequest() || search.new === 'request');
  /** The draft the request form edits (from its drawer's "Edit draft"). */
  const [editing, setEditing] = useState<RequestRow | null>(null);
  useEffect(clearNewRequest, []);
  const openNew = useCallback(() => setCreating(true), []);
  usePageCommands(useMemo(() => [newRequestCommand(() => setCreating(true))], []));
  const openRow = useCallback((row: RequestRow) => setSearch({ open: row.id }), [setSearch]);
  const closeRow = useCallback(() => setSearch({ open: undefined }), [setSearch]);
  const list = useListPage({ key, rows, openId: search.open, onOpen: openRow, onClose: closeRow, dialogOpen: creating || editing !== null });

  const filtered = search.status !== undefined || search.type !== undefined;
  const columns = useMemo(() => requestColumns(names, view === 'team'), [names, view]);
  const spec = useMemo(
    () =>
      requestsSpec({
        columns, names, team: view === 'team', status: search.status ?? '', type: search.type ?? '', filtered, waiting: rows.waiting, onNew: openNew,
        setStatus: (v) => setSearch({ status: (v || undefined) as RequestsSearch['status'], open: undefined }),
        setType: (v) => setSearch({ type: (v || undefined) as RequestsSearch['type'], open: undefined }),
        clearFilters: () => setSearch({ status: undefined, type: undefined }),
      }),
    [columns, names, view, search.status, search.type, filtered, rows.waiting, openNew, setSearch],
  );

  const body = <ListPage spec={spec} list={list} loading={rows.total === null} filtered={filtered} quiet={creating || editing !== null} />;
  return (
    <div className="requests-page">
      <div className="page-header">
        <h1>Requests</h1>
        <SavedViewsBar list="requests" />
        <span className="spacer" />
        <Button variant="primary" onClick={openNew}>
          New request
        </Button>
      </div>
      {teamTab ? (
        <Tabs
          label="Whose requests"
          tabs={[
            { key: 'mine', label: 'My requests', panel: body },
            { key: 'team', label: 'Team', panel: body },
          ]}
          selected={view}
          onSelect={(next) => setSearch({ view: next === 'team' ? 'team' : undefined, open: undefined })}
        />
      ) : (
        body
      )}
      {search.open && (
        <RequestDrawer id={search.open} client={client} viewer={viewer} names={names} version={dataVersion} onEdit={setEditing} onClose={() => {
          closeRow();
          list.gridElement()?.focus();
        }} returnFocus={list.gridElement} />
      )}
      {creating && (
        <NewRequestDialog
          client={client}
          viewer={viewer}
          currency={currency}
          reference={reference.data}
          initialBudget={search.budget}
          onClose={() => {
            setCreating(false);
            if (search.new || search.budget) setSearch({ new: undefined, budget: undefined });
          }}
          onCreated={(id) => {
            setCreating(false);
            setSearch({ new: undefined, budget: undefined, view: undefined, open: id });
          }}
          returnFocus={list.gridElement}
        />
      )}
      {editing && (
        <NewRequestDialog
          client={client}
          viewer={viewer}
          currency={currency}
          reference={reference.data}
          editing={editing}
          onClose={() => setEditing(null)}
          onCreated={() => setEditing(null)}
        />
      )}
    </div>
  );
}
