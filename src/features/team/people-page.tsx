import { useCallback, useMemo, useState } from 'react';
import { getRouteApi } from '@tanstack/react-router';
import { canInvite } from '../../../schema/team-rules.ts';
import { resolveFeatureFlags } from '../../../schema/feature-flags.ts';
import { isAdmin } from '../../../schema/roles.ts';
import { Button } from '../../components/button.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import type { Command } from '../../lib/commands.ts';
import { ListPage } from '../../lib/list/list-page.tsx';
import { useListPage, useLocalRows } from '../../lib/list/use-list-page.ts';
import { usePageCommands } from '../../lib/page-commands.ts';
import { useInstantSearch } from '../../lib/use-instant-search.ts';
import { InviteDialog } from './invite-dialog.tsx';
import { peopleSpec } from './people-list.tsx';
import { filterPeople, peopleCount, visiblePeople, type Answer, type Person } from './people-view.ts';
import { NEEDS_CONNECTION, PersonDrawer } from './person-drawer.tsx';
import type { TeamSearch } from './search-params.ts';
import { TeamNav } from './team-nav.tsx';
import { useEntities, useFlags, usePeople } from './use-people.ts';
import { SavedViewsBar } from '../../components/saved-views/saved-views-bar.tsx';

const routeApi = getRouteApi('/_app/team');
/** Until the cached flags are read: the registry's defaults (the Auditor role not offered, managers may invite). */
const DEFAULT_FLAGS = resolveFeatureFlags();

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
  const flags = useFlags(client) ?? DEFAULT_FLAGS;
  const admin = actor ? isAdmin(actor) : false;
  const entities = useEntities(client, online && admin);
  const [inviting, setInviting] = useState(false);
  const setSearch = useCallback(
    (patch: Partial<TeamSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true }),
    [navigate],
  );
  const writeQ = useCallback((next: string | undefined) => setSearch({ q: next }), [setSearch]);
  const [q, setQ] = useInstantSearch(search.q, writeQ);
  const visible = useMemo(() => (all && actor ? visiblePeople(actor, all) : null), [all, actor]);
  const shown = useMemo(() => (visible ? filterPeople(visible, { q, status: search.status, role: search.role }) : null), [visible, q, search.status, search.role]);
  const key = JSON.stringify([q.trim().toLowerCase(), search.status, search.role]);
  const rows = useLocalRows(key, shown, 'People');
  const openRow = useCallback((row: Person) => setSearch({ open: row.id }), [setSearch]);
  const closeRow = useCallback(() => setSearch({ open: undefined }), [setSearch]);
  const list = useListPage({ key, rows, openId: search.open, onOpen: openRow, onClose: closeRow, dialogOpen: inviting });
  const { focusSearch, gridElement } = list;
  const remember = useCallback((user: Answer) => setAnswers((prev) => new Map(prev).set(user.id, user)), []);
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

  if (!actor) return null;
  const filtered = q.trim() !== '' || search.status !== undefined || search.role !== undefined;
  const openPerson = search.open ? (visible?.find((p) => p.id === search.open) ?? null) : undefined;
  const spec = peopleSpec({
    names: reference.names, q, setQ, search, setSearch, focusSearch, admin, onInvite: mayInvite ? () => setInviting(true) : null,
  });

  return (
    <div className="team-page">
      <TeamNav current="/team" />
      <div className="page-header">
        <h1>People</h1>
        <SavedViewsBar list="team" />
        {visible !== null && <span className="page-label" data-testid="people-count">{peopleCount(shown?.length ?? 0)}</span>}
        <span className="spacer" />
        {mayInvite && <Button variant="primary" onClick={() => setInviting(true)}>Invite people</Button>}
      </div>
      {!online && <p className="notice notice-warn" role="note">{NEEDS_CONNECTION} You can still look people up.</p>}
      <ListPage spec={spec} list={list} loading={visible === null} filtered={filtered} quiet={inviting} />
      {search.open && openPerson !== undefined && (
        <PersonDrawer person={openPerson} people={all ?? []} actor={actor} flags={flags} reference={reference} entities={entities}
          client={client} online={online} onAnswer={remember} onClose={() => {
            closeRow();
            gridElement()?.focus();
          }} returnFocus={gridElement} />
      )}
      {inviting && (
        <InviteDialog actor={actor} flags={flags} people={all ?? []} reference={reference} entities={entities} client={client} online={online}
          onInvited={remember} onClose={() => setInviting(false)} returnFocus={gridElement} />
      )}
    </div>
  );
}


