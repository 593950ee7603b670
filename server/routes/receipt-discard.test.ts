import { randomBytes, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { receiptSchema } from '../../schema/api/calls-receipts.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn, type Fixture, type FixtureRole } from '../test-fixtures.ts';

/**
 * Issue 25: a cancelled claim form gives up the receipts it uploaded (`receipts.discard`): gone
 * when nothing uses them, kept when a transaction, a claim or a bill holds the same receipt.
 */
const BASE = '/v1/auth/receipts';
const jpeg = () => Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, ...randomBytes(200)]);

describe.each(await testDatabases())('receipt discard on %s', (kind) => {
  const t = useTestApp(kind);
  let a: Fixture;
  let b: Fixture;
  const tokens = {} as Record<FixtureRole | 'other', string>;

  const upload = async (role: FixtureRole | 'other' = 'employee', bytes = jpeg()) => {
    const res = await t.app.request(BASE, { method: 'POST', headers: { 'RAMP-ID-TOKEN': tokens[role], 'content-type': 'image/jpeg' }, body: bytes });
    expect(res.status).toBe(201);
    return receiptSchema.parse(await res.json()).id;
  };
  const discard = (id: string, role: FixtureRole | 'other' = 'employee', headers: Record<string, string> = {}) =>
    request(t.app, 'POST', `${BASE}/${id}/discard`, { token: tokens[role], body: {}, headers });
  const status = async (id: string, role: FixtureRole = 'employee') => (await request(t.app, 'GET', `${BASE}/${id}/metadata`, { token: tokens[role] })).status;

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 5 });
    b = await makeBusiness(t.db, { transactions: 0 });
    for (const role of ['employee', 'manager', 'admin', 'outsider'] as const) tokens[role] = await signIn(t.app, a.email(role));
    tokens.other = await signIn(t.app, b.email('owner'));
  });

  it('deletes an unused receipt of its uploader: 404 afterwards, its bytes dropped; a replay answers the same', async () => {
    const id = await upload();
    expect(await status(id)).toBe(200);
    const key = { 'Idempotency-Key': `discard-${randomUUID()}` };
    const res = await discard(id, 'employee', key);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ id, discarded: true });
    expect(await status(id)).toBe(404);
    expect(await status(id, 'admin')).toBe(404);
    expect((await t.db.query<{ bytes: unknown; deleted: boolean }>('SELECT bytes, deleted FROM receipts WHERE id = $1', [id]))[0]).toEqual({ bytes: null, deleted: true });
    // The outbox sends again under the same key: the same answer, not a failure.
    const replay = await discard(id, 'employee', key);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ id, discarded: true });
  });

  it('keeps a receipt a saved claim or a transaction uses (the same bytes uploaded again answer that receipt)', async () => {
    const bytes = jpeg();
    const onClaim = await upload('employee', bytes);
    const claim = await request(t.app, 'POST', '/v1/auth/reimbursements/out_of_pocket', {
      token: tokens.employee, body: { merchant: 'Blue Bottle', amount: 1250, currency: 'USD', transaction_date: '2026-03-01', receipt_ids: [onClaim] },
    });
    expect(claim.status, claim.text).toBe(200);
    // A new form adds the same photo: the server answers the claim's receipt; cancelling keeps it.
    expect(await upload('employee', bytes)).toBe(onClaim);
    expect((await discard(onClaim)).body).toEqual({ id: onClaim, discarded: false });
    expect(await status(onClaim)).toBe(200);
    expect((await request(t.app, 'GET', `/v1/auth/reimbursements/${claim.body.id}`, { token: tokens.employee })).body.receipt_ids).toEqual([onClaim]);

    const onTxn = await upload();
    const txn = a.transactions.employee[0]!;
    expect((await request(t.app, 'POST', `/v1/auth/transactions/${txn}/receipts`, { token: tokens.employee, body: { receipt_id: onTxn } })).status).toBe(200);
    expect((await discard(onTxn)).body).toEqual({ id: onTxn, discarded: false });
    expect(await status(onTxn)).toBe(200);
  });

  it('never discards someone else\'s receipt; another business\'s or an unknown one is 404; unknown body keys 422', async () => {
    const id = await upload();
    expect((await discard(id, 'admin')).body).toEqual({ id, discarded: false });
    expect(await status(id)).toBe(200);
    expect((await discard(id, 'outsider')).status).toBe(404);
    expect((await discard(id, 'other')).status).toBe(404);
    expect((await discard(randomUUID())).status).toBe(404);
    const extra = await request(t.app, 'POST', `${BASE}/${id}/discard`, { token: tokens.employee, body: { force: true } });
    expect(extra.status).toBe(422);
    expect(await status(id)).toBe(200);
  });
});
