import type { BillStatus } from '../../schema/entities/bill.ts';
import { billTotal, invoiceNumberKey, paymentKey } from '../../schema/bill-rules.ts';
import type { Queryable } from '../db/db.ts';
import type { ActingUser } from '../core/actor.ts';
import { openBillApproval } from '../domain/bills.ts';
import { bulkInsert, cols } from './bulk-insert.ts';
import { historyStart } from './generate.ts';
import { Rng, WeightedPicker } from './prng.ts';
import type { DemoData } from './types.ts';
import { DEMO_VENDORS, type DemoVendorSpec, type SeededVendor } from './vendors.ts';

/**
 * Generated bills (issue 11's benchmark: 20,000 bills beside 100,000 transactions, and a demo
 * whose Bills page has a real AP history). A pure function of (demo, vendors, count, now, seed)
 * on its own PRNG stream.
 *
 * - **Vendors**: the demo's six, plus one generated supplier per 60 bills (at most 400), so a
 *   large business's bills spread over a realistic vendor list.
 * - **Invoices**: over the 18 months of history; each vendor numbers its invoices in sequence
 *   (no duplicates); 1–4 lines, coded to the vendor's default GL account or its category's, a
 *   department on most; terms of 15, 30 or 45 days.
 * - **Status by due date**: bills due more than a month ago are paid (most reconciled), with a
 *   few canceled or rejected; bills due this past month mostly paid, some approved and overdue,
 *   a few awaiting approval, failed or rejected; bills not yet due are drafts, awaiting approval,
 *   approved or scheduled. Timelines never pass `now`.
 * - **Approvals**: each bill awaiting approval gets its chain and first step's approval at insert
 *   time through the server's own `openBillApproval` (the business's bill policy). Bills decided
 *   earlier carry who approved them (`approved_by`/`approved_at`); their old approval rows are not
 *   invented.
 * - **Payments** (issue 25: money only moves where it can): one SETTLED attempt per paid bill
 *   (`paymentKey(bill, 1)`, settled on its bank day), except the ≈10 % marked paid by hand; a
 *   FAILED attempt for PAYMENT_FAILED. A vendor without a bank account (Thames Robotics, the
 *   archived Summit, one generated supplier in six) was never paid through Ledgerline: its paid
 *   bills are marked paid (paid outside), and it has no scheduled or failed payments (those bills
 *   stay approved, waiting for its bank details: the Bills page's "Add bank details" path).
 * - **Seqs**: `timeline` lets the caller interleave bills with the other timeline rows by when
 *   each bill was last touched (a bill awaiting approval is followed by its approval's seq).
 */

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const isoDate = (ms: number) => iso(ms).slice(0, 10);
const dayOf = (ms: number) => Math.floor(ms / DAY) * DAY;

/** `--bills` when not given: one bill per five card transactions, at most 100,000. */
const MAX_DEFAULT_BILLS = 100_000;
export function defaultBills(transactions: number): number {
  return Math.min(MAX_DEFAULT_BILLS, Math.round(transactions / 5));
}

/** One generated supplier per this many bills (besides the demo's six), at most MAX_GENERATED_VENDORS. */
const BILLS_PER_VENDOR = 60;
const MAX_GENERATED_VENDORS = 400;

type Category = 'machining' | 'electronics' | 'logistics' | 'facilities' | 'consulting' | 'legal' | 'marketing' | 'equipment' | 'software' | 'staffing';

/** What each kind of supplier invoices for: line descriptions, GL code, typical invoice (USD). */
const CATEGORIES: Record<Category, { lines: readonly string[]; gl: string; median: number; words: readonly string[] }> = {
  machining: { lines: ['CNC machined actuator housings', 'Anodizing, batch', 'Aluminum 6061 stock', 'Fixture rework', 'First-article inspection'], gl: '6080', median: 4_800, words: ['Precision', 'Machining', 'Fabrication', 'Metalworks'] },
  electronics: { lines: ['Motor controller boards', 'Connectors and harnesses', 'Sensor modules', 'PCB assembly, prototype run', 'Expedited freight'], gl: '6040', median: 2_200, words: ['Electronics', 'Components', 'Circuits', 'Devices'] },
  logistics: { lines: ['Freight, LTL', 'Customs brokerage', 'Warehouse storage', 'Pallet handling', 'Fuel surcharge'], gl: '6070', median: 1_300, words: ['Logistics', 'Freight', 'Shipping', 'Transport'] },
  facilities: { lines: ['Monthly rent', 'Common area maintenance', 'Janitorial services', 'HVAC service call', 'Utilities pass-through'], gl: '6100', median: 6_500, words: ['Properties', 'Facilities', 'Building Services', 'Realty'] },
  consulting: { lines: ['Engineering consulting, hours', 'Design review', 'Project management', 'Travel expenses (rebilled)'], gl: '6060', median: 7_500, words: ['Consulting', 'Advisors', 'Engineering Partners', 'Group'] },
  legal: { lines: ['Legal services, hours', 'Patent filing fees', 'Contract review', 'Disbursements'], gl: '6060', median: 5_200, words: ['Law', 'Legal', 'IP Counsel', 'Attorneys'] },
  marketing: { lines: ['Trade show booth', 'Printed collateral', 'Campaign management', 'Video production'], gl: '6050', median: 3_400, words: ['Media', 'Creative', 'Marketing', 'Events'] },
  equipment: { lines: ['Equipment rental, monthly', 'Forklift service', 'Test bench calibration', 'Tooling'], gl: '6080', median: 2_600, words: ['Equipment', 'Rentals', 'Industrial Supply', 'Tools'] },
  software: { lines: ['Annual license', 'Support and maintenance', 'Additional seats', 'Implementation services'], gl: '6010', median: 3_900, words: ['Software', 'Systems', 'Labs', 'Technologies'] },
  staffing: { lines: ['Contract technicians, weekly', 'Placement fee', 'Overtime hours'], gl: '6150', median: 5_900, words: ['Staffing', 'Talent', 'Workforce', 'Recruiting'] },
};
const DEMO_CATEGORY: Readonly<Record<string, Category>> = {
  'Pacific Precision Machining': 'machining',
  'Brightline Electronics Supply': 'electronics',
  'Harbor Logistics Co.': 'logistics',
  'Keystone Commercial Properties': 'facilities',
  'Thames Robotics Consulting Ltd': 'consulting',
  'Summit Office Furniture': 'equipment',
};
const NAME_PREFIXES = [
  'Apex', 'Cedar', 'Granite', 'Northstar', 'Bluewater', 'Ironwood', 'Silverline', 'Redwood', 'Meridian', 'Summit Ridge', 'Lakeside',
  'Copperfield', 'Pioneer', 'Keystone Valley', 'Riverbend', 'Highland', 'Evergreen', 'Beacon', 'Atlas', 'Crescent', 'Falcon', 'Harborview',
  'Orchard', 'Prairie', 'Quarry', 'Sterling', 'Tidewater', 'Union', 'Vantage', 'Westfield',
] as const;
const SUFFIXES = ['Inc.', 'LLC', 'Co.', 'Corp.', 'Ltd', ''] as const;
const US_PLACES: readonly [string, string, string][] = [
  ['Oakland', 'CA', '94607'], ['San Jose', 'CA', '95112'], ['Austin', 'TX', '78701'], ['Dallas', 'TX', '75201'], ['Newark', 'NJ', '07102'],
  ['Chicago', 'IL', '60607'], ['Columbus', 'OH', '43215'], ['Denver', 'CO', '80202'], ['Portland', 'OR', '97209'], ['Atlanta', 'GA', '30303'],
  ['Boston', 'MA', '02110'], ['Seattle', 'WA', '98104'], ['Phoenix', 'AZ', '85004'], ['Raleigh', 'NC', '27601'], ['Brooklyn', 'NY', '11201'],
];
const STREETS = ['Industrial Pkwy', 'Commerce Dr', 'Market St', 'Harbor Blvd', 'Technology Way', 'Main St', 'Enterprise Ave', 'Mill Rd'] as const;
/** ABA routing numbers whose checksum holds (the same banks as the demo vendors'). */
const ROUTING_NUMBERS = ['121000358', '111000025', '021000021', '026009593', '011000138'] as const;

const REJECTION_REASONS = [
  'Quantity does not match the purchase order.',
  'Price differs from the agreed quote; ask the vendor for a corrected invoice.',
  'Already paid on an earlier invoice.',
  'Missing the signed delivery receipt.',
] as const;
const FAILURE_REASONS = ['Account closed (R02)', 'No account / unable to locate account (R03)', 'Invalid account number (R04)'] as const;

type Odds = Partial<Record<BillStatus, number>>;
/** Status odds by the due date, in days from now (negative: past due). */
const STATUS_ODDS: { dueAfterDays: number; odds: Odds }[] = [
  { dueAfterDays: 0, odds: { DRAFT: 0.18, PENDING_APPROVAL: 0.3, APPROVED: 0.24, SCHEDULED: 0.2, REJECTED: 0.04, CANCELED: 0.04 } },
  { dueAfterDays: -30, odds: { PAID: 0.62, RECONCILED: 0.05, APPROVED: 0.14, PENDING_APPROVAL: 0.07, PAYMENT_FAILED: 0.04, REJECTED: 0.04, CANCELED: 0.04 } },
  { dueAfterDays: -Infinity, odds: { RECONCILED: 0.7, PAID: 0.24, REJECTED: 0.02, CANCELED: 0.04 } },
];

export interface SeedBill {
  id: string;
  vendor_id: string;
  invoice_number: string;
  invoice_key: string;
  invoice_date: string;
  due_date: string;
  payment_date: string | null;
  currency: string;
  amount: number;
  status: BillStatus;
  memo: string | null;
  created_by: string;
  submitted_at: string | null;
  approved_by: string | null;
  approved_at: string | null;
  rejection_reason: string | null;
  payment_attempt: number;
  payment_failure_reason: string | null;
  paid_at: string | null;
  paid_manually: boolean;
  reconciled_at: string | null;
  created_at: string;
  updated_at: string;
  change_seq: number;
  /** PENDING_APPROVAL only: the seq its first approval is stamped with at insert. */
  approval_seq: number | null;
}

export interface SeedBillLine {
  id: string;
  bill_id: string;
  position: number;
  description: string;
  amount: number;
  gl_account_id: string | null;
  department_id: string | null;
}

export interface SeedBillPayment {
  id: string;
  bill_id: string;
  attempt: number;
  payment_key: string;
  amount: number;
  currency: string;
  status: 'SETTLED' | 'FAILED';
  created_by: string;
  created_at: string;
  settles_on: string | null;
  settled_at: string | null;
}

export interface GeneratedBills {
  /** Ordered by `updated_at` (the order their seqs follow). */
  bills: SeedBill[];
  lines: SeedBillLine[];
  payments: SeedBillPayment[];
  /** The suppliers generated for them (the caller seeds them with the demo's own). */
  vendors: DemoVendorSpec[];
  /** The bills as timeline items: `stamp` hands out the bill's seq (and its approval's). */
  timeline: { updated_at: string; stamp(next: () => number): void }[];
}

export interface GenerateBillsOptions {
  count: number;
  now: Date;
  seed: number;
}

/** The suppliers to generate for `count` bills (names, US addresses, most with a bank account). */
function generateVendors(rng: Rng, count: number): { spec: DemoVendorSpec; category: Category }[] {
  const n = Math.min(MAX_GENERATED_VENDORS, Math.floor(count / BILLS_PER_VENDOR));
  const categories = Object.keys(CATEGORIES) as Category[];
  const taken = new Set(DEMO_VENDORS.map((v) => v.name));
  const out: { spec: DemoVendorSpec; category: Category }[] = [];
  for (let i = 0; out.length < n && i < n * 20; i++) {
    const category = rng.pick(categories);
    const suffix = rng.pick(SUFFIXES);
    const name = `${rng.pick(NAME_PREFIXES)} ${rng.pick(CATEGORIES[category].words)}${suffix ? ` ${suffix}` : ''}`;
    if (taken.has(name)) continue;
    taken.add(name);
    const [city, state, zip] = rng.pick(US_PLACES);
    const domain = `${name.toLowerCase().replace(/[^a-z]+/g, '')}.example`;
    out.push({
      category,
      spec: {
        name, email: `ar@${domain}`, phone: `+1 555 01${String(rng.int(0, 99)).padStart(2, '0')}`,
        address: { line1: `${rng.int(10, 9_800)} ${rng.pick(STREETS)}`, line2: null, city, state, postal_code: zip, country: 'US' },
        gl: CATEGORIES[category].gl, contacts: [],
        // Most suppliers are paid by ACH (issue 25: a verified account); one in six has sent no bank details yet.
        bank: rng.chance(0.83)
          ? { routing_number: rng.pick(ROUTING_NUMBERS), account_number: String(rng.int(10_000_000, 999_999_999)), account_type: rng.chance(0.85) ? 'CHECKING' : 'SAVINGS' }
          : null,
      },
    });
  }
  return out;
}

/** The due-date band of a bill (an index into STATUS_ODDS). */
const bandOf = (dueMs: number, now: number) => STATUS_ODDS.findIndex((b) => (dueMs - now) / DAY >= b.dueAfterDays);

/**
 * Statuses for `n` bills of one band, by quota (each status its share, rounded down, the rest to
 * the band's first statuses in turn), shuffled: exact proportions, so even a small demo has bills
 * in every state its band allows (a "Ready to pay" queue at 100 bills).
 */
function bandStatuses(rng: Rng, band: number, n: number): BillStatus[] {
  const odds = Object.entries(STATUS_ODDS[band]!.odds) as [BillStatus, number][];
  const out: BillStatus[] = [];
  for (const [status, p] of odds) for (let k = Math.floor(p * n); k > 0; k--) out.push(status);
  for (let i = 0; out.length < n; i++) out.push(odds[i % odds.length]![0]);
  return rng.shuffle(out);
}

/** Of a bill's invoice dates, this share falls in the last 45 days (open bills: a business always has some). */
const RECENT_SHARE = 0.15;

/** A bill's lines: 1–4, splitting a log-normal total of the vendor's category (the same draws, in order, as ever). */
function billLinesOf(rng: Rng, billId: string, category: (typeof CATEGORIES)[keyof typeof CATEGORIES], glAccountId: string | null, departments: readonly string[]): SeedBillLine[] {
  const lineCount = rng.pick([1, 1, 2, 2, 3, 4]);
  const billLines: SeedBillLine[] = [];
  const total = Math.max(50, Math.round(rng.logNormal(category.median, 0.8))) * 100;
  let left = total;
  for (let p = 0; p < lineCount; p++) {
    const amount = p === lineCount - 1 ? left : Math.max(100, Math.round((left * rng.int(20, 60)) / 100 / 100) * 100);
    left -= amount;
    billLines.push({
      id: rng.uuid(), bill_id: billId, position: p, description: rng.pick(category.lines), amount,
      gl_account_id: glAccountId,
      department_id: rng.chance(0.8) ? rng.pick(departments) : null,
    });
  }
  if (left !== 0 || billLines.some((l) => l.amount <= 0)) {
    // A split that ran out: one line for the whole invoice.
    billLines.splice(0, billLines.length, { ...billLines[0]!, amount: total, position: 0 });
  }
  return billLines;
}

/**
 * The bills, their lines and payments, and the generated suppliers. `vendorIds` gives each
 * vendor's id and default GL account id by name (the caller's, from `demoVendors`).
 */
export function generateBills(
  data: DemoData, vendorOf: (spec: DemoVendorSpec) => Pick<SeededVendor, 'id' | 'default_gl_account_id'>, opts: GenerateBillsOptions,
): GeneratedBills {
  const empty: GeneratedBills = { bills: [], lines: [], payments: [], vendors: [], timeline: [] };
  if (!Number.isInteger(opts.count) || opts.count < 0) throw new RangeError('bills must be a non-negative integer');
  if (opts.count === 0) return empty;
  const rng = new Rng(opts.seed, `${data.business.id}\u0000bills`);
  const now = opts.now.getTime();
  const start = historyStart(opts.now).getTime();
  const clerk = data.users.find((u) => u.user_permissions.includes('AP_ACCESS') && u.status === 'ACTIVE');
  const admin = data.users.find((u) => u.role === 'BUSINESS_ADMIN' && u.status === 'ACTIVE');
  if (!clerk || !admin) throw new Error('the demo needs an AP clerk and an admin to seed bills');
  const glByCode = new Map(data.glAccounts.map((g) => [g.code, g.id]));
  const departments = data.departments.map((d) => d.id);

  const generated = generateVendors(rng, opts.count);
  const vendors = [
    // The archived demo vendor only has old bills (it was archived after its last one).
    ...DEMO_VENDORS.map((spec) => ({ spec, category: DEMO_CATEGORY[spec.name] ?? 'equipment', weight: spec.archived ? 0.3 : 4 })),
    ...generated.map((g) => ({ ...g, weight: 1 })),
  ];
  const picker = new WeightedPicker(vendors, vendors.map((v) => v.weight));
  const invoiceSeq = new Map<string, number>();

  const bills: SeedBill[] = [];
  const lines: SeedBillLine[] = [];
  const payments: SeedBillPayment[] = [];
  // First the invoices (vendor, dates), then each due-date band's statuses by quota.
  const drafts = Array.from({ length: opts.count }, () => {
    const vendor = picker.pick(rng);
    // Archived: its invoices stop a year ago; the others run to today, with a share of recent ones.
    const last = vendor.spec.archived ? now - 365 * DAY : now;
    const from = !vendor.spec.archived && rng.chance(RECENT_SHARE) ? now - 45 * DAY : start;
    const invoiceMs = dayOf(from + rng.next() * (last - from));
    const dueMs = invoiceMs + rng.pick([15, 30, 30, 45]) * DAY;
    return { vendor, invoiceMs, dueMs, band: bandOf(dueMs, now), status: 'DRAFT' as BillStatus };
  });
  STATUS_ODDS.forEach((_, band) => {
    const members = drafts.filter((d) => d.band === band);
    bandStatuses(rng, band, members.length).forEach((status, k) => (members[k]!.status = status));
  });
  for (const { vendor, invoiceMs, dueMs, status: drawn } of drafts) {
    // No bank account: nothing was ever sent to it (issue 25).
    const payable = vendor.spec.bank !== null;
    const status: BillStatus = !payable && (drawn === 'SCHEDULED' || drawn === 'PAYMENT_FAILED') ? 'APPROVED' : drawn;
    const { id: vendorId, default_gl_account_id: vendorGl } = vendorOf(vendor.spec);
    const category = CATEGORIES[vendor.category];
    const createdMs = Math.min(now, invoiceMs + rng.int(0, 3) * DAY + rng.int(8, 18) * 3_600_000);

    const n = (invoiceSeq.get(vendorId) ?? rng.int(1_000, 9_000)) + 1;
    invoiceSeq.set(vendorId, n);
    const initials = vendor.spec.name.split(/\s+/).map((w) => w[0]).join('').replace(/[^A-Z]/g, '').slice(0, 3) || 'INV';
    const invoice = `${initials}-${n}`;

    const id = rng.uuid();
    const billLines = billLinesOf(rng, id, category, vendorGl ?? glByCode.get(category.gl) ?? null, departments);

    const submitted = status === 'DRAFT' ? null : Math.min(now, createdMs + rng.int(1, 36) * 3_600_000);
    const decidedStates: BillStatus[] = ['APPROVED', 'SCHEDULED', 'PAID', 'RECONCILED', 'PAYMENT_FAILED'];
    const approvedMs = decidedStates.includes(status) ? Math.min(now, submitted! + rng.int(2, 72) * 3_600_000) : null;
    const rejectedMs = status === 'REJECTED' ? Math.min(now, submitted! + rng.int(2, 72) * 3_600_000) : null;
    const canceledMs = status === 'CANCELED' ? Math.min(now, createdMs + rng.int(1, 10) * DAY) : null;
    // Paid around the due date, never before approval nor after now.
    const paidMs = status === 'PAID' || status === 'RECONCILED' || status === 'PAYMENT_FAILED'
      ? Math.min(now, Math.max(approvedMs!, dueMs - rng.int(0, 5) * DAY))
      : null;
    const reconciledMs = status === 'RECONCILED' ? Math.min(now, paidMs! + rng.int(2, 10) * DAY) : null;
    const scheduledFor = status === 'SCHEDULED' ? Math.max(dayOf(now) + DAY, dueMs - rng.int(0, 3) * DAY) : null;
    const manual = (status === 'PAID' || status === 'RECONCILED') && (rng.chance(0.1) || !payable);
    const touched = Math.max(createdMs, submitted ?? 0, approvedMs ?? 0, rejectedMs ?? 0, canceledMs ?? 0, paidMs ?? 0, reconciledMs ?? 0);

    const bill: SeedBill = {
      id, vendor_id: vendorId, invoice_number: invoice, invoice_key: invoiceNumberKey(invoice),
      invoice_date: isoDate(invoiceMs), due_date: isoDate(dueMs),
      payment_date: paidMs !== null ? isoDate(paidMs) : scheduledFor !== null ? isoDate(scheduledFor) : null,
      currency: 'USD', amount: billTotal(billLines), status,
      memo: rng.chance(0.3) ? `PO ${rng.int(4_000, 9_999)}` : null,
      created_by: clerk.id,
      submitted_at: submitted !== null ? iso(submitted) : null,
      approved_by: approvedMs !== null ? admin.id : null,
      approved_at: approvedMs !== null ? iso(approvedMs) : null,
      rejection_reason: status === 'REJECTED' ? rng.pick(REJECTION_REASONS) : null,
      payment_attempt: paidMs !== null && !manual ? 1 : 0,
      payment_failure_reason: status === 'PAYMENT_FAILED' ? rng.pick(FAILURE_REASONS) : null,
      paid_at: (status === 'PAID' || status === 'RECONCILED') && paidMs !== null ? iso(paidMs) : null,
      paid_manually: manual,
      reconciled_at: reconciledMs !== null ? iso(reconciledMs) : null,
      created_at: iso(createdMs), updated_at: iso(touched), change_seq: 0, approval_seq: null,
    };
    bills.push(bill);
    lines.push(...billLines);
    if (bill.payment_attempt === 1) {
      payments.push({
        id: rng.uuid(), bill_id: id, attempt: 1, payment_key: paymentKey(id, 1), amount: bill.amount, currency: bill.currency,
        status: status === 'PAYMENT_FAILED' ? 'FAILED' : 'SETTLED', created_by: admin.id, created_at: iso(paidMs!),
        settles_on: status === 'PAYMENT_FAILED' ? null : isoDate(paidMs!),
        settled_at: status === 'PAYMENT_FAILED' ? null : iso(paidMs!),
      });
    }
  }
  bills.sort((a, b) => (a.updated_at < b.updated_at ? -1 : a.updated_at > b.updated_at ? 1 : 0));
  const timeline = bills.map((bill) => ({
    updated_at: bill.updated_at,
    stamp(next: () => number) {
      bill.change_seq = next();
      if (bill.status === 'PENDING_APPROVAL') bill.approval_seq = next();
    },
  }));
  return { bills, lines, payments, vendors: generated.map((g) => g.spec), timeline };
}

const BILL_COLUMNS = cols(
  'id:uuid', 'business_id:uuid', 'vendor_id:uuid', 'invoice_number:text', 'invoice_key:text', 'invoice_date:date', 'due_date:date',
  'payment_date:date', 'currency:text', 'amount:bigint', 'status:text', 'memo:text', 'created_by:uuid', 'submitted_at:timestamptz',
  'approved_by:uuid', 'approved_at:timestamptz', 'rejection_reason:text', 'payment_attempt:integer', 'payment_failure_reason:text',
  'paid_at:timestamptz', 'paid_manually:boolean', 'reconciled_at:timestamptz', 'change_seq:bigint', 'created_at:timestamptz',
  'updated_at:timestamptz',
);
const LINE_COLUMNS = cols('id:uuid', 'bill_id:uuid', 'position:integer', 'description:text', 'amount:bigint', 'gl_account_id:uuid', 'department_id:uuid');
const PAYMENT_COLUMNS = cols(
  'id:uuid', 'business_id:uuid', 'bill_id:uuid', 'attempt:integer', 'payment_key:text', 'amount:bigint', 'currency:text', 'status:text',
  'created_by:uuid', 'created_at:timestamptz', 'settles_on:date', 'settled_at:timestamptz',
);

/**
 * Inserts the bills, lines and payments (inside the seed's transaction; the vendors first), then
 * opens each pending bill's approval through the server's own path, with the seq reserved for it.
 */
export async function insertBills(tx: Queryable, businessId: string, g: GeneratedBills): Promise<void> {
  if (g.bills.length === 0) return;
  const withBusiness = (rows: readonly object[]) => rows.map((r) => ({ ...r, business_id: businessId }));
  await bulkInsert(tx, 'bills', BILL_COLUMNS, withBusiness(g.bills));
  await bulkInsert(tx, 'bill_line_items', LINE_COLUMNS, g.lines as unknown as Record<string, unknown>[]);
  await bulkInsert(tx, 'bill_payments', PAYMENT_COLUMNS, withBusiness(g.payments));
  for (const bill of g.bills) {
    if (bill.status !== 'PENDING_APPROVAL') continue;
    const submitter = { id: bill.created_by, business_id: businessId } as ActingUser;
    await openBillApproval(tx, submitter, { ...bill, entity_id: null }, bill.approval_seq!, bill.submitted_at!);
  }
}
