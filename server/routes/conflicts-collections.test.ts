import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { allocateSeqs } from '../db/change-seq.ts';
import type { Queryable } from '../db/db.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { expectConflict, makeBusiness, request, signIn, type Fixture, type FixtureRole } from '../test-fixtures.ts';

/**
 * Issue 24 item 9 for claims, bills, cards, vendors and people (transactions:
 * conflicts.test.ts). Each collection runs the same cases: ETag on GET, disjoint edits from two
 * devices both land, the same field changed by someone else since the base is a 409 with the
 * contract body and nothing applied, a device's own changes and equal values never conflict,
 * no If-Match is as before, a bad If-Match is 422, a job's change names nobody, and another
 * business's row is 404.
 */
type Spec = {
  collection: string;
  path: (id: string) => string;
  /** Who edits on device A and device B (the same person for claims: only the claimant writes one). */
  writers: [FixtureRole, FixtureRole];
  create: (f: Fixture, token: (r: FixtureRole) => string) => Promise<string>;
  /** The conflicting field with A's and B's values, and a field only A sends. */
  field: string;
  values: [unknown, unknown];
  other: (f: Fixture) => [string, unknown];
  /** A server job changes `field` (no request, no person): table, column, value as stored, the value as the body spells it. */
  job: { table: string; set: string; value: unknown; body: unknown; mine: unknown };
};

const SPECS: Spec[] = [
  {
    collection: 'reimbursements',
    path: (id) => `/v1/auth/reimbursements/${id}`,
    writers: ['employee', 'employee'],
    create: async (_f, token) => {
      const res = await request(t().app, 'POST', '/v1/auth/reimbursements/out_of_pocket', {
        token: token('employee'),
        body: { amount: 2_500, currency: 'USD', transaction_date: '2026-11-02', merchant: 'Blue Bottle', submit: false },
      });
      expect(res.status, res.text).toBeLessThan(300);
      return res.body.id as string;
    },
    field: 'memo',
    values: ['Coffee with a client', 'Coffee with the team'],
    other: () => ['merchant', 'Ritual Coffee'],
    job: { table: 'reimbursements', set: 'memo', value: 'Checked by the receipt job', body: 'Checked by the receipt job', mine: 'Lunch' },
  },
  {
    collection: 'bills',
    path: (id) => `/v1/auth/bill-pay/${id}`,
    writers: ['admin', 'bookkeeper'],
    create: async (_f, token) => {
      const vendor = await request(t().app, 'POST', '/v1/auth/vendors', { token: token('admin'), body: { name: `Paper ${randomUUID().slice(0, 6)}` } });
      const res = await request(t().app, 'POST', '/v1/auth/bill-pay', {
        token: token('admin'),
        body: {
          vendor_id: vendor.body.id, invoice_number: `INV-${randomUUID().slice(0, 8)}`, invoice_date: '2026-11-01', due_date: '2026-11-30',
          currency: 'USD', line_items: [{ description: 'Paper', amount: 12_000 }],
        },
      });
      expect(res.status, res.text).toBeLessThan(300);
      return res.body.id as string;
    },
    field: 'line_items',
    values: [[{ description: 'Paper', amount: 10_000 }, { description: 'Toner', amount: 2_000 }], [{ description: 'Paper, A4', amount: 12_000 }]],
    other: () => ['memo', 'November supplies'],
    job: { table: 'bills', set: 'invoice_number', value: 'INV-FROM-OCR', body: 'INV-FROM-OCR', mine: 'INV-7' },
  },
  {
    collection: 'cards',
    path: (id) => `/v1/auth/cards/${id}`,
    writers: ['admin', 'owner'],
    create: async (f) => f.cards.employee,
    field: 'limit',
    values: [
      { amount: 300_000, currency: 'USD', interval: 'MONTHLY', per_transaction: null },
      { amount: 150_000, currency: 'USD', interval: 'WEEKLY', per_transaction: 50_000 },
    ],
    other: () => ['display_name', 'Travel card'],
    job: { table: 'cards', set: 'display_name', value: 'Renamed by a job', body: 'Renamed by a job', mine: 'My card' },
  },
  {
    collection: 'vendors',
    path: (id) => `/v1/auth/vendors/${id}`,
    writers: ['admin', 'bookkeeper'],
    create: async (_f, token) => {
      const res = await request(t().app, 'POST', '/v1/auth/vendors', { token: token('admin'), body: { name: `Acme ${randomUUID().slice(0, 6)}` } });
      expect(res.status, res.text).toBe(201);
      return res.body.id as string;
    },
    field: 'address',
    values: [
      { line1: '1 Main St', line2: null, city: 'Springfield', state: 'IL', postal_code: '62701', country: 'US' },
      { line1: '9 Elm Rd', line2: 'Suite 4', city: 'Austin', state: 'TX', postal_code: '73301', country: 'US' },
    ],
    other: () => ['phone', '+1 555 0100'],
    job: { table: 'vendors', set: 'email', value: 'ap@acme.test', body: 'ap@acme.test', mine: 'billing@acme.test' },
  },
  {
    collection: 'users',
    path: (id) => `/v1/auth/businesses/users/${id}`,
    writers: ['admin', 'owner'],
    create: async (f) => f.users.teammate,
    field: 'department_id',
    values: [null, null], // set per business below (departments are the fixture's)
    other: (f) => ['location_id', f.locations[1]],
    job: { table: 'spend_users', set: 'manager_id', value: null, body: null, mine: 'manager' },
  },
];

let current: ReturnType<typeof useTestApp>;
const t = () => current;

/** A server job: a write outside any request (no actor, no device), stamped with its own seq. */
async function jobWrite(db: Queryable & { transaction?: unknown }, businessId: string, table: string, column: string, value: unknown, id: string) {
  const run = async (tx: Queryable) => {
    const seqs = await allocateSeqs(tx, businessId, 1);
    await tx.query(`UPDATE ${table} SET ${column} = $1, change_seq = $2 WHERE id = $3`, [value, seqs!.last, id]);
  };
  await (db as unknown as { transaction: (fn: (tx: Queryable) => Promise<void>) => Promise<void> }).transaction(run);
}

describe.each(await testDatabases())('conflicts on %s', (kind) => {
  const app = useTestApp(kind, { now: () => Date.parse('2026-11-20T12:00:00Z') });
  let f: Fixture;
  let other: Fixture;
  const tokens = {} as Record<FixtureRole, string>;
  const token = (r: FixtureRole) => tokens[r];
  const DEVICE_A = randomUUID();
  const DEVICE_B = randomUUID();

  beforeAll(async () => {
    current = app;
    f = await makeBusiness(app.db, { transactions: 0 });
    other = await makeBusiness(app.db, { transactions: 0 });
    for (const r of ['owner', 'admin', 'bookkeeper', 'employee'] as const) tokens[r] = await signIn(app.app, f.email(r));
    SPECS.find((s) => s.collection === 'users')!.values = [f.departments[1], f.departments[2]];
  });

  const get = (s: Spec, id: string, tok = token(s.writers[0])) => request(app.app, 'GET', s.path(id), { token: tok });
  const patch = (s: Spec, who: 0 | 1, id: string, body: unknown, headers: Record<string, string>) =>
    request(app.app, 'PATCH', s.path(id), { token: token(s.writers[who]), body, headers });
  const dbVersion = async (s: Spec, id: string) => {
    const table = s.collection === 'users' ? 'spend_users' : s.collection;
    return Number((await app.db.query<{ change_seq: number }>(`SELECT change_seq FROM ${table} WHERE id = $1`, [id]))[0]!.change_seq);
  };
  /** A row whose field holds A's value (rows the fixture has are reused across tests). */
  const start = async (s: Spec) => {
    const id = await s.create(f, token);
    const reset = await patch(s, 0, id, { [s.field]: s.values[0] }, { 'X-Ledgerline-Device': DEVICE_A });
    expect(reset.status, reset.text).toBe(200);
    const got = await get(s, id);
    expect(got.status, got.text).toBe(200);
    return { id, etag: got.headers.get('etag')!, before: got.body };
  };
  const A = (etag: string) => ({ 'If-Match': etag, 'X-Ledgerline-Device': DEVICE_A });
  const B = (etag?: string) => ({ ...(etag ? { 'If-Match': etag } : {}), 'X-Ledgerline-Device': DEVICE_B });

  describe.each(SPECS)('$collection', (s) => {
    it('answers the row version as the ETag of its GET and of a PATCH', async () => {
      const { id, etag } = await start(s);
      expect(etag).toBe(`"${await dbVersion(s, id)}"`);
      const [field, value] = s.other(f);
      const res = await patch(s, 0, id, { [field]: value }, A(etag));
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('etag')).toBe(`"${await dbVersion(s, id)}"`);
      expect(res.headers.get('etag')).not.toBe(etag);
    });

    it('lands disjoint edits from two devices made against the same version', async () => {
      const { id, etag } = await start(s);
      const [field, value] = s.other(f);
      expect((await patch(s, 1, id, { [s.field]: s.values[1] }, B(etag))).status).toBe(200);
      const res = await patch(s, 0, id, { [field]: value }, A(etag));
      expect(res.status, res.text).toBe(200);
      const row = (await get(s, id)).body;
      expect(row[field]).toEqual(value);
      if (s.field !== 'line_items') expect(row[s.field]).toEqual(s.values[1]);
      else expect(row.line_items.map((l: { description: string }) => l.description)).toEqual(['Paper, A4']);
    });

    it('refuses the same field changed from another device since the base: 409 with the contract body, nothing applied', async () => {
      const { id, etag } = await start(s);
      const first = await patch(s, 1, id, { [s.field]: s.values[1] }, B(etag));
      expect(first.status, first.text).toBe(200);
      const version = await dbVersion(s, id);
      const before = (await get(s, id)).body;
      const [field, value] = s.other(f);
      const res = await patch(s, 0, id, { [s.field]: s.values[0], [field]: value }, A(etag));
      expect(res.status, res.text).toBe(409);
      const writer = s.writers[1];
      expectConflict(res.body, {
        field: s.field,
        server_value: s.values[1],
        your_value: s.values[0],
        changed_by: { user_id: f.users[writer], name: `${writer[0]!.toUpperCase()}${writer.slice(1)} ${`Fixture${f.businessId.slice(0, 8)}`}` },
        changed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      }, version);
      expect((await get(s, id)).body).toEqual(before);
      expect(await dbVersion(s, id)).toBe(version);
    });

    it("never conflicts with the device's own changes, nor over a value already equal", async () => {
      const { id, etag } = await start(s);
      expect((await patch(s, 0, id, { [s.field]: s.values[1] }, A(etag))).status).toBe(200);
      expect((await patch(s, 0, id, { [s.field]: s.values[0] }, A(etag))).status).toBe(200);
      const [field, value] = s.other(f);
      expect((await patch(s, 1, id, { [field]: value }, B())).status).toBe(200);
      const same = await patch(s, 0, id, { [field]: value }, A(etag));
      expect(same.status, same.text).toBe(200);
    });

    it('behaves as before without If-Match, and refuses an If-Match it cannot read with 422', async () => {
      const { id, etag } = await start(s);
      expect((await patch(s, 1, id, { [s.field]: s.values[1] }, B())).status).toBe(200);
      const plain = await patch(s, 0, id, { [s.field]: s.values[0] }, { 'X-Ledgerline-Device': DEVICE_A });
      expect(plain.status, plain.text).toBe(200);
      const bad = await patch(s, 0, id, { [s.field]: s.values[1] }, { 'If-Match': `"${etag}"x` });
      expect(bad.status).toBe(422);
      expect(bad.body.error_v2.errors).toHaveProperty('If-Match');
    });

    it('names nobody for a change a job made', async () => {
      const { id, etag } = await start(s);
      await jobWrite(app.db, f.businessId, s.job.table, s.job.set, s.job.value, id);
      const sent = s.job.mine === 'manager' ? f.users.manager : s.job.mine;
      const res = await patch(s, 0, id, { [s.job.set]: sent }, A(etag));
      expect(res.status, res.text).toBe(409);
      expect(res.body.error_v2.conflicts).toEqual([
        expect.objectContaining({ field: s.job.set, server_value: s.job.body, your_value: sent, changed_by: null }),
      ]);
    });

    it("answers 404 for another business's row, never a 409", async () => {
      const { id, etag } = await start(s);
      expect((await patch(s, 1, id, { [s.field]: s.values[1] }, B(etag))).status).toBe(200);
      const outsider = await signIn(app.app, other.email(s.writers[0] === 'employee' ? 'employee' : 'admin'));
      const res = await request(app.app, 'PATCH', s.path(id), { token: outsider, body: { [s.field]: s.values[0] }, headers: A(etag) });
      expect(res.status).toBe(404);
      expect(res.body.error_v2.error_code).toBe('REQUEST_7004');
    });
  });

  it('a bill bulk action by a person names them', async () => {
    const s = SPECS.find((x) => x.collection === 'bills')!;
    const { id, etag } = await start(s);
    const bulk = await request(app.app, 'PATCH', '/v1/auth/bill-pay/bulk-actions/memo', {
      token: token('bookkeeper'), body: { bill_ids: [id], memo: 'Set in bulk' }, headers: B(),
    });
    expect(bulk.status, bulk.text).toBe(200);
    const res = await patch(s, 0, id, { memo: 'Mine' }, A(etag));
    expect(res.status).toBe(409);
    expect(res.body.error_v2.conflicts[0]).toMatchObject({ field: 'memo', server_value: 'Set in bulk', changed_by: { user_id: f.users.bookkeeper } });
  });
});
