import { randomUUID } from 'node:crypto';
import { billTotal, mayManageBills, validateBill } from '../../schema/bill-rules.ts';
import type {
  RecurringBillCreate, RecurringBillPatch, RecurringBillTemplate, TemplateLine,
} from '../../schema/entities/recurring-bill.ts';
import {
  billDatesFor, duePeriods, invoiceNumberFor, invoicePatternError, nextPeriod, period, validateSchedule, type Period, type Schedule,
} from '../../schema/recurring-bills.ts';
import type { ActingUser } from '../core/actor.ts';
import { ApiError, validationError } from '../core/errors.ts';
import type { Db, Queryable } from '../db/db.ts';
import { assertEntity, assertLineCoding, createBill } from './bills.ts';
import { newestFirstPage, type Page, type PageRequest } from './newest-first-page.ts';
import { findVendor } from './vendors.ts';
import { startPeriodicJob, type PeriodicJob, type PeriodicJobOptions } from '../core/periodic-job.ts';
import { findLiveDoc } from './live-doc.ts';

/**
 * Recurring bill templates (issue 11 §7) and the job that bills their periods. Templates are
 * server-only rows; the bills are made by `createBill` (domain/bills.ts), the very path of POST
 * /bill-pay: same validation, the approval chain on submit, a change seq so they mirror.
 *
 * Exactly once per (template, period): the job inserts the period's `recurring_bill_runs` row
 * ON CONFLICT DO NOTHING in the transaction that creates the bill. A second run (a concurrent
 * one, another server) blocks on that key until the first commits, then finds it taken; if the
 * first rolled back, it makes the bill itself. A bill the rules refuse (the vendor was deleted,
 * the creator lost bill pay) is recorded FAILED on its period with the reason, shown on the
 * template as `last_error`, and not retried.
 */

const day = (col: string) => `to_char(r.${col}, 'YYYY-MM-DD')`;
const GENERATED = `FROM recurring_bill_runs x WHERE x.template_id = r.id AND x.status = 'GENERATED'`;
const TEMPLATE_DOC = `jsonb_build_object(
  'id', r.id, 'business_id', r.business_id, 'vendor_id', r.vendor_id, 'currency', r.currency, 'line_items', r.line_items,
  'amount', r.amount, 'memo', r.memo, 'entity_id', r.entity_id, 'interval', r.interval, 'day_of_month', r.day_of_month,
  'day_of_week', r.day_of_week, 'start_date', ${day('start_date')}, 'end_date', ${day('end_date')},
  'max_occurrences', r.max_occurrences, 'generate_from', ${day('generate_from')},
  'invoice_number_pattern', r.invoice_number_pattern, 'days_until_due', r.days_until_due,
  'submit_for_approval', r.submit_for_approval, 'status', r.status, 'last_error', r.last_error,
  'generated_count', (SELECT count(*) ${GENERATED}),
  'last_period_start', (SELECT to_char(max(x.period_start), 'YYYY-MM-DD') ${GENERATED}),
  'created_by', r.created_by, 'created_at', ll_iso(r.created_at), 'updated_at', ll_iso(r.updated_at), 'deleted', r.deleted)`;

type Stored = Omit<RecurringBillTemplate, 'next_period_start'> & { generate_from: string };

const utcDay = (now: Date) => now.toISOString().slice(0, 10);

const scheduleOf = (t: Pick<Stored, keyof Schedule>): Schedule => ({
  interval: t.interval, start_date: t.start_date, day_of_month: t.day_of_month, day_of_week: t.day_of_week,
  end_date: t.end_date, max_occurrences: t.max_occurrences,
});

/** The wire shape: the stored row plus its next period (none while paused, or once the schedule ends). */
function wire(t: Stored, now: Date): RecurringBillTemplate {
  const { generate_from, ...rest } = t;
  const next = t.status === 'ACTIVE' && !t.deleted ? nextPeriod(scheduleOf(t), utcDay(now), generate_from) : null;
  return { ...rest, generated_count: Number(t.generated_count), next_period_start: next?.start ?? null };
}

async function findTemplate(db: Queryable, businessId: string, id: string, lock = false): Promise<Stored> {
  return findLiveDoc<Stored>(db, { table: 'recurring_bill_templates', doc: TEMPLATE_DOC, notFound: 'This recurring bill was not found.' }, businessId, id, lock);
}

type TemplateFields = Schedule & {
  vendor_id: string; currency: string; line_items: readonly TemplateLine[]; memo: string | null; entity_id: string | null;
  invoice_number_pattern: string; days_until_due: number;
};

/**
 * The schedule's rules, then the first period's bill through validateBill (so a template that
 * could never make a valid bill is refused now, with the bill's own messages), then references.
 */
async function assertTemplate(tx: Queryable, businessId: string, f: TemplateFields): Promise<void> {
  const errors = validateSchedule(f);
  if (Object.keys(errors).length === 0) {
    const first = period(f, 0);
    const bill = validateBill({
      invoice_number: invoiceNumberFor(f.invoice_number_pattern, first), currency: f.currency, line_items: f.line_items,
      ...billDatesFor(first, f.days_until_due),
    });
    for (const [k, m] of Object.entries(bill)) {
      errors[k === 'invoice_number' ? 'invoice_number_pattern' : k === 'amount' ? 'line_items' : k] = m;
    }
    const repeats = errors.invoice_number_pattern ? null : invoicePatternError(f.invoice_number_pattern, f);
    if (repeats) errors.invoice_number_pattern = repeats;
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);
  await findVendor(tx, businessId, f.vendor_id);
  await assertLineCoding(tx, businessId, f.line_items);
  if (f.entity_id) await assertEntity(tx, businessId, f.entity_id);
}


export async function createTemplate(tx: Queryable, user: ActingUser, body: RecurringBillCreate, now: Date): Promise<RecurringBillTemplate> {
  const f: TemplateFields = {
    ...body, memo: body.memo ?? null, entity_id: body.entity_id ?? null, day_of_month: body.day_of_month ?? null,
    day_of_week: body.day_of_week ?? null, end_date: body.end_date ?? null, max_occurrences: body.max_occurrences ?? null,
  };
  await assertTemplate(tx, user.business_id, f);
  const id = randomUUID();
  await tx.query(
    `INSERT INTO recurring_bill_templates (id, business_id, vendor_id, currency, line_items, amount, memo, entity_id, interval,
        day_of_month, day_of_week, start_date, end_date, max_occurrences, generate_from, invoice_number_pattern, days_until_due,
        submit_for_approval, status, created_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, $10, $11, $12, $13, $14, $12, $15, $16, $17, $18, $19, $20, $20)`,
    [id, user.business_id, f.vendor_id, f.currency, JSON.stringify(f.line_items), billTotal(f.line_items), f.memo, f.entity_id, f.interval,
      f.day_of_month, f.day_of_week, f.start_date, f.end_date, f.max_occurrences, f.invoice_number_pattern, f.days_until_due,
      body.submit_for_approval, body.status, user.id, now.toISOString()],
  );
  return wire(await findTemplate(tx, user.business_id, id), now);
}

const SCHEDULE_FIELDS = ['interval', 'day_of_month', 'day_of_week', 'start_date'] as const;

export async function updateTemplate(
  tx: Queryable, user: ActingUser, id: string, patch: RecurringBillPatch, now: Date,
): Promise<RecurringBillTemplate> {
  const businessId = user.business_id;
  const t = await findTemplate(tx, businessId, id, true);
  const given = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<TemplateFields> & RecurringBillPatch;
  const next = { ...t, ...given } as Stored;
  await assertTemplate(tx, businessId, next);
  // A resume or a new schedule bills from today on: the periods in between are not billed at once.
  const resumed = t.status === 'PAUSED' && next.status === 'ACTIVE';
  const rescheduled = SCHEDULE_FIELDS.some((k) => given[k] !== undefined && given[k] !== t[k]);
  const today = utcDay(now);
  const from = resumed || rescheduled ? (next.start_date > today ? next.start_date : today) : t.generate_from;
  await tx.query(
    `UPDATE recurring_bill_templates SET vendor_id = $3, currency = $4, line_items = $5::jsonb, amount = $6, memo = $7, entity_id = $8,
        interval = $9, day_of_month = $10, day_of_week = $11, start_date = $12, end_date = $13, max_occurrences = $14,
        generate_from = $15, invoice_number_pattern = $16, days_until_due = $17, submit_for_approval = $18, status = $19, updated_at = $20
      WHERE business_id = $1 AND id = $2`,
    [businessId, id, next.vendor_id, next.currency, JSON.stringify(next.line_items), billTotal(next.line_items), next.memo, next.entity_id,
      next.interval, next.day_of_month, next.day_of_week, next.start_date, next.end_date, next.max_occurrences, from,
      next.invoice_number_pattern, next.days_until_due, next.submit_for_approval, next.status, now.toISOString()],
  );
  return wire(await findTemplate(tx, businessId, id), now);
}

/** A tombstone: the job stops; the bills it made, and its runs, stay. */
export async function deleteTemplate(tx: Queryable, user: ActingUser, id: string, now: Date): Promise<RecurringBillTemplate> {
  const t = await findTemplate(tx, user.business_id, id, true);
  await tx.query('UPDATE recurring_bill_templates SET deleted = true, updated_at = $3 WHERE business_id = $1 AND id = $2',
    [user.business_id, id, now.toISOString()]);
  return wire({ ...t, deleted: true, updated_at: now.toISOString() }, now);
}

export async function listTemplates(db: Queryable, businessId: string, req: PageRequest, now: Date): Promise<Page<RecurringBillTemplate>> {
  const page = await newestFirstPage<Stored>(
    db, { table: 'recurring_bill_templates', doc: TEMPLATE_DOC, where: 'r.business_id = $1 AND NOT r.deleted', params: [businessId] }, req,
  );
  return { ...page, data: page.data.map((t) => wire(t, now)) };
}

// --- The job ----------------------------------------------------------------------------------------

export type GeneratedPeriod = { template_id: string; period_start: string; bill_id: string };
export type FailedPeriod = { template_id: string; period_start: string; error: string };
export type GenerationResult = { generated: GeneratedPeriod[]; failed: FailedPeriod[] };

/** The creator acts for the template: the bill is theirs, and they are the chain's requester. */
async function creatorOf(tx: Queryable, t: Stored): Promise<ActingUser | null> {
  const [u] = await tx.query<ActingUser>(
    `SELECT id::text, business_id::text, role, is_manager, user_permissions, manager_id::text FROM spend_users
      WHERE id = $1 AND business_id = $2 AND NOT deleted AND status = 'ACTIVE'`,
    [t.created_by, t.business_id],
  );
  return u && mayManageBills(u) ? u : null;
}

/**
 * One period of one template in `tx`: null when the period is not (or no longer) due, or another
 * run already has it. Refusals are recorded on the period, never thrown. The template is read
 * without a lock (a FOR SHARE here deadlocked the race test: a run's later UPDATE of the template
 * waited on another run's share lock while that run waited on this one's period key or business
 * row); every lock this takes comes after the period key, in writeMirrored's order.
 */
async function generateOne(
  tx: Queryable, templateId: string, businessId: string, p: Period, now: Date,
): Promise<GeneratedPeriod | FailedPeriod | null> {
  const rows = await tx.query<{ doc: Stored }>(
    `SELECT ${TEMPLATE_DOC} AS doc FROM recurring_bill_templates r
      WHERE r.id = $1 AND r.business_id = $2 AND r.status = 'ACTIVE' AND NOT r.deleted`,
    [templateId, businessId],
  );
  const t = rows[0]?.doc;
  if (!t) return null;
  const due = duePeriods(scheduleOf(t), utcDay(now), { from: t.generate_from });
  if (!due.some((d) => d.start === p.start && d.index === p.index)) return null;
  const taken = await tx.query(
    `INSERT INTO recurring_bill_runs (template_id, period_start, business_id, status) VALUES ($1, $2, $3, 'GENERATED')
     ON CONFLICT (template_id, period_start) DO NOTHING RETURNING template_id`,
    [templateId, p.start, businessId],
  );
  if (taken.length === 0) return null;
  const key = { template_id: templateId, period_start: p.start };
  await tx.query('SAVEPOINT recurring_bill');
  try {
    const user = await creatorOf(tx, t);
    if (!user) throw new ApiError('FORBIDDEN_7003', 'The template\'s creator can no longer manage bills; recreate the template.');
    const bill = await createBill(tx, user, {
      id: randomUUID(), vendor_id: t.vendor_id, invoice_number: invoiceNumberFor(t.invoice_number_pattern, p), currency: t.currency,
      ...billDatesFor(p, t.days_until_due), line_items: t.line_items, memo: t.memo ?? undefined, submit: t.submit_for_approval,
      entity_id: t.entity_id,
    }, now);
    await tx.query('RELEASE SAVEPOINT recurring_bill');
    await tx.query('UPDATE recurring_bill_runs SET bill_id = $3 WHERE template_id = $1 AND period_start = $2', [templateId, p.start, bill.id]);
    await tx.query('UPDATE recurring_bill_templates SET last_error = NULL WHERE id = $1 AND last_error IS NOT NULL', [templateId]);
    return { ...key, bill_id: bill.id };
  } catch (err) {
    await tx.query('ROLLBACK TO SAVEPOINT recurring_bill');
    if (!(err instanceof ApiError)) throw err;
    const error = `${p.start}: ${err.message}`;
    await tx.query(`UPDATE recurring_bill_runs SET status = 'FAILED', error = $3 WHERE template_id = $1 AND period_start = $2`,
      [templateId, p.start, error]);
    await tx.query('UPDATE recurring_bill_templates SET last_error = $2 WHERE id = $1', [templateId, error]);
    return { ...key, error };
  }
}

/**
 * Bills every due period of every active template (all businesses) as of `now`: at most
 * MAX_CATCH_UP_PERIODS per template per run (the latest ones), oldest first, each period in its
 * own transaction. Safe to run concurrently with itself, here or on another server.
 */
export async function generateRecurringBills(db: Db, now: Date): Promise<GenerationResult> {
  const out: GenerationResult = { generated: [], failed: [] };
  const today = utcDay(now);
  const templates = await db.query<{ doc: Stored }>(
    // An inactive or locked business (§3) gets no new bills; its templates resume with it.
    `SELECT ${TEMPLATE_DOC} AS doc FROM recurring_bill_templates r JOIN businesses b ON b.id = r.business_id AND b.status = 'ACTIVE'
      WHERE r.status = 'ACTIVE' AND NOT r.deleted ORDER BY r.id`,
  );
  for (const { doc: t } of templates) {
    const due = duePeriods(scheduleOf(t), today, { from: t.generate_from });
    if (due.length === 0) continue;
    const done = await db.query<{ d: string }>(
      `SELECT to_char(period_start, 'YYYY-MM-DD') AS d FROM recurring_bill_runs WHERE template_id = $1 AND period_start = ANY($2::date[])`,
      [t.id, due.map((p) => p.start)],
    );
    const seen = new Set(done.map((r) => r.d));
    for (const p of due.filter((x) => !seen.has(x.start))) {
      const r = await db.transaction((tx) => generateOne(tx, t.id, t.business_id, p, now));
      if (r && 'bill_id' in r) out.generated.push(r);
      else if (r) out.failed.push(r);
    }
  }
  return out;
}

/**
 * The job as main.ts runs it: now, then every `everyMs`, on the injected clock; a run never
 * overlaps the previous one in this process (other processes are the runs table's to order).
 */
export const startRecurringBillJob = (db: Db, opts: PeriodicJobOptions): PeriodicJob =>
  startPeriodicJob((now) => generateRecurringBills(db, now), opts);
