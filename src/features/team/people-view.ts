import { fullName, type UserRow } from '../../../schema/entities/spend-user.ts';
import { isAdmin, roleDisplayName, type Role } from '../../../schema/roles.ts';
import { managerChain, USER_STATUS_LABELS, type UserStatus } from '../../../schema/team-rules.ts';
import type { PillTone } from '../../components/status-pill.tsx';
import type { TeamSearch } from './search-params.ts';

/**
 * The people list, pure (issue 14): who the actor sees (admins everyone; a manager their reports
 * at any depth), the search and filters, and the words and tones of each status.
 */

export type Person = Pick<UserRow, 'id' | 'role' | 'first_name' | 'last_name' | 'email' | 'is_manager' | 'manager_id' | 'department_id' | 'location_id' | 'status'>;
type Actor = { id: string; role: string; is_manager: boolean };

/** The roles an admin assigns from the Team page, in the order a person reads them. */
export const TEAM_ROLES: readonly Role[] = ['BUSINESS_OWNER', 'BUSINESS_ADMIN', 'BUSINESS_BOOKKEEPER', 'BUSINESS_USER', 'AUDITOR', 'IT_ADMIN', 'DEVELOPER_ADMIN', 'GUEST_USER'];

export const STATUS_FILTERS: readonly { value: UserStatus; label: string }[] = (Object.keys(USER_STATUS_LABELS) as UserStatus[]).map((value) => ({ value, label: USER_STATUS_LABELS[value] }));
export const ROLE_FILTERS: readonly { value: NonNullable<TeamSearch['role']>; label: string }[] = [
  ...TEAM_ROLES.map((value) => ({ value, label: roleDisplayName(value) })),
  { value: 'MANAGER', label: 'Manager' },
];

export const STATUS_TONES: Record<UserStatus, PillTone> = { ACTIVE: 'ok', INVITED: 'info', INVITE_EXPIRED: 'warn', SUSPENDED: 'danger' };

/** Admins see everyone; anyone else the people whose reporting line runs up to them. */
export function visiblePeople<P extends Person>(actor: Actor, people: readonly P[]): P[] {
  if (isAdmin(actor)) return [...people];
  const managerOf = new Map(people.map((p) => [p.id, p.manager_id]));
  return people.filter((p) => p.id !== actor.id && managerChain(p.id, (id) => managerOf.get(id)).includes(actor.id));
}

const matches = (p: Person, q: string) => !q || `${fullName(p)} ${p.email}`.toLowerCase().includes(q);

export function filterPeople<P extends Person>(people: readonly P[], search: Pick<TeamSearch, 'q' | 'status' | 'role'>): P[] {
  const q = (search.q ?? '').trim().toLowerCase();
  return people
    .filter((p) => matches(p, q))
    .filter((p) => !search.status || p.status === search.status)
    .filter((p) => !search.role || (search.role === 'MANAGER' ? roleDisplayName(p.role, p.is_manager) === 'Manager' : p.role === search.role))
    .sort((a, b) => fullName(a).localeCompare(fullName(b)) || a.email.localeCompare(b.email));
}

export const peopleCount = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'person' : 'people'}`;

/** Managers offered for a person: active, not themselves, not anyone below them (no loops). */
export function managerOptions(people: readonly Person[], personId: string | null): { value: string; label: string }[] {
  const managerOf = new Map(people.map((p) => [p.id, p.manager_id]));
  return people
    .filter((p) => p.status === 'ACTIVE' && p.id !== personId && !(personId && managerChain(p.id, (id) => managerOf.get(id)).includes(personId)))
    .map((p) => ({ value: p.id, label: `${fullName(p)} (${p.email})` }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

/** A user the server just answered a call with: shown until the mirror holds the same or newer. */
export type Answer = Person & { change_seq: number; deleted?: boolean };

export function overlayAnswers<P extends Person & { change_seq: number }>(mirror: readonly P[], answers: ReadonlyMap<string, Answer>): Person[] {
  if (answers.size === 0) return [...mirror];
  const byId = new Map<string, Person>(mirror.map((p) => [p.id, p]));
  for (const [id, a] of answers) {
    const m = mirror.find((p) => p.id === id);
    if (m && m.change_seq >= a.change_seq) continue;
    if (a.deleted) byId.delete(id);
    else byId.set(id, a);
  }
  return [...byId.values()];
}
