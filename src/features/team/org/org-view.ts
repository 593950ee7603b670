import type { BusinessEntityRow } from '../../../../schema/entities/business-entity.ts';
import { fullName, type UserRow } from '../../../../schema/entities/spend-user.ts';
import type { SelectOption } from '../../../components/select-field.tsx';

/**
 * The team section's organisation pages (issue 14), the pure part: rows as listed (from the
 * mirror, with the server's latest answers over it), search, people per department or location,
 * owner names, and the words of a delete, which follow the server's rule (domain/admin-org.ts).
 */
export type OrgUnitKind = 'departments' | 'locations';

export interface OrgWords {
  /** "department" */
  one: string;
  /** "Departments" */
  title: string;
  /** The users' field naming it. */
  userField: 'department_id' | 'location_id';
}

export const ORG_WORDS: Record<OrgUnitKind, OrgWords> = {
  departments: { one: 'department', title: 'Departments', userField: 'department_id' },
  locations: { one: 'location', title: 'Locations', userField: 'location_id' },
};

/** What every listed row has: a department, a location or an entity. */
export interface OwnedRow {
  id: string;
  name: string;
  owner_ids: readonly string[];
  updated_at: string;
}

/** The server's answers since the page opened, shown until the feed brings the same row (or its tombstone). */
export interface Answers<R extends OwnedRow> {
  rows: ReadonlyMap<string, R>;
  removed: ReadonlySet<string>;
}
export const noAnswers = <R extends OwnedRow>(): Answers<R> => ({ rows: new Map(), removed: new Set() });

/**
 * The mirror's rows with the answers over them: an answer newer than the mirrored row wins (the
 * mirror catches up within a moment online), a removed id is hidden, a created one shows at once.
 */
export function withAnswers<R extends OwnedRow>(mirrored: readonly R[], answers: Answers<R>): R[] {
  const out = new Map<string, R>();
  for (const r of mirrored) if (!answers.removed.has(r.id)) out.set(r.id, r);
  for (const [id, a] of answers.rows) {
    if (answers.removed.has(id)) continue;
    const m = out.get(id);
    if (!m || a.updated_at > m.updated_at) out.set(id, a);
  }
  return [...out.values()];
}

export const byName = (a: { name: string }, b: { name: string }) =>
  a.name.localeCompare(b.name, undefined, { sensitivity: 'base', numeric: true }) || a.name.localeCompare(b.name);

/** Live members, by id → full name (invited people count: they belong to it already). */
export function peopleNames(users: readonly UserRow[]): Map<string, string> {
  return new Map(users.filter((u) => !u.deleted).map((u) => [u.id, fullName(u) || u.email]));
}

/** Owner names in the order stored; an owner no longer in the business reads as such. */
export function ownerNames(row: OwnedRow, names: ReadonlyMap<string, string>): string[] {
  return row.owner_ids.map((id) => names.get(id) ?? 'Former member');
}

/** How many live people each department (or location) has. */
export function peopleCounts(users: readonly UserRow[], field: OrgWords['userField']): Map<string, number> {
  const counts = new Map<string, number>();
  for (const u of users) {
    const id = u[field];
    if (!u.deleted && id) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

/** Every search word must be part of the name or of an owner's name (as the other lists search). */
export function matchesSearch(q: string, ...texts: string[]): boolean {
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const hay = texts.join(' ').toLowerCase();
  return words.every((w) => hay.includes(w));
}

export interface OrgUnitRow {
  id: string;
  name: string;
  people: number;
  owners: string[];
  row: OwnedRow;
}

export function orgUnitRows(units: readonly OwnedRow[], users: readonly UserRow[], kind: OrgUnitKind, q: string): OrgUnitRow[] {
  const names = peopleNames(users);
  const counts = peopleCounts(users, ORG_WORDS[kind].userField);
  return [...units]
    .sort(byName)
    .map((u) => ({ id: u.id, name: u.name, people: counts.get(u.id) ?? 0, owners: ownerNames(u, names), row: u }))
    .filter((r) => matchesSearch(q, r.name, ...r.owners));
}

export const peopleText = (n: number) => (n === 1 ? '1 person' : `${n.toLocaleString()} people`);

/**
 * What deleting a department or location does, in the server's terms: its people move to none
 * (the server clears their field, each user row changing), transactions keep it as history.
 */
export function deleteImpact(kind: OrgUnitKind, name: string, people: number): string {
  const { one } = ORG_WORDS[kind];
  const who = people === 0 ? `No one is in ${name}.` : `${peopleText(people)} in ${name} will have no ${one}.`;
  return `${who} Transactions already coded to ${name} keep it as history, but it can’t be chosen for new coding.`;
}

/** A name as the server takes it (trimmed, 1–200 characters), or why not. */
export function nameError(name: string, one: string): string | null {
  const trimmed = name.trim();
  if (trimmed === '') return `Enter the ${one}’s name.`;
  if (trimmed.length > 200) return 'Use at most 200 characters.';
  return null;
}

/** The people picker's choices: live members not already chosen, by name. */
export function ownerChoices(users: readonly UserRow[], chosen: readonly string[]): SelectOption[] {
  const taken = new Set(chosen);
  return users
    .filter((u) => !u.deleted && !taken.has(u.id))
    .map((u) => ({ value: u.id, label: fullName(u) ? `${fullName(u)} · ${u.email}` : u.email }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

export interface EntityRowView {
  id: string;
  name: string;
  country: string;
  currency: string;
  owners: string[];
  row: BusinessEntityRow;
}

export function entityRows(
  entities: readonly BusinessEntityRow[], users: readonly UserRow[], q: string, countryName: (code: string) => string,
): EntityRowView[] {
  const names = peopleNames(users);
  return [...entities]
    .sort(byName)
    .map((e) => ({ id: e.id, name: e.name, country: countryName(e.country), currency: e.currency, owners: ownerNames(e, names), row: e }))
    .filter((r) => matchesSearch(q, r.name, r.country, r.currency, ...r.owners));
}
