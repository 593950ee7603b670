import type { HrisColumn, HrisDiff, HrisRow, HrisRowError } from '../../../schema/hris.ts';

/**
 * What a valid HRIS file would change in a business (pure): the people it holds (snapshot.ts)
 * against the file's rows. The result is the diff the admin reviews and the steps apply.ts runs
 * in order, or the per-row errors that refuse the file (unknown managers, loops in the reporting
 * line, an email that belongs to another employee id). The same plan is made again inside the
 * apply's transaction; a different diff then means the people changed since the review.
 */

export type SnapshotPerson = {
  id: string; email: string; first_name: string; last_name: string; role: string; status: string;
  manager_id: string | null; department_id: string | null; location_id: string | null;
  deleted: boolean; hidden: boolean; employee_id: string | null; title: string | null;
};
export type Named = { id: string; name: string };
export type Snapshot = { people: SnapshotPerson[]; departments: Named[]; locations: Named[] };
export type PlanOptions = { invite_new_hires: boolean; suspend_leavers: boolean; default_role: string; actingUserId: string };

/** A person: an existing user (`u:<id>`) or a new hire's row (`r:<row>`). */
export type Key = string;
export type PlanHire = { key: Key; row: HrisRow; managerKey: Key | null };
export type PlanUpdate = {
  userId: string; row: HrisRow;
  names: boolean; title: boolean;
  department?: string | null; location?: string | null; managerKey?: Key | null;
};
export type Plan = {
  diff: HrisDiff; hires: PlanHire[]; updates: PlanUpdate[]; leavers: string[];
  /** Every row matched to a user or hired: its HRIS link (employee id, title, dates) is written. */
  links: { key: Key; row: HrisRow }[];
};
export type Planned = { ok: true; plan: Plan } | { ok: false; errors: HrisRowError[] };

const lower = (s: string | null) => (s ?? '').trim().toLowerCase();
const nameOf = (p: { first_name: string; last_name: string }) => `${p.first_name} ${p.last_name}`.trim();

type Ctx = {
  rows: HrisRow[]; snap: Snapshot; byId: Map<string, SnapshotPerson>;
  keyOfRow: Map<number, Key>; rowByEmployee: Map<string, HrisRow>; rowByEmail: Map<string, HrisRow>;
  errors: HrisRowError[];
};

/** The user a row is: its HRIS link's employee id first (emails change), else its email. */
function matchRows(rows: HrisRow[], snap: Snapshot, errors: HrisRowError[]): Map<number, SnapshotPerson | null> {
  const byEmployee = new Map(snap.people.filter((p) => p.employee_id !== null).map((p) => [p.employee_id!, p]));
  const byEmail = new Map(snap.people.map((p) => [p.email.toLowerCase(), p]));
  const out = new Map<number, SnapshotPerson | null>();
  for (const r of rows) {
    const linked = byEmployee.get(r.employee_id);
    const mailed = byEmail.get(r.email);
    if (!linked && mailed?.employee_id && mailed.employee_id !== r.employee_id) {
      errors.push({ row: r.row, column: 'email', message: `${r.email} belongs to employee ${mailed.employee_id} in an earlier import, not ${r.employee_id}.` });
    }
    out.set(r.row, linked ?? mailed ?? null);
  }
  return out;
}

/** The manager a row names, as a person key; an error when the file or the business does not hold them. */
function managerOf(ctx: Ctx, r: HrisRow): Key | null | 'error' {
  const fail = (column: string, message: string) => (ctx.errors.push({ row: r.row, column, message }), 'error' as const);
  let key: Key | null = null;
  let label = '';
  if (r.manager_employee_id) {
    label = `employee id ${r.manager_employee_id}`;
    const inFile = ctx.rowByEmployee.get(r.manager_employee_id);
    const known = ctx.snap.people.find((p) => p.employee_id === r.manager_employee_id && !p.deleted && !p.hidden);
    key = inFile ? ctx.keyOfRow.get(inFile.row)! : known ? `u:${known.id}` : null;
    if (!key) return fail('manager_employee_id', `Unknown manager: no row or person has employee id ${r.manager_employee_id}.`);
  } else if (r.manager_email) {
    label = r.manager_email;
    const inFile = ctx.rowByEmail.get(r.manager_email);
    const known = ctx.snap.people.find((p) => p.email.toLowerCase() === r.manager_email && !p.deleted && !p.hidden);
    key = inFile ? ctx.keyOfRow.get(inFile.row)! : known ? `u:${known.id}` : null;
    if (!key) return fail('manager_email', `Unknown manager: no row or person has the email ${r.manager_email}.`);
  } else {
    return null;
  }
  const column = r.manager_employee_id ? 'manager_employee_id' : 'manager_email';
  if (key === ctx.keyOfRow.get(r.row)) return fail(column, 'A person cannot be their own manager.');
  const managerRow = [...ctx.keyOfRow].find(([, k]) => k === key)?.[0];
  const asRow = managerRow === undefined ? undefined : ctx.rows.find((x) => x.row === managerRow);
  if (asRow?.status === 'terminated') return fail(column, `The manager (${label}) is terminated in this file.`);
  const person = key.startsWith('u:') ? ctx.byId.get(key.slice(2)) : undefined;
  if (!asRow && person && person.status === 'SUSPENDED') return fail(column, `The manager (${label}) is suspended in Ledgerline.`);
  return key;
}

/** Loops in the reporting line once the file's managers are in place (people it does not name keep theirs). */
function findCycles(ctx: Ctx, managers: Map<Key, Key | null>): void {
  const up = (k: Key): Key | null => (managers.has(k) ? managers.get(k)! : k.startsWith('u:') ? (ctx.byId.get(k.slice(2))?.manager_id ? `u:${ctx.byId.get(k.slice(2))!.manager_id}` : null) : null);
  const label = (k: Key) => {
    const row = [...ctx.keyOfRow].find(([, v]) => v === k)?.[0];
    return row !== undefined ? ctx.rows.find((r) => r.row === row)!.email : ctx.byId.get(k.slice(2))?.email ?? k;
  };
  for (const r of ctx.rows) {
    const start = ctx.keyOfRow.get(r.row)!;
    if (!managers.has(start)) continue;
    const path = [start];
    for (let k = up(start); k !== null && path.length <= ctx.snap.people.length + ctx.rows.length; k = up(k)) {
      if (k === start) {
        const column = r.manager_employee_id ? 'manager_employee_id' : 'manager_email';
        ctx.errors.push({ row: r.row, column, message: `Loop in the reporting line: ${[...path, start].map(label).join(' → ')}.` });
        break;
      }
      if (path.includes(k)) break;
      path.push(k);
    }
  }
}

/** Depth in the final reporting line: managers are hired and moved before their reports. */
function depthOf(managers: Map<Key, Key | null>, byId: Map<string, SnapshotPerson>, k: Key): number {
  let depth = 0;
  const seen = new Set<Key>();
  for (let m: Key | null | undefined = k; m && !seen.has(m); depth++) {
    seen.add(m);
    m = managers.has(m) ? managers.get(m) : m.startsWith('u:') && byId.get(m.slice(2))?.manager_id ? `u:${byId.get(m.slice(2))!.manager_id}` : null;
  }
  return depth;
}

export function planImport(rows: HrisRow[], columns: readonly HrisColumn[], snap: Snapshot, opts: PlanOptions): Planned {
  const errors: HrisRowError[] = [];
  const byId = new Map(snap.people.map((p) => [p.id, p]));
  const matched = matchRows(rows, snap, errors);
  const keyOfRow = new Map(rows.map((r) => [r.row, matched.get(r.row) ? `u:${matched.get(r.row)!.id}` : `r:${r.row}`]));
  const ctx: Ctx = {
    rows, snap, byId, keyOfRow, errors,
    rowByEmployee: new Map(rows.map((r) => [r.employee_id, r])), rowByEmail: new Map(rows.map((r) => [r.email, r])),
  };
  const hasManagerColumn = columns.includes('manager_email') || columns.includes('manager_employee_id');
  const managers = new Map<Key, Key | null>();
  for (const r of rows) {
    if (r.status !== 'active' || !hasManagerColumn) continue;
    const m = managerOf(ctx, r);
    if (m !== 'error') managers.set(keyOfRow.get(r.row)!, m);
  }
  findCycles(ctx, managers);
  if (errors.length > 0) return { ok: false, errors: errors.sort((a, b) => a.row - b.row) };
  return { ok: true, plan: buildPlan(ctx, matched, managers, columns, opts) };
}

function buildPlan(ctx: Ctx, matched: Map<number, SnapshotPerson | null>, managers: Map<Key, Key | null>, columns: readonly HrisColumn[], opts: PlanOptions): Plan {
  const { snap, byId } = ctx;
  const diff: HrisDiff = { new_hires: [], changes: [], leavers: [], departments_to_create: [], locations_to_create: [], skipped: [], unchanged: 0 };
  const plan: Plan = { diff, hires: [], updates: [], leavers: [], links: [] };
  const deptName = new Map(snap.departments.map((d) => [d.id, d.name]));
  const locName = new Map(snap.locations.map((d) => [d.id, d.name]));
  const emailOfKey = (k: Key | null | undefined) => {
    if (!k) return null;
    if (k.startsWith('u:')) return byId.get(k.slice(2))?.email ?? null;
    return ctx.rows.find((r) => `r:${r.row}` === k)?.email ?? null;
  };
  const willBeActive = (k: Key) => k.startsWith('u:') && byId.get(k.slice(2))?.status === 'ACTIVE' && !plan.leavers.includes(k.slice(2));
  const who = (r: HrisRow) => ({ employee_id: r.employee_id, email: r.email, name: nameOf(r) });
  const skip = (r: HrisRow, reason: string) => diff.skipped.push({ ...who(r), reason });
  const needs = { departments: new Map<string, string>(), locations: new Map<string, string>() };
  const want = (kind: 'departments' | 'locations', name: string | null) => {
    const known = (kind === 'departments' ? snap.departments : snap.locations).some((x) => lower(x.name) === lower(name));
    if (name && !known && !needs[kind].has(lower(name))) needs[kind].set(lower(name), name);
  };
  const depth = (k: Key) => depthOf(managers, byId, k);

  for (const r of ctx.rows) {
    const user = matched.get(r.row) ?? null;
    const key = ctx.keyOfRow.get(r.row)!;
    if (user?.hidden) { skip(r, 'This account is managed outside the team (a partner or advisor account); the HRIS leaves it alone.'); continue; }
    if (user?.deleted) { skip(r, 'This person was removed from the business; invite them again from the Team page.'); continue; }
    if (r.status === 'terminated') {
      if (!user || user.status === 'SUSPENDED') { diff.unchanged++; continue; }
      if (!opts.suspend_leavers) { skip(r, 'A leaver, but suspending leavers is off in the connection.'); continue; }
      if (user.role === 'BUSINESS_OWNER') { skip(r, 'Owners are never suspended by the HRIS (a business keeps its owner): suspend them on the Team page.'); continue; }
      if (user.id === opts.actingUserId) { skip(r, 'A leaver, but this is the person applying the import: nobody can suspend themselves.'); continue; }
      if (user.status !== 'ACTIVE') { skip(r, 'A leaver who never accepted their invite: delete the invite on the Team page.'); continue; }
      diff.leavers.push({ ...who(r), user_id: user.id, end_date: r.end_date });
      plan.leavers.push(user.id);
      plan.links.push({ key, row: r });
      continue;
    }
    if (!user) {
      if (!opts.invite_new_hires) { skip(r, 'A new hire, but inviting new hires is off in the connection.'); continue; }
      const managerKey = managers.get(key) ?? null;
      diff.new_hires.push({ ...who(r), role: opts.default_role, title: r.title, department: r.department, location: r.location, manager: emailOfKey(managerKey) });
      plan.hires.push({ key, row: r, managerKey });
      plan.links.push({ key, row: r });
      want('departments', r.department);
      want('locations', r.location);
      continue;
    }
    if (user.status === 'SUSPENDED') { skip(r, 'Active in the HRIS but suspended here: unsuspend them on the Team page.'); continue; }
    plan.links.push({ key, row: r });
    if (user.email.toLowerCase() !== r.email) skip(r, `Their sign-in email stays ${user.email}: the HRIS does not change sign-in emails.`);
    const fields: HrisDiff['changes'][number]['fields'] = [];
    const update: PlanUpdate = { userId: user.id, row: r, names: false, title: false };
    for (const f of ['first_name', 'last_name'] as const) {
      if (user[f] !== r[f]) { fields.push({ field: f, from: user[f], to: r[f] }); update.names = true; }
    }
    if (columns.includes('title') && (user.title ?? null) !== r.title) { fields.push({ field: 'title', from: user.title, to: r.title }); update.title = true; }
    for (const [col, kind, current, names] of [
      ['department', 'departments', user.department_id, deptName], ['location', 'locations', user.location_id, locName],
    ] as const) {
      const from = current ? names.get(current) ?? null : null;
      if (!columns.includes(col) || lower(from) === lower(r[col])) continue;
      fields.push({ field: col, from, to: r[col] });
      update[col] = r[col];
      want(kind, r[col]);
    }
    if (managers.has(key)) {
      const to = managers.get(key)!;
      const from = user.manager_id ? `u:${user.manager_id}` : null;
      if (to !== from) {
        if (to && !willBeActive(to)) skip(r, `Their manager stays as it is until ${emailOfKey(to)} accepts their invite.`);
        else { fields.push({ field: 'manager', from: emailOfKey(from), to: emailOfKey(to) }); update.managerKey = to; }
      }
    }
    if (fields.length === 0) { diff.unchanged++; continue; }
    diff.changes.push({ ...who(r), user_id: user.id, fields });
    plan.updates.push(update);
  }
  diff.departments_to_create = [...needs.departments.values()];
  diff.locations_to_create = [...needs.locations.values()];
  plan.hires.sort((a, b) => depth(a.key) - depth(b.key));
  plan.updates.sort((a, b) => depth(`u:${a.userId}`) - depth(`u:${b.userId}`));
  return plan;
}
