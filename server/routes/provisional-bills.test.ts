import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { syncChanges } from '../../schema/api/calls.ts';
import { provisionalBillSchema } from '../../schema/entities/provisional-bill.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { type Fixture, type FixtureRole, insertPdfUpload, makeBusiness, refusal, request, signIn } from '../test-fixtures.ts';

/**
 * Provisional bills (issue 11 §7) through the API: an uploaded invoice kept with whatever is known
 * so far, completed later; bill managers only; fields checked as a bill's are; repeats of a
 * client id answer the same row; deletes (one and all) reach the mirror as tombstones; another
 * business's file or vendor is not found. In the fixture `teammate` is an AP clerk (AP_ACCESS).
 */
const BASE = '/v1/auth/bill-pay/provisional-bills';

describe.each(await testDatabases())('provisional bills on %s', (kind) => {
  const t = useTestApp(kind);
  let a: Fixture;
  let b: Fixture;
  const tokens = {} as Record<FixtureRole, string>;
  let bAdmin: string;
  let file: string;
  let bFile: string;
  let vendor: string;


  /** A PDF `user` uploaded to `biz` (the receipt store's row and its upload record). */
  async function upload(biz: Fixture, user: string): Promise<string> {
    return insertPdfUpload(t.db, biz.businessId, user);
  }

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 0 });
    b = await makeBusiness(t.db, { transactions: 0 });
    await t.db.query(`UPDATE spend_users SET user_permissions = '["AP_ACCESS"]' WHERE id = $1`, [a.users.teammate]);
    for (const role of ['admin', 'bookkeeper', 'employee', 'teammate'] as const) tokens[role] = await signIn(t.app, a.email(role));
    bAdmin = await signIn(t.app, b.email('admin'));
    file = await upload(a, a.users.teammate);
    bFile = await upload(b, b.users.admin);
    const v = await request(t.app, 'POST', '/v1/auth/vendors', { token: tokens.admin, body: { name: `Acme ${randomUUID().slice(0, 6)}` } });
    expect(v.status, v.text).toBe(201);
    vendor = v.body.id;
  });

  it('keeps an uploaded invoice with what is known, completes it field by field, and a repeat of the client id answers the same row', async () => {
    const id = randomUUID();
    const created = await request(t.app, 'POST', BASE, { token: tokens.teammate, body: { id, invoice_file_id: file, invoice_number: ' INV-88 ' } });
    expect(created.status, created.text).toBe(201);
    const row = provisionalBillSchema.parse(created.body);
    expect(row).toMatchObject({ id, invoice_file_id: file, invoice_number: 'INV-88', vendor_id: null, amount: null, created_by: a.users.teammate });

    const again = await request(t.app, 'POST', BASE, { token: tokens.teammate, body: { id, invoice_file_id: file } });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual(created.body);

    const patched = await request(t.app, 'PATCH', `${BASE}/${id}`, {
      token: tokens.bookkeeper,
      body: { vendor_id: vendor, amount: 125_000, currency: 'USD', invoice_date: '2026-11-01', due_date: '2026-12-01', memo: 'Q4 parts' },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ vendor_id: vendor, amount: 125_000, currency: 'USD', due_date: '2026-12-01', invoice_number: 'INV-88' });
    expect(patched.body.change_seq).toBeGreaterThan(row.change_seq);

    const cleared = await request(t.app, 'PATCH', `${BASE}/${id}`, { token: tokens.admin, body: { memo: null } });
    expect(cleared.body.memo).toBeNull();
    const list = await request(t.app, 'GET', BASE, { token: tokens.admin });
    expect(list.body.data.map((r: { id: string }) => r.id)).toContain(id);
  });

  it('refuses what a bill would refuse, and keeps the row as it was', async () => {
    const created = await request(t.app, 'POST', BASE, { token: tokens.teammate, body: { invoice_file_id: file } });
    const id = created.body.id as string;
    const cases: [Record<string, unknown>, number, string][] = [
      [{ invoice_date: '2026-11-10', due_date: '2026-11-01' }, 422, 'REQUEST_7001'],
      [{ amount: 500 }, 422, 'REQUEST_7001'],
      [{ amount: -5, currency: 'USD' }, 422, 'REQUEST_7001'],
      [{ currency: 'ZZZ' }, 422, 'REQUEST_7001'],
      [{ invoice_date: '2026-02-30' }, 422, 'REQUEST_7001'],
      [{ vendor_id: randomUUID() }, 404, 'REQUEST_7004'],
    ];
    for (const [body, status, code] of cases) {
      const res = await request(t.app, 'PATCH', `${BASE}/${id}`, { token: tokens.admin, body });
      expect(refusal(res), `${JSON.stringify(body)} ${res.text}`).toEqual([status, code]);
    }
    const after = await request(t.app, 'GET', BASE, { token: tokens.admin });
    expect(after.body.data.find((r: { id: string }) => r.id === id)).toEqual(created.body);
  });

  it('is for bill managers only, and another business’s file, vendor or row is not found', async () => {
    expect(refusal(await request(t.app, 'GET', BASE, { token: tokens.employee }))).toEqual([403, 'FORBIDDEN_7003']);
    expect(refusal(await request(t.app, 'POST', BASE, { token: tokens.employee, body: { invoice_file_id: file } }))).toEqual([403, 'FORBIDDEN_7003']);
    expect(refusal(await request(t.app, 'POST', BASE, { token: tokens.admin, body: { invoice_file_id: bFile } }))).toEqual([404, 'REQUEST_7004']);
    const mine = await request(t.app, 'POST', BASE, { token: tokens.admin, body: { invoice_file_id: file } });
    expect(refusal(await request(t.app, 'PATCH', `${BASE}/${mine.body.id}`, { token: bAdmin, body: { memo: 'x' } }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'DELETE', `${BASE}/${mine.body.id}`, { token: bAdmin }))).toEqual([404, 'REQUEST_7004']);
    const bVendor = await request(t.app, 'POST', '/v1/auth/vendors', { token: bAdmin, body: { name: `B vendor ${randomUUID().slice(0, 6)}` } });
    expect(refusal(await request(t.app, 'PATCH', `${BASE}/${mine.body.id}`, { token: tokens.admin, body: { vendor_id: bVendor.body.id } })))
      .toEqual([404, 'REQUEST_7004']);
    // B's "delete all" leaves A's rows alone.
    const bAll = await request(t.app, 'DELETE', BASE, { token: bAdmin });
    expect(bAll.body).toEqual({ deleted: 0 });
    const still = await request(t.app, 'GET', BASE, { token: tokens.admin });
    expect(still.body.data.map((r: { id: string }) => r.id)).toContain(mine.body.id);
  });

  it('deletes one and then all, each reaching the mirror of every bill manager as a tombstone', async () => {
    const one = await request(t.app, 'POST', BASE, { token: tokens.teammate, body: { invoice_file_id: file, memo: 'one' } });
    const removed = await request(t.app, 'DELETE', `${BASE}/${one.body.id}`, { token: tokens.teammate });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body).toMatchObject({ id: one.body.id, deleted: true });
    expect(refusal(await request(t.app, 'DELETE', `${BASE}/${one.body.id}`, { token: tokens.teammate }))).toEqual([404, 'REQUEST_7004']);

    const live = (await request(t.app, 'GET', BASE, { token: tokens.admin })).body.data as { id: string }[];
    expect(live.length).toBeGreaterThan(0);
    const all = await request(t.app, 'DELETE', BASE, { token: tokens.admin });
    expect(all.body).toEqual({ deleted: live.length });
    expect((await request(t.app, 'GET', BASE, { token: tokens.admin })).body.data).toEqual([]);

    const feed = await request(t.app, 'GET', `${syncChanges.path}?after=${one.body.change_seq - 1}&limit=1000`, { token: tokens.bookkeeper });
    expect(feed.status, feed.text).toBe(200);
    const mine = (feed.body.changes as { collection: string; id: string; deleted: boolean }[]).filter((c) => c.collection === 'provisional_bills');
    expect(new Set(mine.filter((c) => c.deleted).map((c) => c.id))).toEqual(new Set([one.body.id, ...live.map((r) => r.id)]));
    // An employee's mirror never holds them.
    const theirs = await request(t.app, 'GET', `${syncChanges.path}?after=0&limit=1000`, { token: tokens.employee });
    expect((theirs.body.changes as { collection: string }[]).some((c) => c.collection === 'provisional_bills')).toBe(false);
  });
});
