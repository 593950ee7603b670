import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PG_ADMIN_URL, pgAvailable, startTestServer, type TestServer, type TestServerOptions } from '../../server/testing.ts';
import { signIn } from '../../schema/api/calls.ts';
import { createHttpClient, type HttpClient } from '../../sync/http.ts';
import { createOutbox, createOutboxEntry } from '../../sync/outbox.ts';
import { createPuller } from '../../sync/puller.ts';
import { createSyncEngine } from '../../sync/engine.ts';
import { systemClock, type SessionPort, type Transport } from '../../sync/ports.ts';
import { createMemoryMirror, createMemoryOutboxStore, createRecordingOptimistic } from '../../sync/testing.ts';

/**
 * The sync engine against the REAL server (demo seed; PGlite, and PostgreSQL when reachable, where
 * SSE announcements travel through LISTEN/NOTIFY): only our own ports are faked (in-memory mirror
 * and outbox stores). Small seed, so each run takes seconds.
 */
const targets: [string, TestServerOptions][] = [['pglite', {}]];
if (await pgAvailable()) targets.push(['postgres', { databaseUrl: DEFAULT_PG_ADMIN_URL }]);

const TRANSACTIONS = 300;
const PASSWORD = 'demo-password-1';

let server: TestServer;
const transport: Transport = (input, init) => fetch(input, init);

function sessionWith(token: string | null): SessionPort & { token: string | null } {
  const s = { token, getToken: () => s.token, onUnauthorized: () => void (s.token = null) };
  return s;
}

function client(session: SessionPort, t: Transport = transport): HttpClient {
  return createHttpClient({ baseUrl: server.url, transport: t, clock: systemClock, session });
}

async function signInAs(email: string): Promise<string> {
  const res = await client(sessionWith(null)).call(signIn, { body: { email, password: PASSWORD } });
  if (!res.ok) throw new Error(`sign-in failed: ${JSON.stringify(res)}`);
  return res.data.id_token;
}

async function serverRow(id: string) {
  const rows = await server.db.query<{ memo: string | null; change_seq: number }>(
    'SELECT memo, change_seq FROM transactions WHERE id = $1', [id],
  );
  return rows[0]!;
}

async function highWater(): Promise<number> {
  const rows = await server.db.query<{ max: number | string }>(
    // The business counter: the seed's last seqs are its reimbursements', not transactions'.
    'SELECT change_seq AS max FROM businesses WHERE id = $1', [server.businessId],
  );
  return Number(rows[0]!.max);
}

async function keyRows(key: string): Promise<number> {
  const rows = await server.db.query('SELECT 1 FROM idempotency_keys WHERE key = $1', [key]);
  return rows.length;
}

async function someTransactionIds(n: number, offset = 0): Promise<string[]> {
  const rows = await server.db.query<{ id: string }>(
    'SELECT id FROM transactions WHERE business_id = $1 ORDER BY id LIMIT $2 OFFSET $3', [server.businessId, n, offset],
  );
  return rows.map((r) => r.id);
}

/**
 * A transport that loses requests and responses (deterministically from a seed): 20% fail before
 * reaching the server, 20% reach it and lose the answer, never more than two in a row (so backoffs
 * stay short). The SSE stream is left alone so that the test measures delivery, not reconnects.
 */
function faulty(seed: number): Transport & { stats: { refused: number; lost: number } } {
  const stats = { refused: 0, lost: 0 };
  let state = seed >>> 0;
  const random = () => {
    // mulberry32
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  let streak = 0;
  const transport: Transport = async (input, init) => {
    if (String(input).includes('/sync/stream')) return fetch(input, init);
    const roll = streak >= 2 ? 1 : random();
    streak = roll < 0.4 ? streak + 1 : 0;
    if (roll < 0.2) {
      stats.refused++;
      throw new TypeError('connection refused');
    }
    const res = await fetch(input, init);
    if (roll < 0.4) {
      stats.lost++;
      await res.arrayBuffer();
      throw new TypeError('connection reset');
    }
    return res;
  };
  return Object.assign(transport, { stats });
}

/** Polls with real time (integration only) until the check passes. */
async function eventually(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.each(targets)('sync engine against the real server on %s', (_kind, serverOpts) => {
  beforeAll(async () => {
    server = await startTestServer({ ...serverOpts, transactions: TRANSACTIONS });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('signs in through the HTTP client and pulls the whole feed into the mirror', async () => {
    const session = sessionWith(await signInAs('admin@demo.test'));
    const mirror = createMemoryMirror();
    const progress: { loaded: number; total: number }[] = [];
    const puller = createPuller({
      http: client(session), clock: systemClock, store: mirror, batchSize: 1_000,
      onEvent: (e) => void (e.type === 'progress' && progress.push({ loaded: e.loaded, total: e.total })),
    });
    const res = await puller.pull();
    expect(res.ok).toBe(true);
    const [{ count }] = (await server.db.query<{ count: number | string }>(
      'SELECT count(*) AS count FROM transactions WHERE business_id = $1 AND NOT deleted', [server.businessId],
    )) as [{ count: number | string }];
    expect(mirror.count('transactions')).toBe(Number(count));
    expect(mirror.count('transactions')).toBe(TRANSACTIONS);
    expect(mirror.count('departments')).toBeGreaterThan(0);
    expect(mirror.count('users')).toBeGreaterThan(0);
    expect(progress.at(-1)!.loaded).toBe(progress.at(-1)!.total);
    expect((await mirror.getCheckpoint()).seq).toBe(puller.checkpoint());
  });

  it('delivers a coding command exactly once', async () => {
    const session = sessionWith(await signInAs('admin@demo.test'));
    const store = createMemoryOutboxStore();
    const optimistic = createRecordingOptimistic();
    const outbox = createOutbox({ store, http: client(session), optimistic, clock: systemClock, session });
    const ids = await someTransactionIds(3);
    const before = await highWater();
    const entry = createOutboxEntry({
      id: crypto.randomUUID(), command: 'transaction.bulkCode',
      args: { transaction_ids: ids, patch: { memo: 'Team offsite' } }, now: Date.now(),
    });
    await outbox.enqueue(entry);
    await outbox.whenIdle();
    expect(store.rows.size).toBe(0);
    expect(optimistic.calls).toEqual([{ op: 'confirm', id: entry.id, response: expect.objectContaining({ updated: 3 }) }]);
    for (const id of ids) expect((await serverRow(id)).memo).toBe('Team offsite');
    expect((await highWater()) - before).toBe(3); // one new seq per row: applied once
    expect(await keyRows(entry.id)).toBe(1);
  });

  it('re-sends with the same key after a lost response, and the server applies it once', async () => {
    const session = sessionWith(await signInAs('admin@demo.test'));
    const sentKeys: string[] = [];
    let dropped = false;
    // The server processes the first PATCH, then the connection "drops" before we read the answer.
    const lossy: Transport = async (input, init) => {
      const res = await fetch(input, init);
      if (init?.method === 'PATCH') sentKeys.push(new Headers(init.headers).get('Idempotency-Key') ?? '');
      if (init?.method === 'PATCH' && !dropped) {
        dropped = true;
        await res.arrayBuffer();
        throw new TypeError('network connection lost');
      }
      return res;
    };
    const store = createMemoryOutboxStore();
    const optimistic = createRecordingOptimistic();
    const outbox = createOutbox({ store, http: client(session, lossy), optimistic, clock: systemClock, session });
    const [id] = await someTransactionIds(1, 10);
    const before = await highWater();
    const entry = createOutboxEntry({
      id: crypto.randomUUID(), command: 'transaction.code',
      args: { transaction_id: id!, patch: { memo: 'Client dinner' } }, now: Date.now(),
    });
    await outbox.enqueue(entry);
    await outbox.whenIdle();
    expect(store.rows.get(entry.id)).toMatchObject({ state: 'pending', maybe_sent: true });
    expect((await serverRow(id!)).memo).toBe('Client dinner'); // it did arrive
    await eventually(async () => store.rows.size === 0, 5_000); // 0.3 s backoff, then the re-send
    expect(sentKeys).toEqual([entry.id, entry.id]);
    expect((await highWater()) - before).toBe(1); // the replay wrote nothing
    expect(optimistic.calls.map((c) => c.op)).toEqual(['confirm']);
    expect(await keyRows(entry.id)).toBe(1);
  });

  it('rolls back a command the server refuses and keeps its error_v2 and the input', async () => {
    const session = sessionWith(await signInAs('admin@demo.test'));
    const store = createMemoryOutboxStore();
    const optimistic = createRecordingOptimistic();
    const outbox = createOutbox({ store, http: client(session), optimistic, clock: systemClock, session });
    const [id] = await someTransactionIds(1, 30);
    const before = await serverRow(id!);
    const unknownGl = crypto.randomUUID();
    const entry = createOutboxEntry({
      id: crypto.randomUUID(), command: 'transaction.code',
      args: { transaction_id: id!, patch: { gl_account_id: unknownGl, memo: 'keep me' } }, now: Date.now(),
    });
    await outbox.enqueue(entry);
    await outbox.whenIdle();
    const failed = store.rows.get(entry.id)!;
    expect(failed.state).toBe('failed');
    // The server's own error_v2, field detail included, for the UI to show beside the kept input.
    expect(failed.last_error).toMatchObject({ error_code: 'REQUEST_7001', errors: { gl_account_id: expect.stringContaining('GL account') } });
    expect(failed.args).toEqual({ transaction_id: id, patch: { gl_account_id: unknownGl, memo: 'keep me' } });
    expect(optimistic.calls).toEqual([{ op: 'rollback', id: entry.id }]);
    expect(await serverRow(id!)).toEqual(before);
  });

  it('runs as an engine: live over SSE, woken by another client\'s write', async () => {
    const session = sessionWith(await signInAs('admin@demo.test'));
    const mirror = createMemoryMirror();
    const engine = createSyncEngine({
      baseUrl: server.url, transport, clock: systemClock, session, mirror,
      outboxStore: createMemoryOutboxStore(), optimistic: createRecordingOptimistic(),
    });
    engine.start();
    try {
      await eventually(() => engine.status().phase === 'live');
      const seqBefore = engine.status().checkpoint;

      // Another client (the bookkeeper, in another browser) codes a transaction.
      const other = sessionWith(await signInAs('bookkeeper@demo.test'));
      const otherOutbox = createOutbox({
        store: createMemoryOutboxStore(), http: client(other), optimistic: createRecordingOptimistic(), clock: systemClock, session: other,
      });
      const [id] = await someTransactionIds(1, 20);
      await otherOutbox.enqueue(createOutboxEntry({
        id: crypto.randomUUID(), command: 'transaction.code',
        args: { transaction_id: id!, patch: { memo: 'Coded elsewhere' } }, now: Date.now(),
      }));
      await otherOutbox.whenIdle();

      await eventually(() => mirror.rows.get('transactions')?.get(id!)?.memo === 'Coded elsewhere');
      expect(engine.status().checkpoint).toBeGreaterThan(seqBefore);
      expect(engine.status()).toMatchObject({ phase: 'live', online: true, pending: 0, failed: 0 });
    } finally {
      await engine.stop();
    }
  });
  it('converges two faulty clients with overlapping edits, each edit applied exactly once', async () => {
    const ids = await someTransactionIds(9, 40);
    const before = await highWater();
    const clients = await Promise.all(
      [['admin@demo.test', 2], ['bookkeeper@demo.test', 5]].map(async ([email, seed]) => {
        const session = sessionWith(await signInAs(email as string));
        const mirror = createMemoryMirror();
        const transport = faulty(seed as number);
        const engine = createSyncEngine({
          baseUrl: server.url, transport, clock: systemClock, session, mirror,
          outboxStore: createMemoryOutboxStore(), optimistic: createRecordingOptimistic(),
        });
        return { engine, mirror, stats: transport.stats };
      }),
    );
    const [a, b] = clients as [(typeof clients)[0], (typeof clients)[0]];
    a.engine.start();
    b.engine.start();
    try {
      await eventually(() => a.engine.status().phase === 'live' && b.engine.status().phase === 'live', 20_000);
      // A codes six transactions one by one; B bulk-codes six, three of them the same as A's.
      for (const [i, id] of ids.slice(0, 6).entries()) {
        await a.engine.enqueue(createOutboxEntry({
          id: crypto.randomUUID(), command: 'transaction.code',
          args: { transaction_id: id, patch: { memo: `A ${i}` } }, now: Date.now() + i,
        }));
      }
      await b.engine.enqueue(createOutboxEntry({
        id: crypto.randomUUID(), command: 'transaction.bulkCode',
        args: { transaction_ids: ids.slice(3, 9), patch: { memo: 'B' } }, now: Date.now(),
      }));
      await eventually(() => [a, b].every((c) => c.engine.status().pending === 0), 30_000);
      expect([a, b].map((c) => c.engine.status().failed)).toEqual([0, 0]);
      expect((await highWater()) - before).toBe(12); // 6 single edits + 6 bulk rows, none twice

      const truth = await Promise.all(ids.map(serverRow));
      const mirrored = (m: typeof a.mirror) => ids.map((id) => {
        const doc = m.rows.get('transactions')?.get(id);
        return { memo: doc?.memo, change_seq: doc?.change_seq };
      });
      await eventually(() => [a, b].every((c) => JSON.stringify(mirrored(c.mirror)) === JSON.stringify(truth)), 20_000);
      expect(truth.slice(0, 3).map((r) => r.memo)).toEqual(['A 0', 'A 1', 'A 2']);
      // The faults really happened (requests refused and answers lost after the server acted).
      expect(a.stats.lost + b.stats.lost).toBeGreaterThan(0);
      expect(a.stats.refused + b.stats.refused).toBeGreaterThan(0);
      expect(truth.slice(6).map((r) => r.memo)).toEqual(['B', 'B', 'B']);
    } finally {
      await Promise.all([a.engine.stop(), b.engine.stop()]);
    }
  });
});
