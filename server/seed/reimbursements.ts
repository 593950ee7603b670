import type { ReimbursementStatus, ReimbursementType } from '../../schema/entities/reimbursement.ts';
import { mileageAmount, perDiemAmount, settlesAt } from '../../schema/reimbursement-rules.ts';
import type { Queryable } from '../db/db.ts';
import { bulkInsert, cols } from './bulk-insert.ts';
import type { DemoApproval, DemoPayment } from './claims.ts';
import { MERCHANTS } from './merchants.ts';
import type { MerchantSpec } from './merchants.ts';
import { Rng, WeightedPicker } from './prng.ts';
import { MEMO_CITIES, MEMO_CLIENTS, SPEND_CATEGORIES } from './reference-data.ts';
import type { SpendCategoryKey } from './reference-data.ts';
import { historyStart } from './generate.ts';
import type { DemoData, DemoUser } from './types.ts';

/**
 * Generated reimbursements (issue 9's benchmark: 20,000 claims beside 100,000 transactions).
 * A pure function of (demo, count, now, seed), drawn from its own PRNG stream: ≈70 % out of
 * pocket (merchants of merchants.ts), ≈20 % mileage (the trip year's IRS rate), ≈10 % per diem
 * (1–5 days); every amount computed by schema/reimbursement-rules.ts. Statuses follow the claim's
 * age (old claims mostly paid, recent ones submitted, approved or still drafts, a few rejected
 * with a reason) and its timeline (created → submitted → decided → paid, never after `now`).
 * Each submitted claim has its approval (PENDING while SUBMITTED, decided otherwise; approver
 * scope = the claimant's manager, as `openApproval` stamps it), each paid one its ACH payment.
 * Change seqs: the claims interleave with the transactions in time order (`interleaveSeqs`).
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** `--reimbursements` when not given: one claim per five card transactions, at most 100,000. */
const MAX_DEFAULT_REIMBURSEMENTS = 100_000;
export function defaultReimbursements(transactions: number): number {
  return Math.min(MAX_DEFAULT_REIMBURSEMENTS, Math.round(transactions / 5));
}

const CLAIM_TYPE_MIX: Readonly<Record<ReimbursementType, number>> = { OUT_OF_POCKET: 0.7, MILEAGE: 0.2, PER_DIEM: 0.1 };

/** What employees pay themselves and claim back (weights), never SaaS or cloud. */
const OUT_OF_POCKET_CATEGORIES: Partial<Record<SpendCategoryKey, number>> = {
  meals: 34, ground: 20, office: 12, lodging: 9, fuel: 6, airfare: 4, shipping: 4, training: 4, gifts: 3, telecom: 4,
};
const CATEGORY_GL: Record<'MILEAGE' | 'PER_DIEM', SpendCategoryKey> = { MILEAGE: 'ground', PER_DIEM: 'meals' };

export const REJECTION_REASONS = [
  'Missing itemized receipt.',
  'Personal expense, not reimbursable.',
  'Duplicate of a card transaction.',
  'Over the meal limit; please resubmit the business portion.',
  'Please buy equipment through IT.',
  'Mileage looks higher than the route; please check the distance.',
] as const;

/** Status odds by the claim's age when it was created (days before now). */
const STATUS_ODDS: { maxAgeDays: number; odds: Record<Exclude<ReimbursementStatus, 'CANCELED'>, number> }[] = [
  { maxAgeDays: 14, odds: { DRAFT: 0.25, SUBMITTED: 0.4, APPROVED: 0.2, REJECTED: 0.05, PAID: 0.1 } },
  { maxAgeDays: 45, odds: { DRAFT: 0.06, SUBMITTED: 0.12, APPROVED: 0.2, REJECTED: 0.05, PAID: 0.57 } },
  { maxAgeDays: Infinity, odds: { DRAFT: 0.02, SUBMITTED: 0.01, APPROVED: 0.03, REJECTED: 0.05, PAID: 0.89 } },
];

/** A reimbursements row as stored (and mirrored). */
export interface SeedClaim {
  id: string;
  business_id: string;
  user_id: string;
  type: ReimbursementType;
  status: ReimbursementStatus;
  merchant: string | null;
  amount: number;
  currency: 'USD';
  transaction_date: string;
  memo: string | null;
  gl_account_id: string | null;
  department_id: string | null;
  distance_miles: number | null;
  start_location: string | null;
  end_location: string | null;
  trip_date: string | null;
  location: string | null;
  start_date: string | null;
  end_date: string | null;
  rejection_reason: string | null;
  submitted_at: string | null;
  created_at: string;
  change_seq: number;
  updated_at: string;
  deleted: boolean;
}

export interface GeneratedClaims {
  claims: SeedClaim[];
  approvals: DemoApproval[];
  payments: DemoPayment[];
  /** The highest change_seq handed out (the demo's when there are no claims). */
  maxChangeSeq: number;
}

/** A row (with rows that follow it) of another kind stamped into the same timeline, by when it was last touched. */
export interface TimelineItem {
  updated_at: string;
  /** Takes its seqs (`next()` once per row it stamps). */
  stamp(next: () => number): void;
}

export interface GenerateClaimsOptions {
  count: number;
  now: Date;
  seed: number;
  /** Other generated rows (bills: seed/bills.ts) interleaved with the claims and transactions, in time order. */
  interleave?: readonly TimelineItem[];
}

const iso = (ms: number) => new Date(ms).toISOString();
const isoDate = (ms: number) => iso(ms).slice(0, 10);
const dayOf = (ms: number) => Math.floor(ms / DAY) * DAY;

export function generateClaims(data: DemoData, opts: GenerateClaimsOptions): GeneratedClaims {
  const { count } = opts;
  if (!Number.isInteger(count) || count < 0) throw new RangeError('reimbursements must be a non-negative integer');
  const others = opts.interleave ?? [];
  const empty = (): GeneratedClaims => ({
    claims: [], approvals: [], payments: [], maxChangeSeq: others.length > 0 ? interleaveSeqs(data, [], new Map(), others) : data.maxChangeSeq,
  });
  if (count === 0) return empty();
  const rng = new Rng(opts.seed, `${data.business.id}\u0000reimbursements`);
  const users = data.users.filter((u) => u.status === 'ACTIVE');
  if (users.length === 0) return empty();
  const c = claimDraw(data, opts, rng, users);

  const claims: SeedClaim[] = new Array(count);
  const approvals: (DemoApproval | null)[] = new Array(count).fill(null);
  const payments: DemoPayment[] = [];
  for (let i = 0; i < count; i++) {
    const drawn = drawClaim(c, data);
    claims[i] = drawn.claim;
    approvals[i] = drawn.approval;
    if (drawn.payment) payments.push(drawn.payment);
  }

  const order = claims.map((_, i) => i).sort((a, b) => (claims[a]!.updated_at < claims[b]!.updated_at ? -1 : claims[a]!.updated_at > claims[b]!.updated_at ? 1 : a - b));
  const orderedClaims = order.map((i) => claims[i]!);
  const orderedApprovals = order.map((i) => approvals[i]).filter((a): a is DemoApproval => a !== null);
  const maxChangeSeq = interleaveSeqs(data, orderedClaims, new Map(orderedApprovals.map((a) => [a.object_id, a])), others);
  return { claims: orderedClaims, approvals: orderedApprovals, payments, maxChangeSeq };
}

type ClaimDraw = ReturnType<typeof claimDraw>;

/** What every claim is drawn from: the stream, the clock, the demo's lookups and the weighted pickers. */
function claimDraw(data: DemoData, opts: GenerateClaimsOptions, rng: Rng, users: readonly DemoUser[]) {
  const now = opts.now.getTime();
  const start = historyStart(opts.now).getTime();
  const usersById = new Map(data.users.map((u) => [u.id, u]));
  const account = (key: string) => data.accounts.find((a) => a.email.startsWith(`${key}@`))?.user_id;
  const admins = data.users.filter((u) => u.role === 'BUSINESS_ADMIN' || u.role === 'BUSINESS_OWNER').map((u) => u.id);
  const payer = account('admin') ?? admins[0];
  if (!payer) throw new Error('the demo has no admin to pay claims');
  const locationName = new Map(data.locations.map((l) => [l.id, l.name]));
  const glByCode = new Map(data.glAccounts.map((g) => [g.code, g.id]));

  const claimants = new WeightedPicker(users, users.map(() => 1));
  const types = new WeightedPicker(Object.keys(CLAIM_TYPE_MIX) as ReimbursementType[], Object.values(CLAIM_TYPE_MIX));
  const categoryKeys = Object.keys(OUT_OF_POCKET_CATEGORIES) as SpendCategoryKey[];
  const categories = new WeightedPicker(categoryKeys, categoryKeys.map((k) => OUT_OF_POCKET_CATEGORIES[k] ?? 0));
  const merchantPicker = new Map(
    categoryKeys.map((k) => {
      const list = MERCHANTS[k].US ?? MERCHANTS[k].GLOBAL ?? [];
      return [k, new WeightedPicker(list, list.map((m) => m.weight))] as const;
    }),
  );
  const statusPickers = STATUS_ODDS.map((s) => ({
    maxAgeDays: s.maxAgeDays,
    picker: new WeightedPicker(Object.keys(s.odds) as ReimbursementStatus[], Object.values(s.odds)),
  }));
  const perDiemDays = new WeightedPicker([1, 2, 3, 4, 5], [25, 30, 25, 12, 8]);
  // The last day a trip may end on: the day of the last hour, so a claim is written up after its trip.
  const today = dayOf(now - HOUR);
  return {
    rng, now, start, today, usersById, admins, payer, locationName, glByCode,
    claimants, types, categories, merchantPicker, statusPickers, perDiemDays,
  };
}

/** One claim with, once submitted, its approval and, once paid, its payment (draws in a fixed order: the seed's output depends on it). */
function drawClaim(c: ClaimDraw, data: DemoData): { claim: SeedClaim; approval: DemoApproval | null; payment: DemoPayment | null } {
  const { rng } = c;
  const user = c.claimants.pick(rng);
  const drawn = drawFields(c, user, c.types.pick(rng), dayOf(c.start + rng.next() * (c.now - c.start)));
  const { type, day, fields } = drawn;
  const claimDay = type === 'PER_DIEM' ? Date.parse(`${fields.end_date}T00:00:00Z`) : day;
  const t = drawTimeline(c, claimDay);
  const { status } = t;
  const reason = status === 'REJECTED' ? rng.pick(REJECTION_REASONS) : null;
  const isSubmitted = status !== 'DRAFT';
  const isDecided = status === 'APPROVED' || status === 'REJECTED' || status === 'PAID';
  const touched = status === 'PAID' ? t.paid : isDecided ? t.decided : isSubmitted ? t.submitted : t.created;
  const coded = rng.chance(isDecided ? 0.8 : 0.35);

  const claim: SeedClaim = {
    id: rng.uuid(),
    business_id: data.business.id,
    user_id: user.id,
    type,
    status,
    merchant: fields.merchant,
    amount: fields.amount,
    currency: 'USD',
    transaction_date: isoDate(day),
    memo: fields.memo,
    gl_account_id: coded ? (c.glByCode.get(SPEND_CATEGORIES[fields.gl].glCode) ?? null) : null,
    department_id: user.department_id,
    distance_miles: fields.distance_miles,
    start_location: fields.start_location,
    end_location: fields.end_location,
    trip_date: fields.trip_date,
    location: fields.location,
    start_date: fields.start_date,
    end_date: fields.end_date,
    rejection_reason: reason,
    submitted_at: isSubmitted ? iso(t.submitted) : null,
    created_at: iso(t.created),
    change_seq: 0,
    updated_at: iso(touched),
    deleted: false,
  };
  if (!isSubmitted) return { claim, approval: null, payment: null };
  const approver = user.manager_id;
  const approval: DemoApproval = {
    id: rng.uuid(),
    object_id: claim.id,
    user_id: user.id,
    approver_id: approver,
    status: status === 'SUBMITTED' ? 'PENDING' : status === 'REJECTED' ? 'REJECTED' : 'APPROVED',
    reason,
    decided_by: isDecided ? deciderFor(user, c.usersById, c.admins) : null,
    decided_at: isDecided ? iso(t.decided) : null,
    created_at: iso(t.submitted),
    change_seq: 0,
  };
  const payment = status === 'PAID'
    ? { id: rng.uuid(), reimbursement_id: claim.id, user_id: user.id, amount: claim.amount, created_by: c.payer === user.id ? (c.admins.find((a) => a !== user.id) ?? c.payer) : c.payer, created_at: iso(t.paid) }
    : null;
  return { claim, approval, payment };
}

type ClaimFields = Pick<SeedClaim, 'merchant' | 'amount' | 'memo' | 'distance_miles' | 'start_location' | 'end_location' | 'trip_date' | 'location' | 'start_date' | 'end_date'> & { gl: SpendCategoryKey };

/** The claim's type-specific fields; a mileage trip in a year without an IRS rate becomes out of pocket, a per diem may move earlier. */
function drawFields(c: ClaimDraw, user: DemoUser, drawnType: ReimbursementType, drawnDay: number): { type: ReimbursementType; day: number; fields: ClaimFields } {
  const { rng } = c;
  let type = drawnType;
  let day = drawnDay;
  const fields: ClaimFields = {
    merchant: null, amount: 0, memo: null, distance_miles: null, start_location: null, end_location: null,
    trip_date: null, location: null, start_date: null, end_date: null, gl: 'meals',
  };
  if (type === 'MILEAGE') {
    const distance = Math.round(Math.min(480, Math.max(2, rng.logNormal(24, 0.75))) * 10) / 10;
    const tripDate = isoDate(day);
    const computed = mileageAmount(distance, tripDate);
    // A trip in a year without a published IRS rate cannot be claimed as mileage: out of pocket instead.
    if ('amount' in computed) {
      const client = rng.pick(MEMO_CLIENTS);
      Object.assign(fields, {
        amount: computed.amount, distance_miles: distance, trip_date: tripDate, gl: CATEGORY_GL.MILEAGE,
        start_location: c.locationName.get(user.location_id ?? '') ?? 'Office',
        end_location: `${client}, ${rng.pick(MEMO_CITIES)}`,
        memo: rng.chance(0.7) ? rng.pick([`Visit to ${client}`, 'Round trip to the customer site', 'Offsite venue', 'Hardware pickup']) : null,
      });
    } else {
      type = 'OUT_OF_POCKET';
    }
  } else if (type === 'PER_DIEM') {
    const days = c.perDiemDays.pick(rng);
    day = Math.min(day, c.today - (days - 1) * DAY);
    const startDate = isoDate(day);
    const endDate = isoDate(day + (days - 1) * DAY);
    const computed = perDiemAmount(startDate, endDate);
    if (!('amount' in computed)) throw new Error(`per diem ${startDate}..${endDate}: ${JSON.stringify(computed.errors)}`);
    const city = rng.pick(MEMO_CITIES);
    Object.assign(fields, {
      amount: computed.amount, location: city, start_date: startDate, end_date: endDate, gl: CATEGORY_GL.PER_DIEM,
      memo: rng.chance(0.6) ? `${rng.pick(['Customer visits', 'Conference', 'Team offsite', 'Trade show'])} in ${city}` : null,
    });
  }
  if (type === 'OUT_OF_POCKET') {
    const category = c.categories.pick(rng);
    const spec = SPEND_CATEGORIES[category];
    const merchant = (c.merchantPicker.get(category) as WeightedPicker<MerchantSpec>).pick(rng);
    const major = merchant.prices && rng.chance(0.5)
      ? rng.pick(merchant.prices)
      : Math.min(spec.max, Math.max(spec.min, rng.logNormal(spec.median * 0.6, spec.sigma)));
    Object.assign(fields, {
      merchant: merchant.name, amount: Math.max(1, Math.round(major * 100)), gl: category,
      memo: rng.chance(0.55)
        ? rng.pick(spec.memos).replace('{city}', rng.pick(MEMO_CITIES)).replace('{client}', rng.pick(MEMO_CLIENTS)).replace('{quarter}', String(Math.floor(new Date(day).getUTCMonth() / 3) + 1))
        : null,
    });
  }
  return { type, day, fields };
}

/**
 * Timeline: written up 0–4 days after the expense (in office hours), submitted within two
 * days, decided within a week, paid within five days of approval; nothing after `now`. The
 * status is drawn by the claim's age, then held back to what had happened by `now`.
 */
function drawTimeline(c: ClaimDraw, claimDay: number) {
  const { rng, now } = c;
  const created = Math.min(now - HOUR, claimDay + Math.floor(rng.next() * 5) * DAY + (9 + rng.next() * 9) * HOUR);
  const submitted = created + (rng.chance(0.4) ? rng.next() * HOUR : rng.next() * 2 * DAY);
  const decided = submitted + (0.2 + rng.next() * 6) * DAY;
  const paid = decided + (1 + rng.next() * 4) * DAY;
  const ageDays = (now - created) / DAY;
  let status = (c.statusPickers.find((s) => ageDays < s.maxAgeDays) ?? c.statusPickers[c.statusPickers.length - 1]!).picker.pick(rng);
  if (status === 'PAID' && paid >= now) status = 'APPROVED';
  if ((status === 'APPROVED' || status === 'REJECTED') && decided >= now) status = 'SUBMITTED';
  if (status === 'SUBMITTED' && submitted >= now) status = 'DRAFT';
  return { created, submitted, decided, paid, status };
}

/**
 * Change seqs as the live API would have stamped them: the claims (each followed by its
 * approval) interleaved with the card transactions in time order (a claim by when it was last
 * touched, a transaction by its existing seq order, i.e. when it occurred), renumbering the
 * transactions' seqs. The first mirror's backfill walks the feed newest seq first, so claims
 * stacked after every transaction would all arrive before the first transaction.
 * `others` (ordered by updated_at) join the same walk, merged with the claims by updated_at.
 * Mutates `data.transactions`', the claims' and the others' change_seq; returns the highest seq.
 */
function interleaveSeqs(
  data: DemoData, claims: readonly SeedClaim[], approvalOf: ReadonlyMap<string, DemoApproval>, others: readonly TimelineItem[] = [],
): number {
  const txs = data.transactions;
  if (txs.length > 0 && txs.at(-1)!.change_seq !== data.maxChangeSeq) throw new Error('the transactions must hold the demo\'s last seqs');
  let seq = (txs.length > 0 ? txs[0]!.change_seq : data.maxChangeSeq + 1) - 1;
  const next = () => ++seq;
  let t = 0;
  const items: TimelineItem[] = claims.map((claim) => ({
    updated_at: claim.updated_at,
    stamp() {
      claim.change_seq = next();
      const approval = approvalOf.get(claim.id);
      if (approval) approval.change_seq = next();
    },
  }));
  // Both lists are in updated_at order: merge them (a claim first on a tie, as before).
  let o = 0;
  const merged: TimelineItem[] = [];
  for (const item of items) {
    while (o < others.length && others[o]!.updated_at < item.updated_at) merged.push(others[o++]!);
    merged.push(item);
  }
  while (o < others.length) merged.push(others[o++]!);
  for (const item of merged) {
    while (t < txs.length && txs[t]!.occurred_at <= item.updated_at) txs[t++]!.change_seq = next();
    item.stamp(next);
  }
  while (t < txs.length) txs[t++]!.change_seq = next();
  return seq;
}

/** Who decided: the claimant's manager; for someone without one (the CEO), an admin other than them. */
function deciderFor(user: DemoUser, usersById: ReadonlyMap<string, DemoUser>, admins: readonly string[]): string {
  if (user.manager_id && usersById.has(user.manager_id)) return user.manager_id;
  const other = admins.find((a) => a !== user.id);
  if (!other) throw new Error(`nobody can decide the claims of ${user.id}`);
  return other;
}

const CLAIM_COLUMNS = cols(
  'id:uuid', 'business_id:uuid', 'user_id:uuid', 'type:text', 'status:text', 'merchant:text', 'amount:bigint',
  'currency:text', 'transaction_date:date', 'memo:text', 'gl_account_id:uuid', 'department_id:uuid',
  'distance_miles:numeric', 'start_location:text', 'end_location:text', 'trip_date:date', 'location:text',
  'start_date:date', 'end_date:date', 'rejection_reason:text', 'submitted_at:timestamptz', 'created_at:timestamptz',
  'change_seq:bigint', 'updated_at:timestamptz', 'deleted:boolean',
);
const APPROVAL_COLUMNS = [
  ...cols('id:uuid', 'business_id:uuid'),
  { name: 'object_type', type: 'text' as const, value: () => 'reimbursement' },
  ...cols('object_id:uuid', 'user_id:uuid', 'approver_id:uuid', 'status:text', 'reason:text', 'decided_by:uuid', 'decided_at:timestamptz', 'created_at:timestamptz'),
  { name: 'updated_at', type: 'timestamptz' as const, value: (r: Record<string, unknown>) => r.decided_at ?? r.created_at },
  ...cols('change_seq:bigint'),
];
const PAYMENT_COLUMNS = [
  ...cols('id:uuid', 'business_id:uuid', 'reimbursement_id:uuid', 'user_id:uuid'),
  { name: 'kind', type: 'text' as const, value: () => 'PAYMENT' },
  { name: 'method', type: 'text' as const, value: () => 'ACH' },
  ...cols('amount:bigint'),
  { name: 'currency', type: 'text' as const, value: () => 'USD' },
  ...cols('created_by:uuid', 'created_at:timestamptz'),
  { name: 'settles_at', type: 'timestamptz' as const, value: (r: Record<string, unknown>) => settlesAt(new Date(String(r.created_at))).toISOString() },
];

/** Bulk-inserts the generated claims, their approvals and payments (inside the seed's transaction). */
export async function insertGeneratedClaims(tx: Queryable, businessId: string, g: GeneratedClaims): Promise<void> {
  const withBusiness = <T extends object>(rows: readonly T[]): Record<string, unknown>[] => rows.map((r) => ({ ...r, business_id: businessId }));
  await bulkInsert(tx, 'reimbursements', CLAIM_COLUMNS, g.claims as unknown as Record<string, unknown>[]);
  await bulkInsert(tx, 'approvals', APPROVAL_COLUMNS, withBusiness(g.approvals));
  await bulkInsert(tx, 'ledger_entries', PAYMENT_COLUMNS, withBusiness(g.payments));
}
