import Papa from 'papaparse';
import { z } from 'zod';
import { ROLES, roleDisplayName, type Role } from '../../../schema/roles.ts';
import { inviteRefusal, roleFlagRefusal, type TeamFlags } from '../../../schema/team-rules.ts';
import { resolveFeatureFlags } from '../../../schema/feature-flags.ts';
import type { InviteUserInput } from '../../data-access/types.ts';

/**
 * "Invite people → From CSV" (issue 14): the file's rows checked here, before anything is sent,
 * so the preview can show each row's problems in words and invite only the rows that are fine.
 * Pure: the people, departments and locations come from the mirror, the actor from the session.
 */

export const INVITE_CSV_COLUMNS = ['email', 'first_name', 'last_name', 'role', 'manager_email', 'department', 'location'] as const;
/** One file invites at most this many people (each is its own call; the dialog sends them in turn). */
export const MAX_INVITE_ROWS = 500;

export function inviteCsvTemplate(): string {
  return Papa.unparse({
    fields: [...INVITE_CSV_COLUMNS],
    data: [['ada@example.com', 'Ada', 'Lovelace', 'Employee', '', '', '']],
  }) + '\r\n';
}

export interface CsvPerson { id: string; email: string; status: string; deleted?: boolean }
export interface CsvContext {
  actor: { id: string; role: string; is_manager: boolean };
  /** The business's flags (the registry's defaults when not given): managers' invites, the Auditor role. */
  flags?: TeamFlags;
  users: readonly CsvPerson[];
  departments: readonly { id: string; name: string }[];
  locations: readonly { id: string; name: string }[];
}

export interface InviteCsvRow {
  /** The row's line in the file (the header is line 1). */
  line: number;
  email: string;
  name: string;
  roleLabel: string;
  /** What will be sent; null when the row has errors. */
  body: InviteUserInput | null;
  errors: string[];
}

export type InviteCsvResult = { ok: true; rows: InviteCsvRow[] } | { ok: false; error: string };

const emailSchema = z.email().max(320);
const fold = (s: string) => s.trim().toLowerCase();
const headerKey = (h: string) => h.trim().toLowerCase().replace(/[\s-]+/g, '_');

/** "Employee", "employee", "BUSINESS_USER" all name the role; the display names are the ones the page shows. */
function roleFrom(text: string): Role | null {
  const t = fold(text);
  if (t === '') return 'BUSINESS_USER';
  const byCode = ROLES.find((r) => r.toLowerCase() === t);
  if (byCode) return byCode;
  // Display names are not unique (Owner, Bookkeeper repeat for the unbundled roles): the business roles win.
  return ROLES.find((r) => fold(roleDisplayName(r)) === t) ?? null;
}

export function parseInviteCsv(text: string, ctx: CsvContext): InviteCsvResult {
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: 'greedy', transformHeader: headerKey });
  const fields = parsed.meta.fields ?? [];
  const missing = ['email', 'first_name', 'last_name'].filter((c) => !fields.includes(c));
  if (missing.length > 0) return { ok: false, error: `The file has no ${missing.join(', ')} column. Start from the template.` };
  if (parsed.data.length === 0) return { ok: false, error: 'The file has no people in it.' };
  if (parsed.data.length > MAX_INVITE_ROWS) return { ok: false, error: `The file has ${parsed.data.length} people: invite at most ${MAX_INVITE_ROWS} at a time.` };
  return { ok: true, rows: checkRows(parsed.data, ctx) };
}

function checkRows(records: readonly Record<string, string>[], ctx: CsvContext): InviteCsvRow[] {
  const members = new Map(ctx.users.filter((u) => !u.deleted).map((u) => [fold(u.email), u]));
  const byName = (list: CsvContext['departments']) => new Map(list.map((d) => [fold(d.name), d.id]));
  const departments = byName(ctx.departments);
  const locations = byName(ctx.locations);
  const seen = new Map<string, number>();
  return records.map((rec, i) => {
    const line = i + 2;
    const cell = (c: string) => (rec[c] ?? '').trim();
    const email = fold(cell('email'));
    const errors: string[] = [];
    if (!email) errors.push('Email is missing.');
    else if (!emailSchema.safeParse(email).success) errors.push(`“${cell('email')}” is not a valid email address.`);
    else if (seen.has(email)) errors.push(`Duplicate of row ${seen.get(email)} in this file.`);
    else if (members.has(email)) errors.push('Already a member of this business.');
    if (email && !seen.has(email)) seen.set(email, line);
    const first = cell('first_name');
    const last = cell('last_name');
    if (!first) errors.push('First name is missing.');
    if (!last) errors.push('Last name is missing.');
    if (first.length > 200 || last.length > 200) errors.push('Names can be at most 200 characters.');
    const role = roleFrom(cell('role'));
    if (!role) errors.push(`“${cell('role')}” is not a role.`);
    const manager = refFrom(cell('manager_email'), (v) => members.get(fold(v)), errors, (v) => `No member has the email “${v}”.`);
    if (manager && manager.status !== 'ACTIVE') errors.push(`The manager ${cell('manager_email')} is not active.`);
    const departmentId = refFrom(cell('department'), (v) => departments.get(fold(v)), errors, (v) => `No department is called “${v}”.`);
    const locationId = refFrom(cell('location'), (v) => locations.get(fold(v)), errors, (v) => `No location is called “${v}”.`);
    const managerId = manager?.id ?? null;
    // The server's own rule and words (a manager invites employees reporting to themselves).
    const flags = ctx.flags ?? resolveFeatureFlags();
    const refusal = role ? inviteRefusal(ctx.actor, { role, manager_id: managerId }, flags) ?? roleFlagRefusal(role, flags) : null;
    if (refusal) errors.push(refusal);
    const body: InviteUserInput | null = errors.length > 0 || !role ? null : {
      email, first_name: first, last_name: last, role,
      ...(managerId ? { manager_id: managerId } : {}),
      ...(departmentId ? { department_id: departmentId } : {}),
      ...(locationId ? { location_id: locationId } : {}),
    };
    return { line, email: cell('email'), name: `${first} ${last}`.trim(), roleLabel: role ? roleDisplayName(role) : cell('role'), body, errors };
  });
}

function refFrom<T>(value: string, find: (v: string) => T | undefined, errors: string[], missing: (v: string) => string): T | null {
  if (!value) return null;
  const found = find(value);
  if (found === undefined) errors.push(missing(value));
  return found ?? null;
}

/** "3 of 4 rows can be invited; 1 has problems." */
export function previewText(rows: readonly InviteCsvRow[]): string {
  const ok = rows.filter((r) => r.body).length;
  const bad = rows.length - ok;
  const people = (n: number) => `${n} ${n === 1 ? 'person' : 'people'}`;
  if (bad === 0) return `${people(ok)} ready to invite.`;
  if (ok === 0) return `No row can be invited: ${bad === 1 ? 'it has' : `all ${bad} have`} problems to fix in the file.`;
  return `${people(ok)} ready to invite; ${bad} ${bad === 1 ? 'row has' : 'rows have'} problems and will be skipped.`;
}
