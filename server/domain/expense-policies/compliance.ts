import type { z } from 'zod';
import type { ComplianceAnswer, ComplianceRow, complianceQuerySchema } from '../../../schema/api/calls-expense-policies.ts';
import { evaluatePolicies, fixableViolations, itemKey, type PolicyPerson, type ViolationCode } from '../../../schema/expense-policy.ts';
import { addDays } from '../../../schema/iso-date.ts';
import { canSeeAllTransactions, isAdmin } from '../../../schema/roles.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError, validationError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { CLAIM_ITEM_WHERE, loadItems, TX_ITEM_WHERE } from './items.ts';
import { livePolicies } from './policies.ts';

/**
 * GET /v1/auth/expense-policies/compliance (issue 29): per person or department, the items of a
 * date range checked against the live policies as they are now. Admins and the roles that see
 * every transaction (`canSeeAllTransactions`: bookkeepers, auditors, IT admins) read it; others
 * get POLICY_7002 before anything is read. Range: inclusive UTC days, default the last 30 days to
 * today, at most MAX_RANGE_DAYS (422 otherwise). Every item of the range is evaluated at once, so
 * per-day caps see all of a person's items of a day.
 */
type ComplianceQuery = z.output<typeof complianceQuerySchema>;
export const MAX_RANGE_DAYS = 366;
const DEFAULT_RANGE_DAYS = 30;

type Person = PolicyPerson & { name: string };
type Tally = Omit<ComplianceRow, 'compliance_rate'>;

const DAY_MS = 86_400_000;
const spanDays = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;

export function assertMaySeeCompliance(user: ActingUser): void {
  if (isAdmin(user) || canSeeAllTransactions(user)) return;
  throw new ApiError('POLICY_7002', 'Only admins and people who see every transaction can see expense policy compliance.');
}

/** The inclusive range asked for, with the defaults; 422 when reversed or longer than MAX_RANGE_DAYS. */
export function complianceRange(q: Pick<ComplianceQuery, 'from' | 'to'>, now: Date): { from: string; to: string } {
  const to = q.to ?? now.toISOString().slice(0, 10);
  const from = q.from ?? addDays(to, -(DEFAULT_RANGE_DAYS - 1));
  if (from > to) throw validationError({ from: 'from must be on or before to.' });
  if (spanDays(from, to) > MAX_RANGE_DAYS) throw validationError({ to: `The range can span at most ${MAX_RANGE_DAYS} days.` });
  return { from, to };
}

export function includesSentence(from: string, to: string): string {
  return `Card transactions (pending and cleared; refunds, declines and reversals excluded) and claims (not canceled) dated ${from} to ${to} (UTC), `
    + 'checked against the expense policies as they are now. Missing items are the ones the person can still fix in their missing-items list '
    + '(a receipt, a memo or coding) on transactions not yet exported to accounting and on draft or rejected claims.';
}

export async function policyCompliance(db: Queryable, user: ActingUser, q: ComplianceQuery, now: Date): Promise<ComplianceAnswer> {
  assertMaySeeCompliance(user);
  const { from, to } = complianceRange(q, now);
  const businessId = user.business_id;
  const people = await db.query<Person>(
    `SELECT id::text, role, department_id::text, btrim(first_name || ' ' || last_name) AS name FROM spend_users WHERE business_id = $1`,
    [businessId],
  );
  const byId = new Map(people.map((p) => [p.id, p]));
  const policies = await livePolicies(db, businessId);
  const items = await loadItems(
    db,
    {
      where: `r.business_id = $1 AND ${TX_ITEM_WHERE} AND r.occurred_at >= ($2::date::timestamp AT TIME ZONE 'UTC')
                AND r.occurred_at < (($3::date + 1)::timestamp AT TIME ZONE 'UTC')`,
      params: [businessId, from, to],
    },
    { where: `r.business_id = $1 AND ${CLAIM_ITEM_WHERE} AND r.transaction_date BETWEEN $2::date AND $3::date`, params: [businessId, from, to] },
  );
  const found = evaluatePolicies(items.map((i) => i.item), policies, byId);
  const departments = q.group_by === 'department' ? await departmentNames(db, businessId) : new Map<string, string>();
  const reminded = q.group_by === 'person' ? await lastReminders(db, businessId) : new Map<string, string>();
  const tallies = new Map<string | null, Tally>();
  const tallyOf = (person: Person | undefined, userId: string): Tally => {
    const id = q.group_by === 'person' ? userId : (person?.department_id ?? null);
    let t = tallies.get(id);
    if (!t) {
      const name = q.group_by === 'person' ? (person?.name ?? 'Unknown person') : (id ? (departments.get(id) ?? 'Unknown department') : 'No department');
      t = { id, name, items: 0, items_with_violations: 0, missing_items: 0, by_code: {}, last_reminded_at: id && q.group_by === 'person' ? (reminded.get(id) ?? null) : null };
      tallies.set(id, t);
    }
    return t;
  };
  const totals = { items: 0, items_with_violations: 0, missing_items: 0 };
  for (const l of items) {
    const t = tallyOf(byId.get(l.item.user_id), l.item.user_id);
    const vs = found.get(itemKey(l.item)) ?? [];
    const missing = l.inWizard && fixableViolations(vs).length > 0;
    t.items += 1;
    totals.items += 1;
    if (vs.length > 0) {
      t.items_with_violations += 1;
      totals.items_with_violations += 1;
    }
    if (missing) {
      t.missing_items += 1;
      totals.missing_items += 1;
    }
    for (const code of new Set(vs.map((v) => v.code))) t.by_code[code as ViolationCode] = (t.by_code[code as ViolationCode] ?? 0) + 1;
  }
  const rows: ComplianceRow[] = [...tallies.values()]
    .map((t) => ({ ...t, compliance_rate: t.items === 0 ? 1 : 1 - t.items_with_violations / t.items }))
    // The least compliant first (what an admin acts on), then by name.
    .sort((a, b) => a.compliance_rate - b.compliance_rate || a.name.localeCompare(b.name) || String(a.id).localeCompare(String(b.id)));
  return { group_by: q.group_by, from, to, includes: includesSentence(from, to), rows, totals };
}

async function departmentNames(db: Queryable, businessId: string): Promise<Map<string, string>> {
  const rows = await db.query<{ id: string; name: string }>('SELECT id::text, name FROM departments WHERE business_id = $1', [businessId]);
  return new Map(rows.map((r) => [r.id, r.name]));
}

async function lastReminders(db: Queryable, businessId: string): Promise<Map<string, string>> {
  const rows = await db.query<{ user_id: string; at: string }>(
    'SELECT user_id::text, ll_iso(max(sent_at)) AS at FROM missing_item_reminders WHERE business_id = $1 GROUP BY user_id',
    [businessId],
  );
  return new Map(rows.map((r) => [r.user_id, r.at]));
}
