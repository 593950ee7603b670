import { describe, expect, it } from 'vitest';
import { listReimbursementRates } from '../../schema/api/calls-reimbursement-rates.ts';
import { reimbursementRateSchema } from '../../schema/entities/reimbursement-rate.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn } from '../test-fixtures.ts';

const BASE = '/v1/auth/businesses/reimbursement-rates';
const CLAIMS = '/v1/auth/reimbursements';
const nyc = { kind: 'PER_DIEM', name: 'New York', rate: 7900, currency: 'USD' };
const override2026 = { kind: 'MILEAGE', year: 2026, rate: 800 };

describe.each(await testDatabases())('reimbursement rates on %s', (kind) => {
  const t = useTestApp(kind);

  it('lets an admin create, list, update and delete (tombstone) rates, each write a seq the feed carries', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const admin = await signIn(t.app, f.email('admin'));
    const created = await request(t.app, 'POST', BASE, { token: admin, body: nyc });
    expect(created.status, created.text).toBe(201);
    const row = reimbursementRateSchema.strict().parse(created.body);
    expect(row).toMatchObject({ kind: 'PER_DIEM', name: 'New York', year: null, rate: 7900, currency: 'USD', deleted: false });
    const mileage = await request(t.app, 'POST', BASE, { token: admin, body: override2026 });
    expect(mileage.body).toMatchObject({ kind: 'MILEAGE', name: null, year: 2026, rate: 800, currency: 'USD' });

    // Every member reads them: the list and the change feed (reference data).
    const employee = await signIn(t.app, f.email('employee'));
    const list = listReimbursementRates.response.parse((await request(t.app, 'GET', `${BASE}?page_size=10`, { token: employee })).body);
    expect(list.data.map((r) => r.id).sort()).toEqual([row.id, mileage.body.id].sort());
    const feed = await request(t.app, 'GET', `/v1/auth/sync/changes?after=${row.change_seq - 1}`, { token: employee });
    expect(feed.body.changes.filter((c: { collection: string }) => c.collection === 'reimbursement_rates').map((c: { id: string }) => c.id))
      .toEqual([row.id, mileage.body.id]);

    const updated = await request(t.app, 'PATCH', `${BASE}/${row.id}`, { token: admin, body: { rate: 8100, name: 'New York City' } });
    expect(updated.body).toMatchObject({ name: 'New York City', rate: 8100, change_seq: mileage.body.change_seq + 1 });
    const removed = await request(t.app, 'DELETE', `${BASE}/${row.id}`, { token: admin });
    expect(removed.body).toMatchObject({ id: row.id, deleted: true, change_seq: mileage.body.change_seq + 2 });
    const after = await request(t.app, 'GET', `${BASE}?page_size=10`, { token: employee });
    expect(after.body.data.map((r: { id: string }) => r.id)).toEqual([mileage.body.id]);
    expect((await request(t.app, 'PATCH', `${BASE}/${row.id}`, { token: admin, body: { rate: 1 } })).status).toBe(404);
  });

  it('refuses non-admins (403), invalid bodies and duplicates (422), and fields of the other kind', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const owner = await signIn(t.app, f.email('owner'));
    for (const role of ['employee', 'manager', 'bookkeeper', 'auditor'] as const) {
      const res = await request(t.app, 'POST', BASE, { token: await signIn(t.app, f.email(role)), body: nyc });
      expect([res.status, res.body.error_v2?.error_code]).toEqual([403, 'FORBIDDEN_7003']);
    }
    const bad = async (body: unknown) => {
      const res = await request(t.app, 'POST', BASE, { token: owner, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error_v2.error_code).toBe('REQUEST_7001');
      return res.body.error_v2.errors as Record<string, string>;
    };
    expect(await bad({ ...nyc, rate: 0 })).toHaveProperty('rate');
    expect(await bad({ ...nyc, rate: 12.5 })).toHaveProperty('rate');
    expect(await bad({ ...nyc, currency: 'XYZ' })).toHaveProperty('currency');
    expect(await bad({ ...nyc, name: '  ' })).toHaveProperty('name');
    expect(await bad({ ...override2026, currency: 'EUR' })).toHaveProperty('currency');
    expect(await bad({ ...override2026, rate: 10_001 })).toHaveProperty('rate');
    expect(await bad({ ...override2026, name: 'x' })).toHaveProperty('name');
    expect(await bad({ kind: 'HOTEL', rate: 1 })).toHaveProperty('kind');

    const first = await request(t.app, 'POST', BASE, { token: owner, body: nyc });
    expect(first.status).toBe(201);
    const dup = await bad({ ...nyc, name: ' new YORK ' });
    expect(dup).toEqual({ name: "A per-diem location named 'new YORK' already exists." });
    await request(t.app, 'POST', BASE, { token: owner, body: override2026 });
    expect(await bad(override2026)).toEqual({ year: 'A mileage rate for 2026 already exists.' });
    const foreign = await request(t.app, 'PATCH', `${BASE}/${first.body.id}`, { token: owner, body: { year: 2026 } });
    expect([foreign.status, foreign.body.error_v2.errors]).toEqual([422, { year: 'year cannot be set on a per-diem location' }]);
    // A deleted location's name is free again.
    await request(t.app, 'DELETE', `${BASE}/${first.body.id}`, { token: owner });
    expect((await request(t.app, 'POST', BASE, { token: owner, body: nyc })).status).toBe(201);
  });

  it("keeps businesses apart: another business's rate is 404 and never listed or applied", async () => {
    const a = await makeBusiness(t.db, { transactions: 0 });
    const b = await makeBusiness(t.db, { transactions: 0 });
    const aOwner = await signIn(t.app, a.email('owner'));
    const bOwner = await signIn(t.app, b.email('owner'));
    const rate = await request(t.app, 'POST', BASE, { token: aOwner, body: nyc });
    expect((await request(t.app, 'PATCH', `${BASE}/${rate.body.id}`, { token: bOwner, body: { rate: 1 } })).status).toBe(404);
    expect((await request(t.app, 'DELETE', `${BASE}/${rate.body.id}`, { token: bOwner })).status).toBe(404);
    expect((await request(t.app, 'GET', BASE, { token: bOwner })).body.data).toEqual([]);
    const claim = await request(t.app, 'POST', `${CLAIMS}/per-diem`, {
      token: await signIn(t.app, b.email('employee')), body: { location: 'New York', start_date: '2026-03-01', end_date: '2026-03-03' },
    });
    expect(claim.body).toMatchObject({ amount: 17000, currency: 'USD' });
  });

  it("computes new claims at the business's rates: a location's daily rate and currency, the mileage override", async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const owner = await signIn(t.app, f.email('owner'));
    await request(t.app, 'POST', BASE, { token: owner, body: nyc });
    await request(t.app, 'POST', BASE, { token: owner, body: { kind: 'PER_DIEM', name: 'London', rate: 7500, currency: 'GBP' } });
    const override = await request(t.app, 'POST', BASE, { token: owner, body: override2026 });
    const token = await signIn(t.app, f.email('employee'));
    const post = async (path: string, body: unknown) => {
      const res = await request(t.app, 'POST', `${CLAIMS}/${path}`, { token, body });
      expect(res.status, res.text).toBe(200);
      return res.body;
    };
    // 79 USD a day: 59.25 + 79 + 59.25.
    expect(await post('per-diem', { location: 'new york', start_date: '2026-03-01', end_date: '2026-03-03' })).toMatchObject({ amount: 19750, currency: 'USD' });
    expect(await post('per-diem', { location: 'London', start_date: '2026-03-01', end_date: '2026-03-01' })).toMatchObject({ amount: 5625, currency: 'GBP' });
    expect(await post('per-diem', { location: 'Chicago', start_date: '2026-03-01', end_date: '2026-03-03' })).toMatchObject({ amount: 17000, currency: 'USD' });
    const trip = { distance_miles: 100, start_location: 'A', end_location: 'B' };
    expect(await post('mileage', { ...trip, trip_date: '2026-03-01' })).toMatchObject({ amount: 8000, currency: 'USD' });
    expect(await post('mileage', { ...trip, trip_date: '2025-03-01' })).toMatchObject({ amount: 7000 });

    // An edit recomputes at the rates of now: the override removed, the IRS rate applies.
    const draft = await post('mileage', { ...trip, trip_date: '2026-03-02', submit: false });
    await request(t.app, 'DELETE', `${BASE}/${override.body.id}`, { token: owner });
    const edited = await request(t.app, 'PATCH', `${CLAIMS}/${draft.id}`, { token, body: { distance_miles: 10 } });
    expect(edited.body).toMatchObject({ amount: 725 });
    const moved = await request(t.app, 'PUT', `${CLAIMS}/${crypto.randomUUID()}/draft`, {
      token, body: { type: 'PER_DIEM', location: 'London', start_date: '2026-03-01', end_date: '2026-03-02' },
    });
    expect(moved.body).toMatchObject({ amount: 11250, currency: 'GBP', status: 'DRAFT' });
  });
});
