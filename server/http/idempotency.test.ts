import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCall } from '../../schema/api/define-call.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn } from '../test-fixtures.ts';
import { register } from './register.ts';
import { ApiError } from '../core/errors.ts';

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

  // PGlite has one connection, so no second holder can exist there: the race is PostgreSQL's.
  it.runIf(kind === 'pg')('answers 409 while a live holder works on the key, and runs at once when the holder dies', async () => {
    const { f, token } = await setup();
    const path = `/v1/auth/transactions/${f.allTransactions[2]}`;
    const [identity] = await t.db.query<{ identity_id: string }>('SELECT identity_id FROM spend_users WHERE id = $1', [f.users.admin]);
    const lockName = `idempotency\n${identity!.identity_id}:${f.businessId}\nbusy`;
    const send = () => request(t.app, 'PATCH', path, { token, body: { memo: 'In flight' }, headers: { 'Idempotency-Key': 'busy' } });
    // Another process took the key and is mid-request on its own connection.
    let holderPid = 0;
    let holderReady!: () => void;
    const ready = new Promise<void>((resolve) => (holderReady = resolve));
    const holder = t.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [lockName]);
      holderPid = (await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid'))[0]!.pid;
      holderReady();
      await tx.query('SELECT pg_sleep(30)');
    });
    const holderDone = holder.then(() => 'committed', () => 'died');
    await ready;
    const dup = await send();
    expect(dup).toMatchObject({ status: 409, body: { error_v2: { error_code: 'IDEMPOTENCY_7010' } } });
    expect(dup.headers.get('retry-after')).toBe('1');
    // The holder's process dies: PostgreSQL drops its connection and, with it, the lock.
    await t.db.query('SELECT pg_terminate_backend($1)', [holderPid]);
    expect(await holderDone).toBe('died');
    const started = Date.now();
    const retried = await send();
    expect(retried.status).toBe(200);
    expect(retried.body.memo).toBe('In flight');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a crash mid-request leaves no claim behind: the retry with the same key runs at once', async () => {
    const { f, token } = await setup();
    const call = defineCall({ id: 'test.crash-once', method: 'POST', path: '/v1/auth/test-crash-once', auth: { scopes: ['default'] }, body: z.object({}), response: z.object({}) });
    const app = new Hono();
    let runs = 0;
    register(app, t.app.deps, call, async (ctx) => {
      runs += 1;
      await ctx.db.query(`UPDATE transactions SET memo = 'crash-once' WHERE id = $1`, [f.allTransactions[2]]);
      if (runs === 1) throw new Error('process died mid-request');
      return { status: 201, body: {} };
    });
    app.onError((_err, c) => c.text('crashed', 500));
    const headers = { 'RAMP-ID-TOKEN': token, 'Idempotency-Key': 'crash-once', 'content-type': 'application/json' };
    expect((await app.request('/v1/auth/test-crash-once', { method: 'POST', body: '{}', headers })).status).toBe(500);
    expect(await t.db.query(`SELECT 1 FROM idempotency_keys WHERE key = 'crash-once'`)).toHaveLength(0);
    expect((await app.request('/v1/auth/test-crash-once', { method: 'POST', body: '{}', headers })).status).toBe(201);
    const replay = await app.request('/v1/auth/test-crash-once', { method: 'POST', body: '{}', headers });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(runs).toBe(2);
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

  it('keeps the writes of an answered 429 but not the answer: the same key runs again', async () => {
    const { f, token } = await setup();
    const call = defineCall({ id: 'test.answered-429', method: 'POST', path: '/v1/auth/test-answered-429', auth: { scopes: ['default'] }, body: z.object({}), response: z.object({}) });
    const app = new Hono();
    let throttled = true;
    register(app, t.app.deps, call, async (ctx) => {
      if (!throttled) return { status: 201, body: { ok: true } };
      // What a blocked code check does: record something that must commit, then answer 429.
      await ctx.db.query(`UPDATE transactions SET memo = 'recorded-by-429' WHERE id = $1`, [f.allTransactions[1]]);
      return { status: 429, body: { error_v2: { error_code: 'AUTH_7029' } } };
    });
    const headers = { 'RAMP-ID-TOKEN': token, 'Idempotency-Key': 'answered-429', 'content-type': 'application/json' };
    expect((await app.request('/v1/auth/test-answered-429', { method: 'POST', body: '{}', headers })).status).toBe(429);
    const [row] = await t.db.query<{ memo: string | null }>('SELECT memo FROM transactions WHERE id = $1', [f.allTransactions[1]]);
    expect(row!.memo).toBe('recorded-by-429');
    expect(await t.db.query(`SELECT 1 FROM idempotency_keys WHERE key = 'answered-429'`)).toHaveLength(0);
    throttled = false;
    const retried = await app.request('/v1/auth/test-answered-429', { method: 'POST', body: '{}', headers });
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
