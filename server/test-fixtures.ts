/**
 * Small fixture factories for server tests: a business with every demo role, a little reference
 * data, cards and a few hundred transactions, inserted through SQL (the same tables the API
 * reads). Each call makes a fresh business with unique emails, so tests can share one database.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import { beforeAll, expect } from 'vitest';
import { errorV2Schema } from '../schema/errors.ts';
import { hashPassword } from './auth/password.ts';
import type { Db, Queryable } from './db/db.ts';
import { fund, openWalletAccount } from './ledger/ledger.ts';

export const FIXTURE_PASSWORD = 'fixture-password-1';
/** Cheap scrypt parameters: tests need the format, not the cost. */
const FAST_SCRYPT = { N: 2 ** 10, r: 8, p: 1 };
let fastHash: Promise<string> | null = null;

export const FIXTURE_ROLES = ['owner', 'admin', 'bookkeeper', 'manager', 'employee', 'teammate', 'outsider', 'auditor'] as const;
export type FixtureRole = (typeof FIXTURE_ROLES)[number];

const ROLE: Record<FixtureRole, string> = {
  owner: 'BUSINESS_OWNER',
  admin: 'BUSINESS_ADMIN',
  bookkeeper: 'BUSINESS_BOOKKEEPER',
  manager: 'BUSINESS_USER',
  employee: 'BUSINESS_USER',
  teammate: 'BUSINESS_USER',
  outsider: 'BUSINESS_USER',
  auditor: 'AUDITOR',
};

export type Fixture = {
  businessId: string;
  email: (role: FixtureRole) => string;
  users: Record<FixtureRole, string>;
  cards: Record<FixtureRole, string>;
  departments: string[];
  locations: string[];
  glAccounts: { active: string[]; inactive: string };
  tracking: { categoryId: string; options: string[] }[];
  /** Transaction ids by cardholder role. */
  transactions: Record<FixtureRole, string[]>;
  allTransactions: string[];
  /** Issue 30: the primary OPERATING wallet account per currency the fixture opened (`operating`). */
  operatingAccounts: Record<string, string>;
};

/**
 * Issue 30: what a fixture business holds in its primary OPERATING account per currency, so the
 * payments the existing tests make (bills, claims: all USD) draw on real, ample funds. A test of
 * the funds check passes its own (`{ operating: { USD: 0 } }`, or `{}` for no account at all).
 */
const FIXTURE_OPENING_BALANCE = 1_000_000_000_00;
const FIXTURE_OPERATING: Record<string, number> = { USD: FIXTURE_OPENING_BALANCE };

/**
 * Cardholders get transactions. Reporting line: employee → manager, teammate → employee, so the
 * manager's team (recursive) is employee and teammate; only the manager has is_manager.
 */
const CARDHOLDERS: FixtureRole[] = ['manager', 'employee', 'teammate', 'outsider', 'admin'];
const MERCHANTS = ['Delta Air Lines', 'Uber', 'Blue Bottle Coffee', 'AWS', 'Staples', 'Marriott'];

export async function makeBusiness(
  db: Queryable, opts: { transactions?: number; name?: string; operating?: Record<string, number> } = {},
): Promise<Fixture> {
  const businessId = randomUUID();
  const tag = businessId.slice(0, 8);
  let seq = 0;
  const next = () => ++seq;
  const email = (role: FixtureRole) => `${role}@${tag}.fixture.test`;
  fastHash ??= hashPassword(FIXTURE_PASSWORD, FAST_SCRYPT);
  const hash = await fastHash;

  await db.query('INSERT INTO businesses (id, name, currency) VALUES ($1, $2, $3)', [businessId, opts.name ?? `Fixture ${tag}`, 'USD']);
  const departments = await insertNamed(db, 'departments', businessId, ['Engineering', 'Sales', 'Finance'], next);
  const locations = await insertNamed(db, 'locations', businessId, ['New York', 'Berlin'], next);
  const glActive = [randomUUID(), randomUUID()];
  const glInactive = randomUUID();
  for (const [id, code, name, active] of [
    [glActive[0], '6000', 'Travel', true],
    [glActive[1], '6100', 'Software', true],
    [glInactive, '6900', 'Retired', false],
  ] as const) {
    await db.query(
      `INSERT INTO gl_accounts (id, business_id, code, name, classification, active, change_seq) VALUES ($1, $2, $3, $4, 'EXPENSE', $5, $6)`,
      [id, businessId, code, name, active, next()],
    );
  }
  const tracking = [{ categoryId: randomUUID(), options: [randomUUID(), randomUUID()] }];
  await db.query(
    'INSERT INTO tracking_categories (id, business_id, name, options, change_seq) VALUES ($1, $2, $3, $4::jsonb, $5)',
    [tracking[0]!.categoryId, businessId, 'Project', JSON.stringify(tracking[0]!.options.map((id, i) => ({ id, name: `Apollo ${i}` }))), next()],
  );

  const users = {} as Record<FixtureRole, string>;
  const cards = {} as Record<FixtureRole, string>;
  for (const role of FIXTURE_ROLES) {
    const identityId = randomUUID();
    users[role] = randomUUID();
    cards[role] = randomUUID();
    await db.query('INSERT INTO identities (id, email, password_hash, ofac_status) VALUES ($1, $2, $3, $4)', [identityId, email(role), hash, 'PASSED']);
    const managerId = role === 'employee' ? users.manager : role === 'teammate' ? users.employee : null;
    await db.query(
      `INSERT INTO spend_users (id, business_id, identity_id, role, is_manager, first_name, last_name, email, manager_id, department_id, change_seq)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [users[role], businessId, identityId, ROLE[role], role === 'manager', cap(role), `Fixture${tag}`, email(role), managerId, departments[0], next()],
    );
    await db.query(
      `INSERT INTO cards (id, business_id, user_id, display_name, last_four, change_seq) VALUES ($1, $2, $3, $4, '4242', $5)`,
      [cards[role], businessId, users[role], `${cap(role)}'s card`, next()],
    );
  }

  const transactions = Object.fromEntries(FIXTURE_ROLES.map((r) => [r, [] as string[]])) as Record<FixtureRole, string[]>;
  const count = opts.transactions ?? 60;
  const rows = Array.from({ length: count }, (_, i) => {
    const holder = CARDHOLDERS[i % CARDHOLDERS.length]!;
    const id = randomUUID();
    transactions[holder].push(id);
    return {
      id, business_id: businessId, card_id: cards[holder], user_id: users[holder],
      merchant_name: MERCHANTS[i % MERCHANTS.length], merchant_category: 'General',
      amount: 1000 + ((i * 7919) % 50000), currency: 'USD',
      occurred_at: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString(),
      state: 'CLEARED', memo: i % 10 === 0 ? `Team offsite ${i}` : null, department_id: departments[i % 3],
      change_seq: next(),
    };
  });
  if (rows.length > 0) {
    await db.query(
      `INSERT INTO transactions (id, business_id, card_id, user_id, merchant_name, merchant_category, amount, currency, occurred_at, state, memo, department_id, change_seq)
       SELECT id, business_id, card_id, user_id, merchant_name, merchant_category, amount, currency, occurred_at, state, memo, department_id, change_seq
         FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, business_id uuid, card_id uuid, user_id uuid, merchant_name text,
           merchant_category text, amount bigint, currency text, occurred_at timestamptz, state text, memo text, department_id uuid, change_seq bigint)`,
      [JSON.stringify(rows)],
    );
  }
  await db.query('UPDATE businesses SET change_seq = $2 WHERE id = $1', [businessId, seq]);
  const operatingAccounts: Record<string, string> = {};
  for (const [currency, amount] of Object.entries(opts.operating ?? FIXTURE_OPERATING)) {
    const at = new Date(Date.UTC(2025, 0, 1));
    const account = await openWalletAccount(db, { businessId, kind: 'OPERATING', currency, name: `Operating ${currency}`, primary: true, at });
    operatingAccounts[currency] = account;
    // An entry's postings balance at commit: inside one transaction (the caller's, when `db` is one).
    const post = (tx: Queryable) => fund(tx, { businessId, account, amount, currency, key: `fixture-opening:${currency}`, at, memo: 'Opening balance' });
    if (amount > 0) await ('transaction' in db ? (db as Db).transaction(post) : post(db));
  }
  return {
    businessId, email, users, cards, departments, locations,
    glAccounts: { active: glActive, inactive: glInactive }, tracking, transactions,
    allTransactions: rows.map((r) => r.id), operatingAccounts,
  };
}

async function insertNamed(db: Queryable, table: 'departments' | 'locations', businessId: string, names: string[], next: () => number) {
  const ids: string[] = [];
  for (const name of names) {
    const id = randomUUID();
    ids.push(id);
    await db.query(`INSERT INTO ${table} (id, business_id, name, change_seq) VALUES ($1, $2, $3, $4)`, [id, businessId, name, next()]);
  }
  return ids;
}

const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);

/** A 9-byte PDF `userId` uploaded to the business (the receipt store's row and its upload record); answers its id. */
export async function insertPdfUpload(db: Queryable, businessId: string, userId: string): Promise<string> {
  const id = randomUUID();
  await db.query(
    `INSERT INTO receipts (id, business_id, user_id, content_type, size, sha256, bytes) VALUES ($1, $2, $3, 'application/pdf', 9, $4, $5)`,
    [id, businessId, userId, createHash('sha256').update(id).digest('hex'), new TextEncoder().encode('%PDF-1.7\n')],
  );
  await db.query('INSERT INTO receipt_uploads (receipt_id, business_id, user_id) VALUES ($1, $2, $3)', [id, businessId, userId]);
  return id;
}

/** Two fixture businesses of one test file: `a`, whose `roles` are signed in, and `b`, whose owner is. */
export type TwoBusinesses = { a: Fixture; b: Fixture; tokens: Record<FixtureRole, string>; bOwner: string };

/**
 * Makes both businesses (no transactions unless `transactions` says `[a's, b's]`) and signs in
 * once, in a `beforeAll` registered after the caller's `useTestApp`; read the fields in hooks and
 * tests, never at describe time. `tokens` is the same object throughout, so it may be destructured.
 */
export function useTwoBusinesses(
  t: { db: Queryable; app: Hono },
  roles: readonly FixtureRole[],
  transactions: readonly [number, number] = [0, 0],
): TwoBusinesses {
  const two = { tokens: {} as Record<FixtureRole, string> } as TwoBusinesses;
  beforeAll(async () => {
    two.a = await makeBusiness(t.db, { transactions: transactions[0] });
    two.b = await makeBusiness(t.db, { transactions: transactions[1] });
    for (const role of roles) two.tokens[role] = await signIn(t.app, two.a.email(role));
    two.bOwner = await signIn(t.app, two.b.email('owner'));
  });
  return two;
}

// ---------------------------------------------------------------------------------------------
// Request helpers over app.request().

export type TestResponse<T = unknown> = { status: number; body: T; text: string; headers: Headers };

export async function request<T = any>( // eslint-disable-line @typescript-eslint/no-explicit-any
  app: Hono,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<TestResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers['RAMP-ID-TOKEN'] = opts.token;
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  const res = await app.request(path, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON (SSE, static files): the text is the body
  }
  return { status: res.status, body: parsed as T, text, headers: res.headers };
}

export async function signIn(app: Hono, email: string, password = FIXTURE_PASSWORD): Promise<string> {
  const res = await request<{ id_token: string }>(app, 'POST', '/v1/public/sign-in', { body: { email, password } });
  if (res.status !== 200) throw new Error(`sign-in of ${email} failed: ${res.status} ${res.text}`);
  return res.body.id_token;
}

/**
 * A 409 CONFLICT answer (issue 24) as a whole: the error_v2 contract, the catalogue's words, the
 * one conflicting field and the row's current version.
 */
export function expectConflict(body: unknown, conflict: Record<string, unknown>, currentVersion: unknown): void {
  expect(errorV2Schema.parse(body)).toEqual(body);
  expect(body).toEqual({
    error_v2: {
      error_code: 'CONFLICT',
      message: 'Someone else changed this while you were editing.',
      conflicts: [conflict],
      current_version: currentVersion,
    },
  });
}

/** A refusal as `[status, error_code]`, for one `toEqual`. */
/** A refusal's status and catalogue code (any answer's body: a success reads as `[status, undefined]`). */
export const refusal = (res: { status: number; body: unknown }) =>
  [res.status, (res.body as { error_v2?: { error_code: string } } | null)?.error_v2?.error_code];

/** Creates a vendor through the API (201 expected) and answers its id. */
export async function makeVendor(app: Hono, token: string, name: string): Promise<string> {
  const res = await request<{ id: string }>(app, 'POST', '/v1/auth/vendors', { token, body: { name } });
  if (res.status !== 201) throw new Error(`vendor ${name} not created: ${res.status} ${res.text}`);
  return res.body.id;
}

/** Follows an SSE response's `seq` events (and raw text, for heartbeats). */
export function sseReader(res: Response) {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const seqs = () => [...text.matchAll(/event: seq\ndata: (\{[^\n]*\})/g)].map((m) => (JSON.parse(m[1]!) as { seq: number }).seq);
  return {
    seqs,
    text: () => text,
    /** Reads until the predicate holds (the test's timeout bounds a stream that never delivers). */
    async until(pred: () => boolean): Promise<void> {
      while (!pred()) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before the expected events; got: ${text}`);
        text += decoder.decode(value, { stream: true });
      }
    },
    cancel: () => reader.cancel(),
  };
}
