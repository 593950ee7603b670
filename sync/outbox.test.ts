import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createOutbox, createOutboxEntry, commandDef, type AnyCommand } from './outbox.ts';
import { createHttpClient } from './http.ts';
import type { OutboxEntry } from './ports.ts';
import {
  createFakeClock, createMemoryOutboxStore, createRecordingOptimistic, fakeToken, flush, hangingStep,
  jsonResponse, scriptedTransport, type ScriptStep,
} from './testing.ts';
import { defineCall } from '../schema/api/define-call.ts';

const T1 = '11111111-1111-4111-8111-111111111111';
const T2 = '22222222-2222-4222-8222-222222222222';
const TXN = {
  id: T1, card_id: T1, user_id: T1, merchant_name: 'Acme', merchant_category: 'Software', amount: 1,
  currency: 'USD', occurred_at: '2026-01-01T00:00:00Z', state: 'CLEARED', memo: 'm', gl_account_id: null,
  department_id: null, location_id: null, tracking: {}, receipt_ids: [], business_id: T1, change_seq: 9,
  updated_at: '2026-01-01T00:00:00Z', deleted: false,
};
const ok = () => jsonResponse(200, TXN);
const refusal = { error_v2: { message: 'Memo is too long for this business.', error_code: 'REQUEST_7001' } };

/** A command behind a `sensitive` call, to exercise the step-up gate. */
const sensitiveCommand: AnyCommand = {
  ...commandDef('transaction.code'),
  call: defineCall({ id: 'x', method: 'POST', path: '/v1/auth/x', auth: { scopes: ['sensitive'] }, response: z.unknown() }),
};

function setup(steps: ScriptStep[], opts: { token?: string; initial?: OutboxEntry[] } = {}) {
  const clock = createFakeClock();
  const transport = scriptedTransport(steps);
  const store = createMemoryOutboxStore(opts.initial);
  const optimistic = createRecordingOptimistic();
  let unauthorized = 0;
  let token = opts.token ?? fakeToken(['default', 'low-risk']);
  const session = { getToken: () => token, onUnauthorized: () => void unauthorized++ };
  const http = createHttpClient({ baseUrl: 'http://api.test', transport, clock, session });
  let keys = 0;
  const changes: number[] = [];
  const outbox = createOutbox({
    store, http, optimistic, clock, session,
    newKey: () => `fresh-${++keys}`,
    commands: (name) => (name === 'sensitive' ? sensitiveCommand : commandDef(name)),
    onChange: (_e, c) => changes.push(c.pending),
  });
  const code = (id: string, txn: string, order: number): OutboxEntry => ({
    ...createOutboxEntry({ id, command: 'transaction.code', args: { transaction_id: txn, patch: { memo: `memo ${id}` } }, now: clock.now() }),
    created_at: clock.now() - 100 + order,
  });
  const sent = () => transport.requests.map((r) => `${r.headers['idempotency-key']}→${r.url.split('/').pop()}`);
  return {
    clock, transport, store, optimistic, outbox, code, sent, changes,
    unauthorized: () => unauthorized,
    setToken: (t: string) => (token = t),
  };
}

describe('outbox runner', () => {
  it('sends a command with its id as Idempotency-Key, confirms and forgets it', async () => {
    const t = setup([ok()]);
    await t.outbox.enqueue(t.code('c1', T1, 0));
    await t.outbox.whenIdle();
    expect(t.transport.requests[0]).toMatchObject({ method: 'PATCH', body: { memo: 'memo c1' } });
    expect(t.sent()).toEqual([`c1→${T1}`]);
    expect(t.optimistic.calls).toEqual([{ op: 'confirm', id: 'c1', response: TXN }]);
    expect(t.store.rows.size).toBe(0);
    expect(t.outbox.counts()).toEqual({ pending: 0, pendingItems: 0, failed: 0, needsStepUp: 0 });
    expect(t.changes.at(-1)).toBe(0);
  });

  it('re-sends after an unknown outcome with the SAME key once the backoff is over', async () => {
    const t = setup([new TypeError('connection reset'), jsonResponse(503, {}), ok()]);
    expect(t.outbox.loopState()).toEqual({ kind: 'idle' });
    await t.outbox.enqueue(t.code('c1', T1, 0));
    expect(t.outbox.loopState()).toEqual({ kind: 'running' });
    await t.outbox.whenIdle();
    expect(t.store.rows.get('c1')).toMatchObject({ state: 'pending', maybe_sent: true, attempts: 1 });
    expect(t.clock.pending()).toEqual([300]);
    expect(t.outbox.loopState()).toEqual({ kind: 'waiting-retry', until: t.clock.now() + 300 });
    await t.clock.advance(300);
    await t.outbox.whenIdle();
    expect(t.clock.pending()).toEqual([600]);
    await t.clock.advance(600);
    await t.outbox.whenIdle();
    expect(t.outbox.loopState()).toEqual({ kind: 'idle' });
    expect(t.sent()).toEqual([`c1→${T1}`, `c1→${T1}`, `c1→${T1}`]);
    expect(t.store.rows.size).toBe(0);
    expect(t.optimistic.calls.map((c) => c.op)).toEqual(['confirm']);
  });

  it('rolls a 4xx back, keeps the server error and the input, and a retry re-applies under a fresh key', async () => {
    const t = setup([jsonResponse(422, refusal), ok()]);
    await t.outbox.enqueue(t.code('c1', T1, 0));
    await t.outbox.whenIdle();
    const failed = t.store.rows.get('c1')!;
    expect(failed).toMatchObject({ state: 'failed', last_error: refusal.error_v2, args: { patch: { memo: 'memo c1' } } });
    expect(t.optimistic.calls).toEqual([{ op: 'rollback', id: 'c1' }]);
    expect(t.outbox.counts().failed).toBe(1);

    expect(await t.outbox.retry('c1')).toBe(true);
    await t.outbox.whenIdle();
    expect(t.sent()).toEqual([`c1→${T1}`, `fresh-1→${T1}`]);
    expect(t.optimistic.calls.map((c) => c.op)).toEqual(['rollback', 'reapply', 'confirm']);
  });

  it('parks a command whose call needs a step-up scope without sending anything', async () => {
    const t = setup([jsonResponse(200, {})]);
    const entry = { ...t.code('c1', T1, 0), command: 'sensitive' as never };
    await t.outbox.enqueue(entry);
    await t.outbox.whenIdle();
    expect(t.transport.requests).toHaveLength(0);
    expect(t.store.rows.get('c1')).toMatchObject({ state: 'needs_step_up', step_up_scope: 'sensitive' });
    expect(t.optimistic.calls).toEqual([]); // the optimistic edit stays while the user steps up
    expect(await t.outbox.retry('c1')).toBe(true); // still no scope: parks again
    await t.outbox.whenIdle();
    expect(t.transport.requests).toHaveLength(0);

    t.setToken(fakeToken(['default', 'sensitive']));
    expect(await t.outbox.retry('c1')).toBe(true);
    await t.outbox.whenIdle();
    expect(t.sent()).toEqual(['c1→x']);
  });

  it('parks on a server AUTH_7016 too', async () => {
    const t = setup([jsonResponse(403, { error_v2: { message: 'Step up', error_code: 'AUTH_7016' } })]);
    await t.outbox.enqueue(t.code('c1', T1, 0));
    await t.outbox.whenIdle();
    expect(t.store.rows.get('c1')).toMatchObject({ state: 'needs_step_up', last_error: { error_code: 'AUTH_7016' } });
  });

  it('keeps FIFO per entity and sends other entities while one waits out a backoff', async () => {
    const t = setup([jsonResponse(503, {}), ok(), ok(), ok()]);
    await t.outbox.enqueue(t.code('a1', T1, 0));
    await t.outbox.enqueue(t.code('a2', T1, 1));
    await t.outbox.enqueue(t.code('b1', T2, 2));
    await t.outbox.whenIdle();
    expect(t.sent()).toEqual([`a1→${T1}`, `b1→${T2}`]);
    await t.clock.advance(300);
    await t.outbox.whenIdle();
    expect(t.sent()).toEqual([`a1→${T1}`, `b1→${T2}`, `a1→${T1}`, `a2→${T1}`]);
  });

  it('holds younger entries behind a failed one until it is discarded', async () => {
    const t = setup([jsonResponse(422, refusal), ok()]);
    await t.outbox.enqueue(t.code('a1', T1, 0));
    await t.outbox.enqueue(t.code('a2', T1, 1));
    await t.outbox.whenIdle();
    expect(t.sent()).toEqual([`a1→${T1}`]);
    expect(t.store.rows.get('a2')?.state).toBe('pending');
    expect(await t.outbox.discard('a1')).toBe(true);
    await t.outbox.whenIdle();
    expect(t.sent()).toEqual([`a1→${T1}`, `a2→${T1}`]);
    // rolled back once, when refused; discarding did not roll it back again
    expect(t.optimistic.calls.filter((c) => c.op === 'rollback')).toEqual([{ op: 'rollback', id: 'a1' }]);
  });

  it('discarding a pending entry rolls it back and removes it', async () => {
    const t = setup([]);
    t.outbox.pause();
    await t.outbox.enqueue(t.code('a1', T1, 0));
    expect(await t.outbox.discard('a1')).toBe(true);
    expect(await t.outbox.discard('a1')).toBe(false);
    expect(t.optimistic.calls).toEqual([{ op: 'rollback', id: 'a1' }]);
    expect(t.store.rows.size).toBe(0);
  });

  it('on a 401 tells the session, pauses and keeps the entry pending', async () => {
    const t = setup([jsonResponse(401, { error_v2: { message: 'expired', error_code: 'AUTH_7003' } }), ok(), ok()]);
    await t.outbox.enqueue(t.code('a1', T1, 0));
    await t.outbox.enqueue(t.code('b1', T2, 1));
    await t.outbox.whenIdle();
    expect(t.unauthorized()).toBe(1);
    expect(t.outbox.paused()).toBe(true);
    expect(t.outbox.loopState()).toEqual({ kind: 'paused', reason: 'unauthorized' });
    expect(t.transport.requests).toHaveLength(1);
    expect(t.store.rows.get('a1')).toMatchObject({ state: 'pending', last_error: null });
    t.outbox.resume();
    await t.outbox.whenIdle();
    expect(t.sent()).toEqual([`a1→${T1}`, `a1→${T1}`, `b1→${T2}`]);
    expect(t.store.rows.size).toBe(0);
  });

  it('pausing aborts the request in flight; resuming re-sends it with the same key', async () => {
    const t = setup([hangingStep(), ok()]);
    await t.outbox.enqueue(t.code('a1', T1, 0));
    await flush();
    expect(t.store.rows.get('a1')?.state).toBe('sending');
    t.outbox.pause('offline');
    await t.outbox.whenIdle();
    expect(t.store.rows.get('a1')).toMatchObject({ state: 'pending', maybe_sent: true });
    t.outbox.kick(); // ignored while paused
    await flush();
    expect(t.transport.requests).toHaveLength(1);
    expect(t.outbox.loopState()).toEqual({ kind: 'paused', reason: 'offline' });
    t.outbox.resume();
    await t.outbox.whenIdle();
    expect(t.outbox.loopState()).toEqual({ kind: 'idle' });
    expect(t.sent()).toEqual([`a1→${T1}`, `a1→${T1}`]);
  });

  it('recovers an entry left "sending" by a previous session and re-sends it with its key', async () => {
    const clock = createFakeClock();
    const stale: OutboxEntry = {
      ...createOutboxEntry({ id: 'old', command: 'transaction.code', args: { transaction_id: T1, patch: { memo: 'x' } }, now: clock.now() }),
      state: 'sending', attempts: 1,
    };
    const t = setup([ok()], { initial: [stale] });
    t.outbox.kick();
    await t.outbox.whenIdle();
    expect(t.store.puts[0]).toMatchObject({ id: 'old', state: 'pending', maybe_sent: true });
    expect(t.sent()).toEqual([`old→${T1}`]);
  });

  it('rejects stored args that no longer validate without sending them', async () => {
    const t = setup([]);
    const bad = { ...t.code('a1', T1, 0), args: { transaction_id: 'not-a-uuid', patch: {} } };
    await t.outbox.enqueue(bad);
    await t.outbox.whenIdle();
    expect(t.transport.requests).toHaveLength(0);
    expect(t.store.rows.get('a1')).toMatchObject({ state: 'failed', last_error: { error_code: 'REQUEST_7001' } });
  });
});
