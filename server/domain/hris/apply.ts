import type { ActingUser } from '../../core/actor.ts';
import { ApiError } from '../../core/errors.ts';
import type { MailDeps } from '../../auth/email-otp.ts';
import { sendInviteMail } from '../../mail/invite.ts';
import { allocateSeqs, announceChange } from '../../db/change-seq.ts';
import type { Queryable } from '../../db/db.ts';
import { applyActing } from '../../core/acting.ts';
import { createOrg, type OrgKind } from '../admin-org.ts';
import { suspendUser } from '../admin-user-status.ts';
import { updateUser, type UserPatch } from '../admin-user-update.ts';
import { inviteUser, type IssuedInvite } from '../admin-users.ts';
import { requireConnection, type ConnectionRow } from './connection.ts';
import { importDto, loadImport, type ImportRow, type StoredRows } from './imports.ts';
import { planImport, type Key, type Plan, type Snapshot } from './plan.ts';
import { loadSnapshot } from './snapshot.ts';

/**
 * Applying an import's diff, all in one transaction: departments and locations created, new hires
 * invited, changes made, leavers suspended, each through the domain the Team and Organisation pages
 * use, and every write named as the HRIS's (event history: `applyActing` with no person). The
 * connection row is locked first, so applies of one business run one at a time: a second apply of
 * the same import finds it applied and changes nothing; an import whose diff no longer matches the
 * people (another import or a person changed them since) is marked stale and changes nothing.
 */
/** JSON with keys sorted: a diff read back from jsonb (which orders keys its own way) compares equal to a new one. */
const canonical = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) =>
  x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b))) : x);

export type HrisMail = { deps: MailDeps; link: (path: string) => string };
export type ApplyArgs = { businessId: string; importId: string; applierId: string | null; now: number; mail: HrisMail };

/** The rights the HRIS acts with: an administrator's, in the name of the person applying (or who connected it). */
const hrisActor = (businessId: string, userId: string): ActingUser => ({
  id: userId, business_id: businessId, role: 'BUSINESS_ADMIN', is_manager: false, user_permissions: [], manager_id: null,
});

/** The shared invite mail, naming the HR system (a CSV upload is named as the HR file it is). */
async function inviteMail(mail: HrisMail, db: Queryable, businessId: string, issued: IssuedInvite, provider: string): Promise<void> {
  const name = provider === 'CSV' ? 'HR file' : provider;
  await sendInviteMail(mail.deps, db, businessId, issued, { kind: 'integration', name }, mail.link);
}

/** A refusal of one person's step, naming the row, so the admin knows what to fix; nothing is applied. */
async function forRow<T>(row: number, email: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof ApiError) throw new ApiError(err.code, `Row ${row} (${email}): ${err.message}`, err.errors);
    throw err;
  }
}

async function createPlaces(tx: Queryable, businessId: string, plan: Plan, snap: Snapshot): Promise<Record<OrgKind, Map<string, string>>> {
  const ids: Record<OrgKind, Map<string, string>> = {
    departments: new Map(snap.departments.map((d) => [d.name.trim().toLowerCase(), d.id])),
    locations: new Map(snap.locations.map((d) => [d.name.trim().toLowerCase(), d.id])),
  };
  for (const [kind, names] of [['departments', plan.diff.departments_to_create], ['locations', plan.diff.locations_to_create]] as const) {
    for (const name of names) {
      const doc = (await createOrg(tx, kind, businessId, name)) as { id: string };
      ids[kind].set(name.trim().toLowerCase(), doc.id);
    }
  }
  return ids;
}

async function setNames(tx: Queryable, businessId: string, userId: string, first: string, last: string): Promise<void> {
  const seq = await allocateSeqs(tx, businessId, 1);
  if (!seq) throw new ApiError('REQUEST_7004');
  await tx.query('UPDATE spend_users SET first_name = $3, last_name = $4, change_seq = $5, updated_at = now() WHERE business_id = $1 AND id = $2',
    [businessId, userId, first, last, seq.last]);
  await announceChange(tx, businessId, seq.last);
}

async function writeLinks(tx: Queryable, businessId: string, plan: Plan, userOf: (k: Key) => string): Promise<void> {
  for (const { key, row } of plan.links) {
    await tx.query(
      `INSERT INTO hris_people (user_id, business_id, employee_id, title, start_date, end_date) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (user_id) DO UPDATE SET employee_id = EXCLUDED.employee_id, title = EXCLUDED.title, start_date = EXCLUDED.start_date,
         end_date = EXCLUDED.end_date, updated_at = now()`,
      [userOf(key), businessId, row.employee_id, row.title, row.start_date, row.end_date],
    );
  }
}

async function runPlan(tx: Queryable, a: ApplyArgs, conn: ConnectionRow, plan: Plan, snap: Snapshot, actor: ActingUser): Promise<void> {
  const place = await createPlaces(tx, a.businessId, plan, snap);
  const placeId = (kind: OrgKind, name: string | null | undefined) => (name ? place[kind].get(name.trim().toLowerCase()) ?? null : null);
  const hired = new Map<Key, string>();
  const userOf = (k: Key) => (k.startsWith('u:') ? k.slice(2) : hired.get(k)!);
  const issued: IssuedInvite[] = [];
  for (const h of plan.hires) {
    const r = h.row;
    const invite = await forRow(r.row, r.email, () => inviteUser(tx, actor, {
      email: r.email, first_name: r.first_name, last_name: r.last_name, role: conn.default_role as 'BUSINESS_USER',
      manager_id: h.managerKey ? userOf(h.managerKey) : null,
      department_id: placeId('departments', r.department), location_id: placeId('locations', r.location),
    }, a.now));
    hired.set(h.key, (invite.user as { id: string }).id);
    issued.push(invite);
  }
  for (const u of plan.updates) {
    const r = u.row;
    await forRow(r.row, r.email, async () => {
      if (u.names) await setNames(tx, a.businessId, u.userId, r.first_name, r.last_name);
      const patch: UserPatch = {};
      if (u.department !== undefined) patch.department_id = placeId('departments', u.department);
      if (u.location !== undefined) patch.location_id = placeId('locations', u.location);
      if (u.managerKey !== undefined) patch.manager_id = u.managerKey ? userOf(u.managerKey) : null;
      if (Object.keys(patch).length > 0) await updateUser(tx, actor, u.userId, patch);
    });
  }
  for (const userId of plan.leavers) {
    const r = plan.diff.leavers.find((l) => l.user_id === userId)!;
    await forRow(0, r.email, () => suspendUser(tx, actor, userId));
  }
  await writeLinks(tx, a.businessId, plan, userOf);
  // Mailed last, once every step above succeeded (a refused step rolls everything back).
  for (const invite of issued) await inviteMail(a.mail, tx, a.businessId, invite, conn.provider);
}

export async function applyImport(tx: Queryable, a: ApplyArgs): Promise<ReturnType<typeof importDto>> {
  const conn = await requireConnection(tx, a.businessId, true);
  const imp: ImportRow = await loadImport(tx, a.businessId, a.importId, true);
  if (imp.status === 'applied') return importDto(imp);
  if (imp.status === 'invalid') throw new ApiError('REQUEST_7001', 'This file has errors and cannot be applied: fix them and import it again.');
  if (imp.status === 'stale') throw new ApiError('REQUEST_7001', 'The people changed after this diff was made: import the file again to see what it changes now.');
  await applyActing(tx, { userId: null, device: null, source: { kind: 'hris', id: imp.id, label: `HRIS (${conn.provider})` } });
  const actingUserId = a.applierId ?? conn.connected_by;
  const stored = imp.rows as StoredRows;
  const snap = await loadSnapshot(tx, a.businessId);
  const planned = planImport(stored.people, stored.columns, snap, {
    invite_new_hires: conn.invite_new_hires, suspend_leavers: conn.suspend_leavers, default_role: conn.default_role, actingUserId,
  });
  const same = planned.ok && canonical(planned.plan.diff) === canonical(imp.diff);
  if (!planned.ok || !same) {
    await tx.query(`UPDATE hris_imports SET status = 'stale' WHERE id = $1`, [imp.id]);
    return importDto({ ...imp, status: 'stale' });
  }
  await runPlan(tx, a, conn, planned.plan, snap, hrisActor(a.businessId, actingUserId));
  await tx.query(`UPDATE hris_imports SET status = 'applied', applied_by = $2, applied_at = $3 WHERE id = $1`,
    [imp.id, a.applierId, new Date(a.now).toISOString()]);
  return importDto(await loadImport(tx, a.businessId, imp.id));
}
