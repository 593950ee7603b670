import { fullName } from '../../../schema/entities/spend-user.ts';
import { roleDisplayName } from '../../../schema/roles.ts';
import { USER_STATUS_LABELS } from '../../../schema/team-rules.ts';
import { Button } from '../../components/button.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { listKeyHint } from '../../lib/list/key-hint.ts';
import type { ListColumn, ListSpec } from '../../lib/list/list-spec.ts';
import type { ReferenceNames } from '../../lib/reference-data.ts';
import { ROLE_FILTERS, STATUS_FILTERS, STATUS_TONES, type Person } from './people-view.ts';
import type { TeamSearch } from './search-params.ts';

/** The list's keys minus selection and coding (no bulk action on people). */
const KEY_HINT = listKeyHint({});
const dash = (text: string) => text || '—';

/** The people grid's columns: name, email, role, manager, department, location, status. */
function peopleColumns(names: ReferenceNames): ListColumn<Person>[] {
  const manager = (row: Person) => (row.manager_id ? names.user(row.manager_id) : '');
  return [
    { key: 'name', header: 'Name', className: 'person-name', sorted: 'ascending', cell: (row) => fullName(row) || row.email },
    { key: 'email', header: 'Email', className: 'person-email', cell: (row) => row.email },
    { key: 'role', header: 'Role', cell: (row) => roleDisplayName(row.role, row.is_manager) },
    { key: 'manager', header: 'Manager', cell: (row) => dash(manager(row)), muted: (row) => !manager(row) },
    { key: 'department', header: 'Department', cell: (row) => dash(names.department(row.department_id)), muted: (row) => !row.department_id },
    { key: 'location', header: 'Location', cell: (row) => dash(names.location(row.location_id)), muted: (row) => !row.location_id },
    { key: 'status', header: 'Status', cell: (row) => <StatusPill tone={STATUS_TONES[row.status]}>{USER_STATUS_LABELS[row.status]}</StatusPill> },
  ];
}

export interface PeopleSpecOptions {
  names: ReferenceNames;
  q: string;
  setQ(q: string): void;
  search: TeamSearch;
  setSearch(patch: Partial<TeamSearch>): void;
  focusSearch(): void;
  admin: boolean;
  /** Invite people, for those who may. */
  onInvite: (() => void) | null;
}

/** The people list, declared: search, status and role filters, the empty words and the blank state. */
export function peopleSpec(o: PeopleSpecOptions): ListSpec<Person> {
  const { q, search, setSearch, onInvite } = o;
  const filtered = q.trim() !== '' || search.status !== undefined || search.role !== undefined;
  return {
    label: 'People',
    rowIdPrefix: 'person-row',
    rowClassName: 'person-row',
    gridClassName: 'grid-people',
    columns: peopleColumns(o.names),
    search: { id: 'people-search', label: 'Search people', placeholder: 'Search name or email…', value: q, onChange: o.setQ },
    filters: [
      { key: 'status', label: 'Status', value: search.status ?? '', leading: [{ value: '', label: 'All statuses' }], options: STATUS_FILTERS,
        onChange: (v) => setSearch({ status: (v || undefined) as TeamSearch['status'] }) },
      { key: 'role', label: 'Role', value: search.role ?? '', leading: [{ value: '', label: 'All roles' }], options: ROLE_FILTERS,
        onChange: (v) => setSearch({ role: (v || undefined) as TeamSearch['role'] }) },
    ],
    emptyText: q.trim() ? `No one matches “${q.trim()}”` : 'No one matches these filters',
    emptyHint: filtered ? (
      <Button size="sm" onClick={() => {
        o.setQ('');
        setSearch({ q: undefined, status: undefined, role: undefined });
        o.focusSearch();
      }}>Clear search and filters</Button>
    ) : undefined,
    blank: (
      <EmptyState title={o.admin ? 'No one here yet' : 'No one reports to you yet'}
        action={onInvite ? <Button variant="primary" onClick={onInvite}>Invite people</Button> : undefined}>
        {o.admin ? 'Invite your team: one person at a time, or many from a CSV file.' : 'People you invite report to you and show here.'}
      </EmptyState>
    ),
    waitingText: 'Opening your team…',
    loadingWhat: 'people',
    keyHint: KEY_HINT,
  };
}
