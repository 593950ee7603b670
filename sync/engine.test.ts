import { describe, expect, it } from 'vitest';
import { createSyncEngine } from './engine.ts';
import { createOutboxEntry } from './outbox.ts';
import type { SessionPort, SyncStatus } from './ports.ts';
import {
  createFakeClock, createMemoryMirror, createMemoryOutboxStore, createRecordingOptimistic, fakeToken, flush,
  jsonResponse, scriptedTransport, type RecordedRequest,
} from './testing.ts';

const T1 = '11111111-1111-4111-8111-111111111111';
const TXN = {
  id: T1, card_id: T1, user_id: T1, merchant_name: 'Acme', merchant_category: 'Software', amount: 1,
  currency: 'USD', occurred_at: '2026-01-01T00:00:00Z', state: 'CLEARED', memo: 'm', gl_account_id: null,
  department_id: null, location_id: null, tracking: {}, business_id: T1, change_seq: 9,
  updated_at: '2026-01-01T00:00:00Z', deleted: false,
};

/** Routes by path so the stream, pulls and commands can interleave freely. */
function setup(
  opts: { patch?: () => Response; changes?: () => Response | null; token?: () => string; tokenFor?: SessionPort['tokenFor'] } = {},
) {
  let seq = 2;
  let streams: ReadableStreamDefaultController<Uint8Array>[] = [];
  const route = async (req: RecordedRequest, signal: AbortSignal | undefined): Promise<Response> => {
    const url = new URL(req.url);
    if (url.pathname.endsWith('/sync/stream')) {
      const body = new ReadableStream<Uint8Array>({ start: (c) => void streams.push(c) });
      signal?.addEventListener('abort', () => {
        streams = [];
      });
      return new Response(body, { status: 200 });
    }
    if (url.pathname.endsWith('/sync/changes')) {
      const scripted = opts.changes?.();
      if (scripted) return scripted;
      const after = Number(url.searchParams.get('after'));
      const changes = Array.from({ length: seq - after }, (_, i) => ({ collection: 'transactions', seq: after + i + 1, id: `t${after + i + 1}`, deleted: false, doc: { id: 'x' } }));
      return jsonResponse(200, { changes, checkpoint: seq, has_more: false, high_water: seq, visibility_epoch: 'e', ...(after === 0 ? { total: seq } : {}) });
    }
    return opts.patch ? opts.patch() : jsonResponse(200, TXN);
  };
  const transport = scriptedTransport(Array.from({ length: 50 }, () => route));
  const clock = createFakeClock();
  const mirror = createMemoryMirror();
  const outboxStore = createMemoryOutboxStore();
  const optimistic = createRecordingOptimistic();
  const statuses: SyncStatus[] = [];
  let signedOut = 0;
  const engine = createSyncEngine({
    baseUrl: 'http://api.test', transport, clock, mirror, outboxStore, optimistic,
    session: {
      getToken: opts.token ?? (() => fakeToken(['default', 'low-risk'])),
      ...(opts.tokenFor ? { tokenFor: opts.tokenFor } : {}),
      onUnauthorized: () => void signedOut++,
    },
    onStatus: (s) => statuses.push(s),
  });
  const entry = (id: string) => createOutboxEntry({ id, command: 'transaction.code', args: { transaction_id: T1, patch: { memo: id } }, now: clock.now() });
  return {
    engine, transport, clock, mirror, outboxStore, optimistic, statuses, entry,
    signedOut: () => signedOut,
    write: (n = 1) => {
      seq += n;
      const enc = new TextEncoder().encode(`event: seq\ndata: {"seq":${seq}}\n\n`);
      streams.forEach((c) => c.enqueue(enc));
    },
    openStreams: () => streams.length,
    patches: () => transport.requests.filter((r) => r.method === 'PATCH').length,
  };
}

describe('sync engine', () => {
  it('mirrors first (initial, with progress), then goes live and follows the stream', async () => {
    const t = setup();
    expect(t.engine.status().phase).toBe('idle');
    t.engine.start();
    await flush();
    const phases = t.statuses.map((s) => s.phase);
    expect(phases).toContain('initial');
    expect(t.statuses.some((s) => s.progress?.loaded === 2 && s.progress.total === 2)).toBe(true);
    // The first mirror is complete only once the pull has reached the end of the feed.
    expect(t.statuses.filter((s) => s.phase === 'initial').every((s) => !s.mirrored)).toBe(true);
    expect(t.engine.status()).toMatchObject({ phase: 'live', checkpoint: 2, progress: null, mirrored: true, online: true, leader: true, pending: 0 });
    t.write(3);
    await flush();
    expect(t.engine.status().checkpoint).toBe(5);
    expect(t.mirror.count('transactions')).toBe(5);
  });

  it('sends nothing before start, then delivers the outbox', async () => {
    const t = setup();
    await t.engine.enqueue(t.entry('c1'));
    await flush();
    expect(t.patches()).toBe(0);
    expect(t.engine.status().pending).toBe(1);
    t.engine.start();
    await t.engine.whenOutboxIdle();
    expect(t.patches()).toBe(1);
    expect(t.engine.status().pending).toBe(0);
  });

  it("sends each command with the session's tokenFor answer when it has one (a stepped-up token)", async () => {
    const stepped = fakeToken(['default', 'sensitive']);
    const t = setup({ tokenFor: () => stepped });
    await t.engine.enqueue(t.entry('c1'));
    t.engine.start();
    await t.engine.whenOutboxIdle();
    const patch = t.transport.requests.find((r) => r.method === 'PATCH');
    expect(patch?.headers['ramp-id-token']).toBe(stepped);
  });

  it('offline: closes the stream, holds the outbox; online: pulls and sends', async () => {
    const t = setup();
    t.engine.start();
    await flush();
    t.engine.setOnline(false);
    await flush();
    expect(t.engine.status()).toMatchObject({ phase: 'offline', online: false });
    expect(t.openStreams()).toBe(0);
    await t.engine.enqueue(t.entry('c1'));
    await flush();
    expect(t.patches()).toBe(0);
    t.write(1); // happened on the server while we were away
    t.engine.setOnline(true);
    await flush();
    await t.engine.whenOutboxIdle();
    expect(t.patches()).toBe(1);
    expect(t.engine.status()).toMatchObject({ phase: 'live', online: true, checkpoint: 3, pending: 0 });
  });

  it('a 401 on a command signs out everything once; start() after sign-in resumes', async () => {
    let refuse = true;
    const t = setup({ patch: () => (refuse ? jsonResponse(401, { error_v2: { message: 'expired', error_code: 'AUTH_7003' } }) : jsonResponse(200, TXN)) });
    t.engine.start();
    await flush();
    await t.engine.enqueue(t.entry('c1'));
    await t.engine.whenOutboxIdle();
    await flush();
    expect(t.engine.status()).toMatchObject({ phase: 'signed_out', pending: 1 });
    expect(t.signedOut()).toBe(1);
    expect(t.openStreams()).toBe(0);
    refuse = false;
    t.engine.start();
    await flush();
    await t.engine.whenOutboxIdle();
    expect(t.engine.status()).toMatchObject({ phase: 'live', pending: 0 });
  });

  it('a 401 on a pull started by kick() signs out too', async () => {
    let expired = false;
    const t = setup({ changes: () => (expired ? jsonResponse(401, { error_v2: { message: 'expired', error_code: 'AUTH_7003' } }) : null) });
    t.engine.start();
    await flush();
    expired = true;
    t.engine.kick();
    await flush();
    expect(t.engine.status().phase).toBe('signed_out');
    expect(t.signedOut()).toBe(1);
  });

  it('a token without the feed scope is an error; start() with a better token recovers', async () => {
    let token = fakeToken(['chrome-extension']);
    const t = setup({ token: () => token });
    t.engine.start();
    await flush();
    expect(t.engine.status()).toMatchObject({ phase: 'error', lastError: 'Additional verification is needed for this action.' });
    expect(t.transport.requests).toHaveLength(0); // the scope gate refused locally
    token = fakeToken(['default']);
    t.engine.start();
    await flush();
    expect(t.engine.status()).toMatchObject({ phase: 'live', lastError: null, checkpoint: 2 });
  });

  it('stop() returns to idle with the stream closed', async () => {
    const t = setup();
    t.engine.start();
    await flush();
    await t.engine.stop();
    expect(t.engine.status().phase).toBe('idle');
    expect(t.openStreams()).toBe(0);
  });
});
