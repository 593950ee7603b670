import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bulkCode } from '../domain/coding.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { expectConflict, makeBusiness, request, signIn, type Fixture } from '../test-fixtures.ts';

/**
 * Issue 24 item 9, server side: versions (ETag / If-Match) and the field-by-field merge of
 * PATCHes. Transactions here; the other five collections in conflicts-collections.test.ts.
 */
describe.each(await testDatabases())('conflicts: transactions on %s', (kind) => {
  const t = useTestApp(kind);
  const DEVICE_A = randomUUID();
  const DEVICE_B = randomUUID();

  async function setup() {
    const f = await makeBusiness(t.db, { transactions: 10 });
    const admin = await signIn(t.app, f.email('admin'));
    const bookkeeper = await signIn(t.app, f.email('bookkeeper'));
    const id = f.transactions.employee[0]!;
    const got = await request(t.app, 'GET', `/v1/auth/transactions/${id}`, { token: admin });
    expect(got.status).toBe(200);
    const etag = got.headers.get('etag')!;
    return { f, admin, bookkeeper, id, etag, seq: got.body.change_seq as number, row: got.body };
  }

  const patch = (token: string, id: string, body: unknown, headers: Record<string, string> = {}) =>
    request(t.app, 'PATCH', `/v1/auth/transactions/${id}`, { token, body, headers });
  const read = async (token: string, id: string) => (await request(t.app, 'GET', `/v1/auth/transactions/${id}`, { token })).body;

  it('a GET answers the row version as a strong ETag, and a PATCH the new one', async () => {
    const { admin, id, etag, seq } = await setup();
    expect(etag).toBe(`"${seq}"`);
    const res = await patch(admin, id, { memo: 'Offsite lunch' }, { 'If-Match': etag });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe(`"${res.body.change_seq}"`);
    expect(res.body.change_seq).toBeGreaterThan(seq);
  });

  it('disjoint edits from two devices against the same version both land', async () => {
    const { f, admin, bookkeeper, id, etag } = await setup();
    const a = await patch(admin, id, { memo: 'From the phone' }, { 'If-Match': etag, 'X-Ledgerline-Device': DEVICE_A });
    const b = await patch(bookkeeper, id, { gl_account_id: f.glAccounts.active[1] }, { 'If-Match': etag, 'X-Ledgerline-Device': DEVICE_B });
    expect([a.status, b.status]).toEqual([200, 200]);
    const row = await read(admin, id);
    expect(row.memo).toBe('From the phone');
    expect(row.gl_account_id).toBe(f.glAccounts.active[1]);
  });

  it('the same field changed by someone else since the base is a 409 with the contract body, and nothing is applied', async () => {
    const { f, admin, bookkeeper, id, etag } = await setup();
    const first = await patch(bookkeeper, id, { memo: 'Client dinner' }, { 'If-Match': etag, 'X-Ledgerline-Device': DEVICE_B });
    expect(first.status).toBe(200);
    const before = await read(admin, id);
    const res = await patch(admin, id, { memo: 'Team lunch', location_id: f.locations[1] }, { 'If-Match': etag, 'X-Ledgerline-Device': DEVICE_A });
    expect(res.status).toBe(409);
    expectConflict(res.body, {
      field: 'memo',
      server_value: 'Client dinner',
      your_value: 'Team lunch',
      changed_by: { user_id: f.users.bookkeeper, name: expect.stringMatching(/^Bookkeeper Fixture/) },
      changed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
    }, first.body.change_seq);
    // Nothing of the request landed: neither the memo nor the location that did not conflict.
    expect(await read(admin, id)).toEqual(before);
  });

  it('a device never conflicts with its own earlier changes, and an equal value never conflicts', async () => {
    const { f, admin, bookkeeper, id, etag } = await setup();
    const headers = { 'If-Match': etag, 'X-Ledgerline-Device': DEVICE_A };
    expect((await patch(admin, id, { memo: 'First thought' }, headers)).status).toBe(200);
    expect((await patch(admin, id, { memo: 'Second thought' }, headers)).status).toBe(200);
    // Someone else sets the department; this device sends the very same department.
    expect((await patch(bookkeeper, id, { department_id: f.departments[2] }, { 'X-Ledgerline-Device': DEVICE_B })).status).toBe(200);
    expect((await patch(admin, id, { department_id: f.departments[2] }, headers)).status).toBe(200);
    // The same person on another device does conflict.
    const other = await patch(admin, id, { memo: 'Third thought' }, { 'If-Match': etag, 'X-Ledgerline-Device': DEVICE_B });
    expect(other.status).toBe(409);
    expect(other.body.error_v2.conflicts[0].changed_by.user_id).toBe(f.users.admin);
    expect((await read(admin, id)).memo).toBe('Second thought');
  });

  it('tracking is one field: a conflict shows the whole selection, and what is already selected is no conflict', async () => {
    const { f, admin, bookkeeper, id, etag } = await setup();
    const [cat] = f.tracking;
    const choice = { [cat!.categoryId]: cat!.options[0]! };
    expect((await patch(bookkeeper, id, { tracking: choice }, { 'X-Ledgerline-Device': DEVICE_B })).status).toBe(200);
    expect((await patch(admin, id, { tracking: choice }, { 'If-Match': etag })).status).toBe(200);
    const res = await patch(admin, id, { tracking: { [cat!.categoryId]: cat!.options[1]! } }, { 'If-Match': etag });
    expect(res.status).toBe(409);
    expect(res.body.error_v2.conflicts[0]).toMatchObject({ field: 'tracking', server_value: choice, your_value: { [cat!.categoryId]: cat!.options[1] } });
    // memo '' means "clear": against a cleared memo it is no conflict.
    expect((await patch(bookkeeper, id, { memo: null })).status).toBe(200);
    expect((await patch(admin, id, { memo: '' }, { 'If-Match': etag })).status).toBe(200);
  });

  it('answers a conflict under an Idempotency-Key without storing it: the same key runs anew once resolved', async () => {
    const { admin, bookkeeper, id, etag } = await setup();
    expect((await patch(bookkeeper, id, { memo: 'Theirs' }, { 'X-Ledgerline-Device': DEVICE_B })).status).toBe(200);
    const key = randomUUID();
    const refused = await patch(admin, id, { memo: 'Mine' }, { 'If-Match': etag, 'Idempotency-Key': key, 'X-Ledgerline-Device': DEVICE_A });
    expect(refused.status).toBe(409);
    expect(refused.body.error_v2.conflicts[0]).toMatchObject({ field: 'memo', server_value: 'Theirs', your_value: 'Mine' });
    // Keep mine: the same request against the version the 409 named.
    const current = `"${refused.body.error_v2.current_version}"`;
    const again = await patch(admin, id, { memo: 'Mine' }, { 'If-Match': current, 'Idempotency-Key': key, 'X-Ledgerline-Device': DEVICE_A });
    expect(again.status, again.text).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.body.memo).toBe('Mine');
  });

  it('without If-Match a PATCH overwrites as before; If-Match takes "n", n and W/"n"; anything else is 422', async () => {
    const { admin, bookkeeper, id, etag, seq } = await setup();
    expect((await patch(bookkeeper, id, { memo: 'Server side' })).status).toBe(200);
    const plain = await patch(admin, id, { memo: 'API client' });
    expect(plain.status).toBe(200);
    expect(plain.body.memo).toBe('API client');
    expect(plain.headers.get('etag')).toBe(`"${plain.body.change_seq}"`);
    for (const spelling of [String(seq), `W/"${seq}"`, etag]) {
      const res = await patch(admin, id, { memo: `Mine ${spelling}` }, { 'If-Match': spelling });
      expect(res.status, spelling).toBe(409);
    }
    for (const bad of ['*', 'abc', '"12", "13"', '"-1"', '"1.5"', '99999999999999999']) {
      const res = await patch(admin, id, { memo: 'x' }, { 'If-Match': bad });
      expect(res.status, bad).toBe(422);
      expect(res.body.error_v2.error_code).toBe('REQUEST_7001');
      expect(Object.keys(res.body.error_v2.errors)).toEqual(['If-Match']);
    }
    const badDevice = await patch(admin, id, { memo: 'x' }, { 'X-Ledgerline-Device': 'my phone' });
    expect(badDevice.status).toBe(422);
    expect(Object.keys(badDevice.body.error_v2.errors)).toEqual(['X-Ledgerline-Device']);
  });

  it('a change by a job (no person) names nobody; bulk coding by a person names them', async () => {
    const { f, admin, bookkeeper, id, etag } = await setup();
    const other = f.transactions.employee[1]!;
    const otherTag = (await request(t.app, 'GET', `/v1/auth/transactions/${other}`, { token: admin })).headers.get('etag')!;
    // A server job writes outside any request: no actor, no device.
    await t.db.transaction((tx) => bulkCode(tx, f.businessId, { all: true }, { transaction_ids: [id], patch: { memo: 'Rule applied' } }));
    const byJob = await patch(admin, id, { memo: 'Mine' }, { 'If-Match': etag });
    expect(byJob.status).toBe(409);
    expect(byJob.body.error_v2.conflicts[0]).toMatchObject({ field: 'memo', server_value: 'Rule applied', changed_by: null });

    const bulk = await request(t.app, 'PATCH', '/v1/auth/accounting/coding/bulk-update', {
      token: bookkeeper, body: { transaction_ids: [other], patch: { location_id: f.locations[0] } }, headers: { 'X-Ledgerline-Device': DEVICE_B },
    });
    expect(bulk.status).toBe(200);
    const byPerson = await patch(admin, other, { location_id: f.locations[1] }, { 'If-Match': otherTag, 'X-Ledgerline-Device': DEVICE_A });
    expect(byPerson.status).toBe(409);
    expect(byPerson.body.error_v2.conflicts[0]).toMatchObject({
      field: 'location_id', server_value: f.locations[0], your_value: f.locations[1],
      changed_by: { user_id: f.users.bookkeeper },
    });
  });

  it("another business's row is 404 with If-Match, never a 409, and a row the caller cannot see is 404 too", async () => {
    const { f, bookkeeper, id, etag } = await setup();
    expect((await patch(bookkeeper, id, { memo: 'Changed' })).status).toBe(200);
    const other: Fixture = await makeBusiness(t.db, { transactions: 5 });
    const outsider = await signIn(t.app, other.email('admin'));
    const res = await patch(outsider, id, { memo: 'Mine' }, { 'If-Match': etag });
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('Changed');
    // The employee may not see their manager's transaction.
    const employee = await signIn(t.app, f.email('employee'));
    const hidden = f.transactions.manager[0]!;
    const seen = await patch(employee, hidden, { memo: 'Mine' }, { 'If-Match': '"0"' });
    expect([403, 404]).toContain(seen.status);
    expect(seen.body.error_v2.error_code).not.toBe('CONFLICT');
  });

  it.runIf(kind === 'pg')('two concurrent PATCHes of one field from the same base: exactly one lands', async () => {
    for (let round = 0; round < 5; round++) {
      const { admin, bookkeeper, id, etag } = await setup();
      const [a, b] = await Promise.all([
        patch(admin, id, { memo: `A ${round}` }, { 'If-Match': etag, 'X-Ledgerline-Device': DEVICE_A }),
        patch(bookkeeper, id, { memo: `B ${round}` }, { 'If-Match': etag, 'X-Ledgerline-Device': DEVICE_B }),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      const winner = a.status === 200 ? a : b;
      expect((await read(admin, id)).memo).toBe(winner.body.memo);
    }
  });
});
