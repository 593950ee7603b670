import type { Card } from '../../schema/entities/card.ts';
import type { Transaction } from '../../schema/entities/transaction.ts';
import type { Role } from '../../schema/roles.ts';
import { hashPassword } from '../auth/password.ts';
import { announceChange } from '../db/change-seq.ts';
import type { Db, Queryable } from '../db/db.ts';
import { bulkInsert, cols } from './bulk-insert.ts';
import { demoCardRequest, insertCardRequest } from './cards.ts';
import { demoClaims, insertClaims } from './claims.ts';
import { Rng } from './prng.ts';
import { demoRates } from './rates.ts';
import { generateDemo } from './generate.ts';
import { generateReceipts, insertReceipts } from './receipts.ts';
import { generateClaims, insertGeneratedClaims, type TimelineItem } from './reimbursements.ts';
import { ROSTER } from './roster.ts';
import { searchTextBuilder } from './search-text.ts';
import { DEFAULT_SEED, DEMO_PASSWORD } from './types.ts';
import { demoVendors, insertVendors, vendorIdentity } from './vendors.ts';
import { generateBills, insertBills } from './bills.ts';
import { demoReports, insertReports } from './reports.ts';
import { insertAccountingDemo } from './accounting.ts';
import { insertExpensePolicies } from './expense-policies.ts';
import { insertDemoWorkflows } from './workflows.ts';
import { insertDemoNotifications } from './notifications.ts';
import type { DemoData } from './types.ts';
import { insertHeldCharge } from './fraud.ts';
import { generateTrips, insertDemoTrips, insertGeneratedTrips, tripTimeline } from './trips.ts';
import { insertTreasuryDemo } from './treasury.ts';
import { insertSurfacesDemo } from './surfaces.ts';
import { insertProcurementDemo, NO_PROCUREMENT, type ProcurementCounts } from './procurement.ts';

export interface SeedDemoOptions {
  transactions: number;
  /** Generated reimbursements (server/seed/reimbursements.ts) besides the hand-made demo claims; default 0. */
  reimbursements?: number;
  /** Generated bills (server/seed/bills.ts) and the suppliers they need; default 0. */
  bills?: number;
  /** Receipts for about 65 % of the card transactions older than a week (server/seed/receipts.ts); default false. */
  receipts?: boolean;
  /** Default: the start of the current UTC day, so a given day's seed is deterministic. */
  now?: Date;
  businessName?: string;
  emailDomain?: string;
  seed?: number;
  /** Injected for tests that want cheaper scrypt parameters; default: the server's hashPassword. */
  hashPassword?: (password: string) => Promise<string>;
}

export interface SeedDemoResult {
  businessId: string;
  accounts: { email: string; role: Role; is_manager: boolean; name: string }[];
  counts: Record<
    | 'departments' | 'locations' | 'glAccounts' | 'trackingCategories' | 'users' | 'cards' | 'transactions'
    | 'reimbursements' | 'approvals' | 'payments' | 'receipts' | 'reimbursementRates' | 'cardRequests' | 'vendors' | 'bills' | 'trips'
    | 'spendAllocations' | 'spendRequests' | 'purchaseOrders',
    number
  >;
  /** The receipts' file bytes (what they add to the database before row overhead). */
  receiptBytes: number;
  maxChangeSeq: number;
  /** hashMs: time spent waiting for the password hashes after generating (they run alongside). */
  timings: { generateMs: number; hashMs: number; insertMs: number };
}

/** Thrown when the demo business (or one of its sign-in emails) is already in the database. */
export class DemoAlreadySeededError extends Error {
  constructor(readonly businessId: string, readonly conflict: string) {
    super(`The demo business is already seeded (${conflict}). Use --reset to wipe it and seed again.`);
    this.name = 'DemoAlreadySeededError';
  }
}

export function startOfUtcDay(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
}

/**
 * Seeds the demo business in one database transaction: either all of it lands or none does.
 * Rows keep the generator's change_seq 1..M and the business counter is set to M, so the first
 * feed pull after seeding sees everything and the next write continues at M+1.
 */
export async function seedDemo(db: Db, opts: SeedDemoOptions): Promise<SeedDemoResult> {
  const t0 = performance.now();
  // scrypt runs on libuv's thread pool: start it first so it overlaps the generator's CPU work.
  // One hash per identity (one identity per roster entry), each with its own salt.
  const hash = opts.hashPassword ?? hashPassword;
  const hashing = Promise.all(ROSTER.map(() => hash(DEMO_PASSWORD)));
  hashing.catch(() => {}); // awaited below; this only keeps an early throw from orphaning it
  const now = opts.now ?? startOfUtcDay(new Date());
  const data = generateDemo({
    transactions: opts.transactions,
    now,
    businessName: opts.businessName,
    emailDomain: opts.emailDomain,
    seed: opts.seed,
  });
  const generateMs = performance.now() - t0;
  await assertNotSeeded(db, data);
  const hashes = await hashing;
  if (hashes.length !== data.identities.length) throw new Error('one password hash per identity expected');
  const hashMs = performance.now() - t0 - generateMs;

  const seed = opts.seed ?? DEFAULT_SEED;
  // Bills first (no seqs yet): they join the claims' walk through the timeline, in time order.
  const bills = generateBills(data, vendorIdentity(data), { count: opts.bills ?? 0, now, seed });
  // Trips at scale (issue 27) join that walk too, by when each was last written.
  const trips = generateTrips(data, now, seed);
  const interleave = mergeTimelines(bills.timeline, tripTimeline(trips));
  const generated = generateClaims(data, { count: opts.reimbursements ?? 0, now, seed, interleave });
  const receipts = opts.receipts ? generateReceipts(data, now, seed) : { receipts: [], bytes: 0 };
  // Reimbursements under review follow the generated rows' seqs: the business counter is theirs.
  const claims = demoClaims({ ...data, maxChangeSeq: generated.maxChangeSeq }, now, seed);
  // The demo employee's card request under review follows them.
  const cardRequest = demoCardRequest(data, new Rng(seed, `${data.business.id}\u0000card-requests`), now, claims.maxChangeSeq);
  // Then the business's per-diem locations (reference data: the feed's backfill sends it first anyway).
  const rates = demoRates(data.business.id, cardRequest.maxChangeSeq, data.business.created_at);
  // Then its vendors (reference data too).
  const vendors = demoVendors(data, cardRequest.maxChangeSeq + rates.length, bills.vendors);
  // Then the demo admin's saved reports and dashboard (issue 12).
  const reports = demoReports(data, vendors.maxChangeSeq);
  const maxChangeSeq = reports.maxChangeSeq;
  // The demo's mapping rules (mirrored) take the seqs after it.
  let lastSeq = maxChangeSeq;
  let procurement: ProcurementCounts = NO_PROCUREMENT;

  const t2 = performance.now();
  await db.transaction(async (tx) => {
    await insertAll(tx, data, hashes);
    await withoutTriggers(tx, async () => {
      await insertGeneratedClaims(tx, data.business.id, generated);
      await insertReceipts(tx, data.business.id, receipts);
    });
    await insertClaims(tx, data.business.id, claims);
    await insertCardRequest(tx, data.business.id, cardRequest.request);
    await bulkInsert(
      tx, 'reimbursement_rates',
      cols('id:uuid', 'business_id:uuid', 'kind:text', 'name:text', 'year:integer', 'rate:integer', 'currency:text', ...MIRRORED), rates,
    );
    await insertVendors(tx, vendors);
    await insertBills(tx, data.business.id, bills);
    await insertReports(tx, reports);
    lastSeq = await insertAccountingDemo(tx, data, maxChangeSeq);
    // Issue 24: the demo employee's held charge ("Was this you?").
    await insertHeldCharge(tx, data);
    // Issue 27: the demo employee's past trip (spend linked) and upcoming one.
    lastSeq = await insertDemoTrips(tx, data, now, seed, lastSeq);
    // And trips at scale (one per TRANSACTIONS_PER_TRIP transactions, seqs in the timeline above), their spend linked.
    await insertGeneratedTrips(tx, trips);
    // Issue 28: a budget, requests (one waiting for the manager), and with the bills two POs and theirs (one mismatched); seqs last.
    ({ lastSeq, counts: procurement } = await insertProcurementDemo(tx, data, now, seed, lastSeq, { purchaseOrders: bills.bills.length > 0 }));
    lastSeq = await insertExpensePolicies(tx, data, lastSeq); // issue 29: the demo's expense policy
    await insertDemoWorkflows(tx, data); // issue 29: three workflows, all off, two with runs in their log (not mirrored: no seqs)
    lastSeq = await insertDemoNotifications(tx, data, now, lastSeq); // issue 29: the demo people's notifications, from the approvals above
    // Issue 30: the wallet and every seeded payment and card day through the ledger; its accounts and transfers take the last seqs.
    ({ lastSeq } = await insertTreasuryDemo(tx, data, now, seed, lastSeq));
    ({ lastSeq } = await insertSurfacesDemo(tx, data, { now, seed, lastSeq, hash })); // issue 31: a firm, a network vendor, an application
    await tx.query('UPDATE businesses SET change_seq = $2 WHERE id = $1', [data.business.id, lastSeq]);
    await announceChange(tx, data.business.id, lastSeq);
  });
  // PGlite has no autovacuum to gather statistics: without them the planner guesses on 100k rows.
  // Only the columns queries filter and sort on: the long text columns cost the most to sample.
  await db.exec(
    'ANALYZE transactions (business_id, user_id, card_id, occurred_at, state, amount, gl_account_id, department_id, location_id, change_seq), cards, card_requests, spend_users, reimbursements, approvals, transaction_receipts, receipts (id, business_id, sha256), vendors, bills, bill_line_items, bill_payments, journal_entries, postings, ledger_accounts, card_settlements, trips, trip_spend_events, spend_requests, spend_allocations, purchase_orders',
  );
  const insertMs = performance.now() - t2;

  return {
    businessId: data.business.id,
    accounts: data.accounts.map(({ email, role, is_manager, name }) => ({ email, role, is_manager, name })),
    counts: {
      departments: data.departments.length,
      locations: data.locations.length,
      glAccounts: data.glAccounts.length,
      trackingCategories: data.trackingCategories.length,
      users: data.users.length,
      cards: data.cards.length + procurement.cards,
      transactions: data.transactions.length,
      reimbursements: generated.claims.length + claims.claims.length,
      approvals: generated.approvals.length + claims.approvals.length + (cardRequest.request ? 1 : 0)
        + bills.bills.filter((b) => b.status === 'PENDING_APPROVAL').length + procurement.approvals,
      cardRequests: cardRequest.request ? 1 : 0,
      payments: generated.payments.length + claims.payments.length,
      receipts: receipts.receipts.length,
      reimbursementRates: rates.length,
      vendors: vendors.vendors.length,
      /** Generated bills and the procurement demo's two (billing its purchase orders). */
      bills: bills.bills.length + procurement.bills,
      /** Generated trips (the demo employee's two besides). */
      trips: trips.length,
      spendAllocations: procurement.spendAllocations,
      spendRequests: procurement.spendRequests,
      purchaseOrders: procurement.purchaseOrders,
    },
    receiptBytes: receipts.bytes,
    maxChangeSeq: lastSeq,
    timings: { generateMs, hashMs, insertMs },
  };
}

/** Two timelines, each in updated_at order, as one (the first's item first on a tie). */
function mergeTimelines(a: readonly TimelineItem[], b: readonly TimelineItem[]): TimelineItem[] {
  const merged: TimelineItem[] = [];
  let j = 0;
  for (const item of a) {
    while (j < b.length && b[j]!.updated_at < item.updated_at) merged.push(b[j++]!);
    merged.push(item);
  }
  return [...merged, ...b.slice(j)];
}

async function assertNotSeeded(db: Queryable, data: DemoData): Promise<void> {
  const business = await db.query('SELECT 1 FROM businesses WHERE id = $1', [data.business.id]);
  if (business.length > 0) throw new DemoAlreadySeededError(data.business.id, `business ${data.business.name}`);
  const taken = await db.query<{ email: string }>(
    'SELECT email FROM identities WHERE lower(email) = ANY (SELECT lower(e) FROM jsonb_array_elements_text($1::jsonb) AS e) LIMIT 1',
    [JSON.stringify(data.identities.map((i) => i.email))],
  );
  if (taken[0]) throw new DemoAlreadySeededError(data.business.id, `${taken[0].email} already has an account`);
}

const MIRRORED = ['change_seq:bigint', 'updated_at:timestamptz', 'deleted:boolean'] as const;

async function insertAll(tx: Queryable, data: DemoData, hashes: readonly string[]): Promise<void> {
  const { business } = data;
  await tx.query(
    'INSERT INTO businesses (id, name, currency, status, change_seq, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
    [business.id, business.name, business.currency, business.status, data.maxChangeSeq, business.created_at],
  );
  const identities = data.identities.map((identity, i) => ({ ...identity, password_hash: hashes[i] }));
  await bulkInsert(tx, 'identities', cols('id:uuid', 'email:text', 'password_hash:text', 'created_at:timestamptz'), identities);
  await bulkInsert(tx, 'departments', cols('id:uuid', 'business_id:uuid', 'name:text', ...MIRRORED), data.departments);
  await bulkInsert(tx, 'locations', cols('id:uuid', 'business_id:uuid', 'name:text', ...MIRRORED), data.locations);
  await bulkInsert(
    tx,
    'gl_accounts',
    cols('id:uuid', 'business_id:uuid', 'code:text', 'name:text', 'classification:text', 'active:boolean', ...MIRRORED),
    data.glAccounts,
  );
  await bulkInsert(
    tx,
    'tracking_categories',
    cols('id:uuid', 'business_id:uuid', 'name:text', 'options:jsonb', ...MIRRORED),
    data.trackingCategories,
  );
  await bulkInsert(
    tx,
    'spend_users',
    cols(
      'id:uuid', 'business_id:uuid', 'identity_id:uuid', 'role:text', 'external_firm:jsonb',
      'has_finished_onboarding:boolean', 'is_business_locked:boolean', 'is_manager:boolean',
      'user_permissions:jsonb', 'payroll_currency:text', 'has_accepted_cardholder_agreement:boolean',
      'first_name:text', 'last_name:text', 'external_firm_role:text', 'email:text', 'manager_id:uuid',
      'department_id:uuid', 'location_id:uuid', 'status:text', ...MIRRORED,
    ),
    data.users,
  );
  await bulkInsert(
    tx,
    'cards',
    [
      ...cols('id:uuid', 'business_id:uuid', 'user_id:uuid', 'display_name:text', 'last_four:text', 'is_physical:boolean', 'status:text'),
      { name: 'limit_amount', type: 'bigint', value: (c) => (c as Card).limit.amount },
      { name: 'limit_currency', type: 'text', value: (c) => (c as Card).limit.currency },
      { name: 'limit_interval', type: 'text', value: (c) => (c as Card).limit.interval },
      { name: 'per_transaction_limit', type: 'bigint', value: (c) => (c as Card).limit.per_transaction },
      ...cols(
        'department_id:uuid', 'location_id:uuid', 'expires:text', 'is_primary:boolean', 'is_favorite:boolean', 'replaces_id:uuid',
        'replaced_by_id:uuid', 'created_at:timestamptz', ...MIRRORED,
      ),
    ],
    data.cards,
  );
  await insertTransactions(tx, data);
}

const TRANSACTION_COLUMNS = cols(
  'id:uuid', 'business_id:uuid', 'card_id:uuid', 'user_id:uuid', 'merchant_name:text', 'merchant_category:text',
  'amount:bigint', 'currency:text', 'occurred_at:timestamptz', 'state:text', 'memo:text', 'gl_account_id:uuid',
  'department_id:uuid', 'location_id:uuid', 'tracking:jsonb', ...MIRRORED,
);

/**
 * The bulk of the seed, with search_text supplied by us (the insert trigger only fills it in when
 * a writer leaves it empty: migration 002). With the privilege to (superuser: PGlite always, a
 * local PostgreSQL usually) it also switches this transaction's triggers off, which skips the six
 * foreign-key checks per row: measured on PGlite, they doubled the insert's time. The rows come
 * from our own generator, whose references seed.test.ts verifies. Without the privilege the
 * checks run as for any other write.
 */
async function insertTransactions(tx: Queryable, data: DemoData): Promise<void> {
  const searchText = searchTextBuilder(data);
  const columns = [
    ...TRANSACTION_COLUMNS,
    { name: 'search_text', type: 'text' as const, value: (row: Record<string, unknown>) => searchText(row as Transaction) },
  ];
  const [role] = await tx.query<{ superuser: boolean }>("SELECT current_setting('is_superuser') = 'on' AS superuser");
  if (role?.superuser) await tx.exec('SET LOCAL session_replication_role = replica');
  await bulkInsert(tx, 'transactions', columns, data.transactions);
  if (role?.superuser) await tx.exec('SET LOCAL session_replication_role = DEFAULT');
}

/**
 * The generated claims and receipts skip their foreign-key checks the same way (with the
 * privilege to): they reference only rows of this seed, which seed.test.ts verifies.
 */
async function withoutTriggers(tx: Queryable, fn: () => Promise<void>): Promise<void> {
  const [role] = await tx.query<{ superuser: boolean }>("SELECT current_setting('is_superuser') = 'on' AS superuser");
  if (role?.superuser) await tx.exec('SET LOCAL session_replication_role = replica');
  await fn();
  if (role?.superuser) await tx.exec('SET LOCAL session_replication_role = DEFAULT');
}

/**
 * Wipes every business and identity (and, by cascade, everything that hangs off them), keeping
 * the schema, migrations and server keys: what `npm run seed -- --reset` does before seeding.
 */
export async function wipeBusinessData(db: Db): Promise<void> {
  await db.exec('TRUNCATE businesses, identities, idempotency_keys CASCADE');
}
