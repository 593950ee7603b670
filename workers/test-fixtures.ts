import { businessEntityRowSchema, type BusinessEntityRow } from '../schema/entities/business-entity.ts';
import { formatPoNumber } from '../schema/entities/purchase-order.ts';
import { transactionSchema, type Transaction } from '../schema/entities/transaction.ts';
import { spendUserSchema, userRowSchema, type UserRow } from '../schema/entities/spend-user.ts';
import { businessSchema } from '../schema/entities/business.ts';
import { identitySchema } from '../schema/entities/identity.ts';
import { departmentSchema, type Department } from '../schema/entities/department.ts';
import { locationSchema, type Location } from '../schema/entities/location.ts';
import { glAccountSchema, type GlAccount } from '../schema/entities/gl-account.ts';
import { trackingCategorySchema, type TrackingCategory } from '../schema/entities/tracking-category.ts';
import { cardSchema, type Card } from '../schema/entities/card.ts';
import { billSchema, type Bill } from '../schema/entities/bill.ts';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { mirrorDbName, openMirrorDatabase, type MirrorDatabase, mirrorStorage } from './db.ts';
import { RxMirrorStore } from './mirror-store.ts';
import { OutboxIndex } from './outbox-index.ts';
import type { Change } from '../schema/sync-feed.ts';
import type { z } from 'zod';
import { ENTITIES, type MirroredCollection, type RowOf } from '../schema/collections.ts';
import { BUSINESS_ID, seededRandom, testUuid } from './testing/seeded.ts';

/**
 * Test fixtures built through the real zod schemas (a fixture the schema rejects fails at
 * once), deterministic from a seed so a failing test reproduces.
 */
export { BUSINESS_ID, seededRandom, testUuid } from './testing/seeded.ts';
const NOW = '2026-01-01T00:00:00.000Z';

const mirrored = (seq = 1) => ({ business_id: BUSINESS_ID, change_seq: seq, updated_at: NOW, deleted: false });

export function makeTransaction(overrides: Partial<Transaction> = {}): Transaction {
  return transactionSchema.parse({
    id: testUuid(1, 1),
    card_id: testUuid(7, 1),
    user_id: testUuid(2, 1),
    merchant_name: 'Starbucks',
    merchant_category: 'Restaurants',
    amount: 1250,
    currency: 'USD',
    occurred_at: '2025-06-01T12:00:00.000Z',
    state: 'CLEARED',
    memo: null,
    gl_account_id: null,
    department_id: null,
    location_id: null,
    tracking: {},
    // As the server sends every row (issue 32): no attendee split.
    attendee_split: null,
    // As the server sends every row (issue 12): not exported to accounting.
    accounting_synced_at: null,
    // As the server sends every row (issue 24): never held.
    merchant_country: null,
    fraud_status: null,
    fraud_reasons: [],
    dispute_id: null,
    // As the server sends every row (issue 29): its coding suggestion never dismissed.
    coding_suggestion_dismissed_at: null,
    ...mirrored(),
    ...overrides,
  });
}

export const makeUser = (n: number, first: string, last: string, o: Partial<UserRow> = {}): UserRow =>
  userRowSchema.parse({
    id: testUuid(2, n),
    role: 'BUSINESS_USER',
    first_name: first,
    last_name: last,
    email: `${first}.${last}@demo.test`.toLowerCase(),
    is_manager: false,
    manager_id: null,
    department_id: null,
    location_id: null,
    status: 'ACTIVE',
    ...mirrored(),
    ...o,
  });

export const makeDepartment = (n: number, name: string): Department =>
  departmentSchema.parse({ id: testUuid(3, n), name, ...mirrored() });
export const makeLocation = (n: number, name: string): Location =>
  locationSchema.parse({ id: testUuid(4, n), name, ...mirrored() });
/** A business entity (issue 14: reference data, so bills name theirs offline). */
export const makeBusinessEntity = (n: number, name: string, over: Partial<BusinessEntityRow> = {}): BusinessEntityRow =>
  businessEntityRowSchema.parse({ id: testUuid(0xe7, n), name, country: 'US', currency: 'USD', created_at: '2026-01-01T00:00:00.000Z', ...mirrored(), ...over });
export const makeGlAccount = (n: number, name: string): GlAccount =>
  glAccountSchema.parse({ id: testUuid(5, n), code: String(6000 + n), name, classification: 'EXPENSE', active: true, ...mirrored() });
export const makeTrackingCategory = (n: number, name: string, options: string[]): TrackingCategory =>
  trackingCategorySchema.parse({
    id: testUuid(6, n),
    name,
    options: options.map((o, i) => ({ id: testUuid(6, 1000 * n + i + 1), name: o })),
    ...mirrored(),
  });
export const makeCard = (n: number, userN: number): Card =>
  cardSchema.parse({
    id: testUuid(7, n), user_id: testUuid(2, userN), display_name: 'Card', last_four: '4242', is_physical: false, status: 'ACTIVE',
    limit: { amount: 200_000, currency: 'USD', interval: 'MONTHLY' }, expires: '2028-06', created_at: NOW, ...mirrored(),
  });

/** A bill of vendor `testUuid(0xe, vendorN)`: one line, created by user 1. Ids `testUuid(0xd, n)`. */
export const makeBill = (n: number, vendorN = 1, o: Partial<Bill> = {}): Bill =>
  billSchema.parse({
    id: testUuid(0xd, n), vendor_id: testUuid(0xe, vendorN), invoice_number: `INV-${n}`, invoice_date: '2026-11-01',
    due_date: '2026-11-30', currency: 'USD', amount: 15_000, status: 'DRAFT', created_by: testUuid(2, 1), created_at: NOW,
    line_items: [{ id: testUuid(0xd, 10_000 + n), description: 'Paper', amount: 15_000 }], ...mirrored(), change_seq: n, ...o,
  });

const MERCHANTS = ['Starbucks', 'Uber', 'Lyft', 'Amazon Web Services', 'Delta Air Lines', 'Hilton', 'Marriott', 'Zoom', 'Slack', 'Éclair Café', 'WeWork', 'FedEx'];
const MEMOS = [null, 'team lunch', 'client dinner', 'conference travel', 'software subscription', null, null];

/** n transactions spread over users, departments and 18 months, deterministic from `seed`. */
export function makeTransactions(n: number, seed = 1, opts: { users?: number; departments?: number } = {}): Transaction[] {
  const rand = seededRandom(seed);
  const users = opts.users ?? 10;
  const departments = opts.departments ?? 4;
  const start = Date.parse('2024-07-01T00:00:00.000Z');
  const span = 540 * 86_400_000;
  const out: Transaction[] = [];
  for (let i = 0; i < n; i++) {
    const coded = rand() < 0.6;
    out.push(
      makeTransaction({
        id: testUuid(1, i + 1),
        user_id: testUuid(2, 1 + Math.floor(rand() * users)),
        merchant_name: MERCHANTS[Math.floor(rand() * MERCHANTS.length)]!,
        amount: Math.round((rand() - 0.05) * 200_000),
        occurred_at: new Date(start + Math.floor(rand() * span / 1000) * 1000).toISOString(),
        state: rand() < 0.9 ? 'CLEARED' : 'PENDING',
        memo: MEMOS[Math.floor(rand() * MEMOS.length)] ?? null,
        gl_account_id: coded ? testUuid(5, 1 + Math.floor(rand() * 3)) : null,
        department_id: rand() < 0.7 ? testUuid(3, 1 + Math.floor(rand() * departments)) : null,
        location_id: rand() < 0.5 ? testUuid(4, 1 + Math.floor(rand() * 2)) : null,
        change_seq: i + 1,
      }),
    );
  }
  return out;
}

/** A fresh mirror database on fake-indexeddb (Dexie storage, as in the browser). */
export async function openTestDatabase(): Promise<MirrorDatabase> {
  return openMirrorDatabase({
    name: `test-${crypto.randomUUID().slice(0, 8)}`,
    storage: mirrorStorage({ indexedDB: new IDBFactory(), IDBKeyRange }),
    multiInstance: false,
  });
}

/**
 * What the change feed would have mirrored before a test starts: one GL account and the rows
 * (uncoded), written into the named mirror through the real MirrorStore, then closed.
 */
export async function seedMirrorDb(idb: IDBFactory, name: string, rows: Transaction[], glName: string): Promise<Transaction[]> {
  const db = await openMirrorDatabase({ name, storage: mirrorStorage({ indexedDB: idb, IDBKeyRange }), multiInstance: false });
  const gl = makeGlAccount(1, glName);
  const changes: Change[] = [
    { collection: 'gl_accounts', seq: 1, id: gl.id, deleted: false, doc: gl },
    ...rows.map((t, i): Change => ({ collection: 'transactions', seq: i + 2, id: t.id, deleted: false, doc: { ...t, gl_account_id: null } })),
  ];
  await new RxMirrorStore(db, new OutboxIndex()).applyChanges(changes, { seq: rows.length + 1, epoch: 'e' });
  await db.close();
  return rows;
}

/**
 * n valid rows of any mirrored collection, from its definition's zod schema alone (so a newly
 * registered collection is covered by registry-driven tests without a fixture of its own):
 * objects field by field, optional fields left out, nullable ones null, defaults taken, and every
 * other leaf the first of a few candidate values its schema accepts (a schema none fits throws:
 * then give the collection a factory here). Ids are `testUuid(kind, i+1)`, change_seq is i+1.
 * Transactions use `makeTransactions` (realistic spread), with those ids.
 */
export function sampleRows<C extends MirroredCollection>(collection: C, n: number, kind = 0xa): RowOf<C>[] {
  if (collection === 'transactions') return makeTransactions(n, kind).map((t, i) => ({ ...t, id: testUuid(kind, i + 1) })) as unknown as RowOf<C>[];
  // A bill needs a line (min 1), which the generic sample (empty arrays) cannot give.
  if (collection === 'bills') return Array.from({ length: n }, (_, i) => makeBill(i + 1, 1, { id: testUuid(kind, i + 1) })) as unknown as RowOf<C>[];
  // An entity's country and currency are exact-length codes no generic candidate fits.
  if (collection === 'entities') {
    return Array.from({ length: n }, (_, i) => makeBusinessEntity(i + 1, `Entity ${i + 1}`, { id: testUuid(kind, i + 1), change_seq: i + 1 })) as unknown as RowOf<C>[];
  }
  // A purchase order needs its number's pattern and a line (min 1), which the generic sample cannot give.
  if (collection === 'purchase_orders') {
    return Array.from({ length: n }, (_, i) => ({
      ...(sample(ENTITIES.purchase_orders.schema as unknown as z.ZodType, i) as object),
      id: testUuid(kind, i + 1), change_seq: i + 1, deleted: false, po_number: formatPoNumber(i + 1),
      lines: [{ id: testUuid(kind + 1, i + 1), description: `Line ${i + 1}`, quantity: 5, unit_price: 1_000, received_quantity: 0, billed_quantity: 0 }],
    })) as unknown as RowOf<C>[];
  }
  const schema = ENTITIES[collection].schema as unknown as z.ZodType;
  const out: RowOf<C>[] = [];
  for (let i = 0; i < n; i++) {
    const row = { ...(sample(schema, i) as object), id: testUuid(kind, i + 1), change_seq: i + 1, deleted: false };
    const parsed = schema.safeParse(row);
    if (!parsed.success) throw new Error(`sampleRows(${collection}): add a fixture, the sample is invalid: ${parsed.error.message}`);
    out.push(parsed.data as RowOf<C>);
  }
  return out;
}

const LEAF_CANDIDATES = (i: number): unknown[] => [
  testUuid(9, i + 1), new Date(Date.UTC(2025, 0, 1 + (i % 300))).toISOString(), '2025-01-01', `sample${i}@demo.test`,
  'USD', `Sample ${i}`, 'x', '4242', i + 1, 0, 1, true, false,
  // An in-app path (a notification's `path` starts with '/').
  `/sample/${i}`,
];

function sample(schema: z.ZodType, i: number): unknown {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  switch (def.type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(def.shape as Record<string, z.ZodType>)
          .map(([k, v]) => [k, sample(v, i)] as const)
          .filter(([, v]) => v !== undefined),
      );
    case 'optional':
      return undefined;
    case 'nullable':
      return null;
    case 'default':
      return typeof def.defaultValue === 'function' ? (def.defaultValue as () => unknown)() : def.defaultValue;
    case 'array':
      return [];
    case 'record':
      return {};
    case 'enum':
      return Object.values(def.entries as Record<string, unknown>)[0];
    case 'literal':
      return (def.values as unknown[])[0];
    case 'union':
      return sample((def.options as z.ZodType[])[0]!, i);
    case 'pipe':
      return sample(def.in as z.ZodType, i);
    default:
      return LEAF_CANDIDATES(i).find((v) => schema.safeParse(v).success);
  }
}

/**
 * A signed-in business admin as the identity call answers (user, business, identity) and the
 * name of their mirror database: the worker-service tests sign in as this person.
 */
export function signedInAdmin() {
  const user = spendUserSchema.parse({
    ...makeUser(1, 'Ada', 'Lovelace', { role: 'BUSINESS_ADMIN' }),
    business_id: BUSINESS_ID, external_firm: null, has_finished_onboarding: true, is_business_locked: false,
    user_permissions: [], payroll_currency: null, has_accepted_cardholder_agreement: true, impersonator: null,
    acting_user_is_in_reporting_chain: false, external_firm_role: null,
  });
  const business = businessSchema.parse({ id: BUSINESS_ID, name: 'Demo', currency: 'USD', status: 'ACTIVE', created_at: '2024-01-01T00:00:00.000Z' });
  const identity = identitySchema.parse({
    id: testUuid(8, 1), email: user.email, spend_users: [user], external_firm_user: null, external_firm_applicant: null,
    financing_application_users: [], identity_ofac_status: null,
  });
  return { user, business, identity, dbName: mirrorDbName(BUSINESS_ID, user.id) };
}
