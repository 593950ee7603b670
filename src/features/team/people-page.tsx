import { useCallback, useMemo, useRef, useState } from 'react';
import { getRouteApi } from '@tanstack/react-router';
import { canInvite } from '../../../schema/team-rules.ts';
import { isAdmin } from '../../../schema/roles.ts';
import { Button } from '../../components/button.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { SearchBox } from '../../components/search-box.tsx';
import { SelectField } from '../../components/select-field.tsx';
import { listVersion } from '../../lib/list/list-version.ts';
import { ListSkeleton } from '../../components/skeleton.tsx';
import { TableFooter } from '../../components/table-footer.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import type { SelectionApi } from '../../lib/list/use-selection.ts';
import { useRows } from '../../lib/list/use-rows.ts';
import { useTableKeys } from '../../lib/list/use-table-keys.ts';
import type { Command } from '../../lib/commands.ts';
import { usePageCommands } from '../../lib/page-commands.ts';
import { footerHint, SHORTCUTS } from '../../lib/shortcuts.ts';
import { useInstantSearch } from '../../lib/use-instant-search.ts';
import { InviteDialog } from './invite-dialog.tsx';
import { filterPeople, peopleCount, ROLE_FILTERS, STATUS_FILTERS, visiblePeople, type Answer, type Person } from './people-view.ts';
import { PeopleTable } from './people-table.tsx';
import { NEEDS_CONNECTION, PersonDrawer } from './person-drawer.tsx';
import type { TeamSearch } from './search-params.ts';
import { TeamNav } from './team-nav.tsx';
import { useEntities, useFlags, usePeople } from './use-people.ts';

const routeApi = getRouteApi('/_app/team');
/** The list's keys minus selection and coding (no bulk action on people). */
const KEY_HINT = footerHint(['list', 'global'], SHORTCUTS.filter((s) => s.id !== 'list.toggle' && s.id !== 'list.code'));
const NO_SELECTION: SelectionApi = {
  ids: new Set<string>(),
  toggle: () => undefined,
  range: async () => undefined,
  add: () => undefined,
  selectAllMatching: async () => undefined,
  clear: () => undefined,
};
const NO_FLAGS = { disable_invites_by_managers: false };

/**
 * Issue 14: /team → People. The list is the mirror's users (it works offline); admins see
 * everyone, a manager their reports. Inviting and every change are direct calls: offline the page
 * says they need a connection. The server's answer shows at once; the feed then brings the same row.
 */
export function PeoplePage() {
  const search = routeApi.useSearch();
  const navigate = routeApi.useNavigate();
  const client = useDataClient();
  const actor = useAppState((s) => s.session?.user);
  const referenceVersion = useAppState((s) => s.referenceVersion);
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const [answers, setAnswers] = useState<ReadonlyMap<string, Answer>>(new Map());
  const { people: all, reference } = usePeople(client, referenceVersion, answers);
  const flags = useFlags(client) ?? NO_FLAGS;
  const admin = actor ? isAdmin(actor) : false;
  const entities = useEntities(client, online && admin);
  const [inviting, setInviting] = useState(false);
  const scrollRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);

  const setSearch = useCallback(
    (patch: Partial<TeamSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true }),
    [navigate],
  );
  const writeQ = useCallback((next: string | undefined) => setSearch({ q: next }), [setSearch]);
  const [q, setQ] = useInstantSearch(search.q, writeQ);
  const visible = useMemo(() => (all && actor ? visiblePeople(actor, all) : null), [all, actor]);
  const shown = useMemo(() => (visible ? filterPeople(visible, { q, status: search.status, role: search.role }) : []), [visible, q, search.status, search.role]);
  const key = JSON.stringify([q.trim().toLowerCase(), search.status, search.role]);
  const rows = useRows<Person>({
    key,
    version: listVersion(shown),
    what: 'People',
    read: async (offset, limit) => ({ rows: shown.slice(offset, offset + limit), total: shown.length }),
  });
  const total = shown.length;

  const remember = useCallback((user: Answer) => setAnswers((prev) => new Map(prev).set(user.id, user)), []);
  const openRow = useCallback((row: Person) => setSearch({ open: row.id }), [setSearch]);
  const gridElement = useCallback(() => scrollRef.current?.closest<HTMLElement>('[role="grid"]'), []);
  const closeDrawer = useCallback(() => {
    setSearch({ open: undefined });
    gridElement()?.focus();
  }, [setSearch, gridElement]);
  const focusSearch = useCallback(() => searchRef.current?.focus(), []);
  const mayInvite = actor ? canInvite(actor, flags) : false;

  usePageCommands(
    useMemo<Command[]>(
      () => [
        ...(mayInvite ? [{ id: 'team.invite', label: 'Invite people', group: 'Team', keywords: ['add', 'user', 'member', 'csv'], run: () => setInviting(true) }] : []),
        { id: 'team.search', label: 'Search people', group: 'Team', keywords: ['find', 'user'], run: focusSearch },
      ],
      [focusSearch, mayInvite],
    ),
  );

  const active = useTableKeys({
    key,
    total,
    rows,
    selection: NO_SELECTION,
    drawerOpen: search.open !== undefined,
    dialogOpen: inviting,
    onOpen: openRow,
    onCloseDrawer: closeDrawer,
    onFocusSearch: focusSearch,
  });
  const onRowClick = useCallback(
    (index: number, row: Person) => {
      active.set(index);
      openRow(row);
    },
    [active, openRow],
  );

  if (!actor) return null;
  const filtered = q.trim() !== '' || search.status !== undefined || search.role !== undefined;
  const openPerson = search.open ? (visible?.find((p) => p.id === search.open) ?? null) : undefined;

  return (
    <div className="team-page">
      <TeamNav current="/team" />
      <div className="page-header">
        <h1>People</h1>
        {visible !== null && <span className="page-label" data-testid="people-count">{peopleCount(total)}</span>}
        <span className="spacer" />
        <SearchBox id="people-search" label="Search people" placeholder="Search name or email…" ref={searchRef} value={q} onChange={setQ} onLeave={() => gridElement()?.focus()} />
        <SelectField variant="filter" label="Status" value={search.status ?? ''} leading={[{ value: '', label: 'All statuses' }]} options={STATUS_FILTERS}
          onChange={(v) => setSearch({ status: (v || undefined) as TeamSearch['status'] })} />
        <SelectField variant="filter" label="Role" value={search.role ?? ''} leading={[{ value: '', label: 'All roles' }]} options={ROLE_FILTERS}
          onChange={(v) => setSearch({ role: (v || undefined) as TeamSearch['role'] })} />
        {mayInvite && <Button variant="primary" onClick={() => setInviting(true)}>Invite people</Button>}
      </div>
      {!online && <p className="notice notice-warn" role="note">{NEEDS_CONNECTION} You can still look people up.</p>}
      {visible === null ? (
        <ListSkeleton what="people" />
      ) : visible.length === 0 && !filtered ? (
        <EmptyState title={admin ? 'No one here yet' : 'No one reports to you yet'}
          action={mayInvite ? <Button variant="primary" onClick={() => setInviting(true)}>Invite people</Button> : undefined}>
          {admin ? 'Invite your team: one person at a time, or many from a CSV file.' : 'People you invite report to you and show here.'}
        </EmptyState>
      ) : (
        <PeopleTable
          rows={rows}
          total={total}
          active={active.index}
          openId={search.open}
          queryKey={key}
          names={reference.names}
          scrollRef={scrollRef}
          emptyText={q.trim() ? `No one matches “${q.trim()}”` : 'No one matches these filters'}
          emptyHint={filtered ? (
            <Button size="sm" onClick={() => {
              setQ('');
              setSearch({ q: undefined, status: undefined, role: undefined });
              focusSearch();
            }}>Clear search and filters</Button>
          ) : undefined}
          onRowClick={onRowClick}
          onKeyDown={active.onGridKeyDown}
          onFocus={active.onGridFocus}
        />
      )}
      <TableFooter hint={KEY_HINT} />
      {search.open && openPerson !== undefined && (
        <PersonDrawer person={openPerson} people={all ?? []} actor={actor} flags={flags} reference={reference} entities={entities}
          client={client} online={online} onAnswer={remember} onClose={closeDrawer} returnFocus={gridElement} />
      )}
      {inviting && (
        <InviteDialog actor={actor} people={all ?? []} reference={reference} entities={entities} client={client} online={online}
          onInvited={remember} onClose={() => setInviting(false)} returnFocus={gridElement} />
      )}
    </div>
  );
}


