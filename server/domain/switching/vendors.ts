import { randomUUID } from 'node:crypto';
import type { SwitchingImport, SwitchingOverview, SwitchingVendor, SwitchVendorCardBody } from '../../../schema/api/calls-switching.ts';
import type { Card } from '../../../schema/entities/card.ts';
import { cadenceOf, isRecurring, suggestedLimit } from '../../../schema/switching.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { issueCard } from '../cards.ts';
import type { RowProblem, StatementCharge } from './read-statement.ts';

/**
 * Switching's records (migration 087): the statements uploaded, their charges (one row per
 * charge however many statements repeat it) and the vendors found in them. A vendor's figures
 * are read from its charges each time, so a second statement simply adds months.
 */

interface ChargeRow { merchant_key: string; currency: string; charged_on: string; amount: number; description: string }
interface VendorRow {
  id: string; merchant_key: string; currency: string; name: string; switched_at: string | null;
  card_id: string | null; card_name: string | null; card_status: string | null; last_four: string | null; holder: string | null;
}

/** "NETFLIX.COM" → "Netflix.com", "BLUE BOTTLE COFFEE" → "Blue Bottle Coffee". */
export const vendorName = (key: string) =>
  key.toLowerCase().replace(/(^|[\s&'-])([a-z])/g, (_, sep: string, c: string) => sep + c.toUpperCase());

function vendorOf(v: VendorRow, charges: ChargeRow[]): SwitchingVendor | null {
  if (charges.length === 0) return null;
  const days = charges.map((c) => c.charged_on).sort();
  const byMonth = new Map<string, number>();
  for (const c of charges) byMonth.set(c.charged_on.slice(0, 7), (byMonth.get(c.charged_on.slice(0, 7)) ?? 0) + c.amount);
  const cadence = cadenceOf(days);
  const last = charges.reduce((a, b) => (b.charged_on > a.charged_on ? b : a));
  const largest = Math.max(...charges.map((c) => c.amount));
  return {
    id: v.id, name: v.name, currency: v.currency, charges: charges.length, months: byMonth.size, cadence,
    first_charged_on: days[0]!, last_charged_on: days[days.length - 1]!, last_amount: last.amount, largest_amount: largest,
    total: charges.reduce((s, c) => s + c.amount, 0),
    suggested_limit: suggestedLimit(cadence, largest, Math.max(...byMonth.values()), v.currency),
    card: v.card_id ? { id: v.card_id, display_name: v.card_name!, status: v.card_status!, last_four: v.last_four ?? '', user_name: v.holder ?? '' } : null,
    switched_at: v.switched_at,
  };
}

const VENDOR_SQL = `
  SELECT v.id::text, v.merchant_key, v.currency, v.name, v.switched_at, v.card_id::text,
         c.display_name AS card_name, c.status AS card_status, c.last_four, trim(u.first_name || ' ' || u.last_name) AS holder
    FROM switching_vendors v
    LEFT JOIN cards c ON c.id = v.card_id
    LEFT JOIN spend_users u ON u.id = c.user_id
   WHERE v.business_id = $1 AND v.dismissed_at IS NULL`;

async function chargesOf(db: Queryable, businessId: string, keys?: { merchant_key: string; currency: string }): Promise<Map<string, ChargeRow[]>> {
  const rows = await db.query<ChargeRow>(
    `SELECT merchant_key, currency, to_char(charged_on, 'YYYY-MM-DD') AS charged_on, amount, description
       FROM switching_charges WHERE business_id = $1 ${keys ? 'AND merchant_key = $2 AND currency = $3' : ''}`,
    keys ? [businessId, keys.merchant_key, keys.currency] : [businessId],
  );
  const out = new Map<string, ChargeRow[]>();
  for (const r of rows) {
    const k = `${r.merchant_key}\u0000${r.currency}`;
    out.set(k, [...(out.get(k) ?? []), r]);
  }
  return out;
}

async function importsOf(db: Queryable, businessId: string, id?: string): Promise<SwitchingImport[]> {
  return db.query<SwitchingImport>(
    `SELECT i.id::text, i.file_name, i.currency, i.charges, i.duplicates, i.credits, i.unreadable, i.problems,
            to_char(i.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
            trim(u.first_name || ' ' || u.last_name) AS created_by_name
       FROM switching_imports i JOIN spend_users u ON u.id = i.created_by
      WHERE i.business_id = $1 ${id ? 'AND i.id = $2' : ''}
      ORDER BY i.created_at DESC, i.n DESC LIMIT 10`,
    id ? [businessId, id] : [businessId],
  );
}

const iso = (v: string | Date | null) => (v === null ? null : new Date(v).toISOString());

/** The vendors to move and moved (recurring ones only, largest total first) and the latest statements. */
export async function switchingOverview(db: Queryable, businessId: string): Promise<SwitchingOverview> {
  const [vendors, charges, imports] = await Promise.all([
    db.query<VendorRow>(VENDOR_SQL, [businessId]), chargesOf(db, businessId), importsOf(db, businessId),
  ]);
  const data = vendors
    .map((v) => vendorOf({ ...v, switched_at: iso(v.switched_at) }, charges.get(`${v.merchant_key}\u0000${v.currency}`) ?? []))
    .filter((v): v is SwitchingVendor => v !== null && (v.card !== null || isRecurring(v.charges, v.months, v.cadence)))
    .sort((a, b) => b.total - a.total || a.name.localeCompare(b.name));
  return { data, imports };
}

/** Charges numbered among identical ones (vendor, day, amount) in this file: the key of one charge. */
function numbered(charges: StatementCharge[]): (StatementCharge & { occurrence: number })[] {
  const seen = new Map<string, number>();
  return charges.map((c) => {
    const k = `${c.merchant_key}\u0000${c.charged_on}\u0000${c.amount}`;
    const occurrence = (seen.get(k) ?? 0) + 1;
    seen.set(k, occurrence);
    return { ...c, occurrence };
  });
}

export interface StatementToStore {
  fileName: string; currency: string; charges: StatementCharge[]; credits: number; unreadable: number; problems: RowProblem[];
}

/** Stores a read statement in one transaction: its charges (repeats of known ones skipped) and any new vendors. */
export async function storeStatement(tx: Queryable, user: ActingUser, file: StatementToStore, now: Date): Promise<SwitchingImport> {
  const id = randomUUID();
  const rows = numbered(file.charges);
  await tx.query(
    `INSERT INTO switching_imports (id, business_id, file_name, currency, charges, duplicates, credits, unreadable, problems, created_by, created_at)
     VALUES ($1, $2, $3, $4, $5, 0, $6, $7, $8::jsonb, $9, $10)`,
    [id, user.business_id, file.fileName, file.currency, rows.length, file.credits, file.unreadable, JSON.stringify(file.problems), user.id, now],
  );
  const inserted = await tx.query<{ n: number }>(
    `WITH c AS (
       INSERT INTO switching_charges (business_id, merchant_key, currency, charged_on, amount, occurrence, description, import_id)
       SELECT $1, x.merchant_key, $2, x.charged_on::date, x.amount, x.occurrence, x.description, $3
         FROM jsonb_to_recordset($4::jsonb) AS x(merchant_key text, charged_on text, amount bigint, occurrence int, description text)
       ON CONFLICT DO NOTHING RETURNING 1)
     SELECT count(*)::int AS n FROM c`,
    [user.business_id, file.currency, id, JSON.stringify(rows.map(({ merchant_key, charged_on, amount, occurrence, description }) => ({ merchant_key, charged_on, amount, occurrence, description })))],
  );
  const names = new Map(rows.map((r) => [r.merchant_key, vendorName(r.merchant_key)]));
  await tx.query(
    `INSERT INTO switching_vendors (id, business_id, merchant_key, currency, name, created_at)
     SELECT gen_random_uuid(), $1, x.key, $2, x.name, $3 FROM jsonb_to_recordset($4::jsonb) AS x(key text, name text)
     ON CONFLICT (business_id, merchant_key, currency) DO NOTHING`,
    [user.business_id, file.currency, now, JSON.stringify([...names].map(([key, name]) => ({ key, name })))],
  );
  await tx.query(`UPDATE switching_imports SET duplicates = charges - $2 WHERE id = $1`, [id, inserted[0]!.n]);
  return (await importsOf(tx, user.business_id, id))[0]!;
}

async function vendorRow(db: Queryable, businessId: string, id: string, lock: boolean): Promise<VendorRow> {
  const rows = await db.query<VendorRow>(`${VENDOR_SQL} AND v.id = $2${lock ? ' FOR UPDATE OF v' : ''}`, [businessId, id]);
  if (!rows[0]) throw new ApiError('REQUEST_7004', 'There is no such vendor to switch.');
  return { ...rows[0], switched_at: iso(rows[0].switched_at) };
}

async function vendorDto(db: Queryable, businessId: string, id: string): Promise<SwitchingVendor> {
  const v = await vendorRow(db, businessId, id, false);
  const charges = await chargesOf(db, businessId, v);
  return vendorOf(v, charges.get(`${v.merchant_key}\u0000${v.currency}`) ?? [])!;
}

/**
 * Issues the vendor's virtual card through cards.issue's rules and links it, under the vendor's
 * row lock: a repeat (or a race) answers the card already linked, never a second card.
 */
export async function switchVendorToCard(
  tx: Queryable, user: ActingUser, vendorId: string, body: SwitchVendorCardBody, now: Date,
  readCard: (id: string) => Promise<Card>,
): Promise<{ vendor: SwitchingVendor; card: Card; created: boolean }> {
  const v = await vendorRow(tx, user.business_id, vendorId, true);
  if (v.card_id) return { vendor: await vendorDto(tx, user.business_id, vendorId), card: await readCard(v.card_id), created: false };
  const card = await issueCard(tx, user, {
    user_id: body.user_id, display_name: body.display_name ?? v.name, is_physical: false,
    limit: { amount: body.limit.amount, currency: v.currency, interval: body.limit.interval, per_transaction: null },
    allowed_categories: [], department_id: null, location_id: null,
  }, now);
  await tx.query(`UPDATE switching_vendors SET card_id = $3, switched_by = $4, switched_at = $5 WHERE business_id = $1 AND id = $2`,
    [user.business_id, vendorId, card.id, user.id, now]);
  return { vendor: await vendorDto(tx, user.business_id, vendorId), card, created: true };
}

/** Removes a vendor from the list for good (a later statement adds its charges, not the vendor back). */
export async function dismissVendor(tx: Queryable, user: ActingUser, vendorId: string, now: Date): Promise<void> {
  const done = await tx.query(`UPDATE switching_vendors SET dismissed_at = $3, dismissed_by = $4
     WHERE business_id = $1 AND id = $2 AND dismissed_at IS NULL RETURNING 1`, [user.business_id, vendorId, now, user.id]);
  if (done.length === 0) throw new ApiError('REQUEST_7004', 'There is no such vendor to switch.');
}
