import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCall } from '../../schema/api/define-call.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn } from '../test-fixtures.ts';
import { claimKey, requestHash } from './idempotency.ts';
import { register } from './register.ts';
import { ApiError } from './errors.ts';

describe.each(await testDatabases())('Idempotency-Key on %s', (kind) => {
  const t = useTestApp(kind, { logError: () => {} });

  async function setup() {
    const f = await makeBusiness(t.db, { transactions: 5 });
    const token = await signIn(t.app, f.email('admin'));
    const seq = async () => (await t.db.query<{ change_seq: number }>('SELECT change_seq FROM businesses WHERE id = $1', [f.businessId]))[0]!.change_seq;
    return { f, token, seq };
  }

  it('replays the stored status and body byte-for-byte, applying the write once', async () => {
    const { f, token, seq } = await setup();
    const path = `/v1/auth/transactions/${f.allTransactions[0]}`;
    const headers = { 'Idempotency-Key': 'edit-1' };
    const first = await request(t.app, 'PATCH', path, { token, body: { memo: 'Once' }, headers });
    const seqAfterFirst = await seq();
    const again = await request(t.app, 'PATCH', path, { token, body: { memo: 'Once' }, headers });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await seq()).toBe(seqAfterFirst);
  });

  it('refuses the same key with a different body (422 IDEMPOTENCY_7009)', async () => {
    const { f, token } = await setup();
    const path = `/v1/auth/transactions/${f.allTransactions[0]}`;
    const headers = { 'Idempotency-Key': 'edit-2' };
    await request(t.app, 'PATCH', path, { token, body: { memo: 'A' }, headers });
    const other = await request(t.app, 'PATCH', path, { token, body: { memo: 'B' }, headers });
    expect(other).toMatchObject({ status: 422, body: { error_v2: { error_code: 'IDEMPOTENCY_7009' } } });
    expect((await request(t.app, 'GET', path, { token })).body.memo).toBe('A');
  });

  it('scopes keys per identity: another user may use the same key', async () => {
    const { f, token } = await setup();
    const other = await signIn(t.app, f.email('bookkeeper'));
    const headers = { 'Idempotency-Key': 'shared-key' };
    const path = `/v1/auth/transactions/${f.allTransactions[1]}`;
    expect((await request(t.app, 'PATCH', path, { token, body: { memo: 'admin' }, headers })).status).toBe(200);
    expect((await request(t.app, 'PATCH', path, { token: other, body: { memo: 'bookkeeper' }, headers })).status).toBe(200);
    expect((await request(t.app, 'GET', path, { token })).body.memo).toBe('bookkeeper');
  });

  it('answers a duplicate of an in-flight request with 409, and takes over a stale claim', async () => {
    const { f, token } = await setup();
    const path = `/v1/auth/transactions/${f.allTransactions[2]}`;
    const body = JSON.stringify({ memo: 'In flight' });
    const [identity] = await t.db.query<{ identity_id: string }>('SELECT identity_id FROM spend_users WHERE id = $1', [f.users.admin]);
    const scope = `${identity!.identity_id}:${f.businessId}`;
    expect(await claimKey(t.db, scope, 'busy', requestHash('PATCH', path, body))).toEqual({ kind: 'claimed' });
    const dup = await request(t.app, 'PATCH', path, { token, rawBody: body, headers: { 'Idempotency-Key': 'busy', 'content-type': 'application/json' } });
    expect(dup).toMatchObject({ status: 409, body: { error_v2: { error_code: 'IDEMPOTENCY_7010' } } });
    // The first process died: after the lease its claim is taken over and the request runs.
    await t.db.query(`UPDATE idempotency_keys SET locked_at = now() - interval '5 minutes' WHERE key = 'busy'`);
    const retried = await request(t.app, 'PATCH', path, { token, rawBody: body, headers: { 'Idempotency-Key': 'busy', 'content-type': 'application/json' } });
    expect(retried.status).toBe(200);
    expect(retried.body.memo).toBe('In flight');
  });

  it('remembers a refusal, and forgets a crash so the retry runs afresh', async () => {
    const { f, token } = await setup();
    const path = `/v1/auth/transactions/${f.allTransactions[3]}`;
    const headers = { 'Idempotency-Key': 'refused' };
    const bad = { gl_account_id: crypto.randomUUID() };
    const first = await request(t.app, 'PATCH', path, { token, body: bad, headers });
    const again = await request(t.app, 'PATCH', path, { token, body: bad, headers });
    expect(first.status).toBe(422);
    expect(again.text).toBe(first.text);

    // A handler that writes, then crashes: the write rolls back and the key is released.
    const call = defineCall({ id: 'test.crash', method: 'POST', path: '/v1/auth/test-crash', auth: { scopes: ['default'] }, body: z.object({}), response: z.object({}) });
    const app = new Hono();
    let crash = true;
    register(app, t.app.deps, call, async (ctx) => {
      await ctx.db.query(`UPDATE transactions SET memo = 'half-done' WHERE id = $1`, [f.allTransactions[4]]);
      if (crash) throw new Error('boom');
      return { status: 201, body: {} };
    });
    app.onError((_err, c) => c.text('crashed', 500));
    const crashHeaders = { 'RAMP-ID-TOKEN': token, 'Idempotency-Key': 'crash', 'content-type': 'application/json' };
    expect((await app.request('/v1/auth/test-crash', { method: 'POST', body: '{}', headers: crashHeaders })).status).toBe(500);
    const [row] = await t.db.query<{ memo: string | null }>('SELECT memo FROM transactions WHERE id = $1', [f.allTransactions[4]]);
    expect(row!.memo).not.toBe('half-done');
    crash = false;
    expect((await app.request('/v1/auth/test-crash', { method: 'POST', body: '{}', headers: crashHeaders })).status).toBe(201);
  });

  it('does not store a transient refusal (429): the same key runs again once the limit lifts', async () => {
    const { token } = await setup();
    const call = defineCall({ id: 'test.throttled', method: 'POST', path: '/v1/auth/test-throttled', auth: { scopes: ['default'] }, body: z.object({}), response: z.object({}) });
    const app = new Hono();
    let throttled = true;
    register(app, t.app.deps, call, async () => {
      if (throttled) throw new ApiError('AUTH_7029');
      return { status: 201, body: { ok: true } };
    });
    app.onError((err, c) => (err instanceof ApiError ? c.json(err.body, err.status as 429) : c.text('crashed', 500)));
    const headers = { 'RAMP-ID-TOKEN': token, 'Idempotency-Key': 'throttled-1', 'content-type': 'application/json' };
    expect((await app.request('/v1/auth/test-throttled', { method: 'POST', body: '{}', headers })).status).toBe(429);
    throttled = false;
    const retried = await app.request('/v1/auth/test-throttled', { method: 'POST', body: '{}', headers });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
  });

  it('makes a replayed bulk update apply once', async () => {
    const { f, token, seq } = await setup();
    const body = { transaction_ids: f.allTransactions, patch: { memo: 'Bulk once' } };
    const headers = { 'Idempotency-Key': 'bulk-1' };
    const first = await request(t.app, 'PATCH', '/v1/auth/accounting/coding/bulk-update', { token, body, headers });
    const s = await seq();
    const again = await request(t.app, 'PATCH', '/v1/auth/accounting/coding/bulk-update', { token, body, headers });
    expect(again.text).toBe(first.text);
    expect(await seq()).toBe(s);
  });

  it('applies concurrent duplicates once: the rest are told it is in flight or get the replay', async () => {
    const { f, token, seq } = await setup();
    const before = await seq();
    const send = () => request(t.app, 'PATCH', `/v1/auth/transactions/${f.allTransactions[1]}`, { token, body: { memo: 'Racing' }, headers: { 'Idempotency-Key': 'race' } });
    const results = await Promise.all(Array.from({ length: 5 }, send));
    expect(results.every((r) => r.status === 200 || (r.status === 409 && r.body.error_v2.error_code === 'IDEMPOTENCY_7010'))).toBe(true);
    expect(results.some((r) => r.status === 200)).toBe(true);
    expect(await seq()).toBe(before + 1);
  });

  it('refuses a malformed key', async () => {
    const { f, token } = await setup();
    const res = await request(t.app, 'PATCH', `/v1/auth/transactions/${f.allTransactions[0]}`, { token, body: { memo: 'x' }, headers: { 'Idempotency-Key': 'x'.repeat(256) } });
    expect(res.status).toBe(422);
  });
});
