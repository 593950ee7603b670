import { describe, expect, it } from 'vitest';
import { backgroundSyncRegistrar, drainOutbox, OUTBOX_SYNC_TAG, syncLockName, type DrainPorts, type LockManagerLike } from './background-sync.ts';
import { createHttpClient } from './http.ts';
import { createOutboxEntry } from './outbox.ts';
import type { OutboxEntry, SyncStatus } from './ports.ts';
import { createFakeClock, createMemoryOutboxStore, createRecordingOptimistic, fakeToken, flush, jsonResponse, type FakeClock } from './testing.ts';

const T1 = '11111111-1111-4111-8111-111111111111';
const E1 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const TXN = {
  id: T1, card_id: T1, user_id: T1, merchant_name: 'Acme', merchant_category: 'Software', amount: 1,
  currency: 'USD', occurred_at: '2026-01-01T00:00:00Z', state: 'CLEARED', memo: 'later', gl_account_id: null,
  department_id: null, location_id: null, tracking: {}, receipt_ids: [], business_id: T1, change_seq: 9,
  updated_at: '2026-01-01T00:00:00Z', deleted: false,
};
const LOCK = syncLockName('ledgerline-b-u');
const BUDGET = 60_000;

/** Web Locks as the browser grants them: one holder per name, waiters in order, a waiter may give up. */
function fakeLocks() {
  const tails = new Map<string, Promise<void>>();
  const requested: string[] = [];
  /** Requests not granted yet, by name. */
  const waiting: string[] = [];
  const granted = (name: string) => waiting.splice(waiting.indexOf(name), 1);
  function acquire(name: string, signal?: AbortSignal): Promise<() => void> {
    const before = tails.get(name) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    tails.set(name, before.then(() => mine));
    waiting.push(name);
    return new Promise((resolve, reject) => {
      let gaveUp = false;
      signal?.addEventListener('abort', () => {
        if (!gaveUp) granted(name);
        gaveUp = true;
        release();
        reject(signal.reason as Error);
      }, { once: true });
      void before.then(() => {
        if (gaveUp) return;
        gaveUp = true;
        granted(name);
        resolve(release);
      });
    });
  }
  const locks: LockManagerLike & { requested: string[]; hold(name: string): Promise<() => void> } = {
    requested,
    hold: (name) => acquire(name),
    query: async () => ({ pending: waiting.map((name) => ({ name })) }),
    async request(name, options, callback) {
      requested.push(name);
      const release = await acquire(name, options.signal);
      try {
        return await callback();
      } finally {
        release();
      }
    },
  };
  return locks;
}

/** A network that is down until `online` is set; records each request's Idempotency-Key. */
function network(answer: () => Response = () => jsonResponse(200, TXN)) {
  const keys: string[] = [];
  const state = { online: true, keys };
  const transport = async (_input: RequestInfo | URL, init?: RequestInit) => {
    keys.push(new Headers(init?.headers).get('idempotency-key') ?? '');
    if (!state.online) throw new TypeError('Failed to fetch');
    return answer();
  };
  return Object.assign(state, { transport: transport as typeof fetch });
}

function setup(opts: { entries?: OutboxEntry[]; answer?: () => Response; signedIn?: boolean } = {}) {
  const clock: FakeClock = createFakeClock();
  const entry = createOutboxEntry({ id: E1, command: 'transaction.code', args: { transaction_id: T1, patch: { memo: 'later' } }, now: clock.now() });
  const store = createMemoryOutboxStore(opts.entries ?? [entry]);
  const net = network(opts.answer);
  const locks = fakeLocks();
  let unauthorized = 0;
  let closed = 0;
  const http = createHttpClient({
    baseUrl: 'http://api.test', transport: net.transport, clock,
    session: { getToken: () => fakeToken(['default', 'low-risk']), onUnauthorized: () => undefined },
  });
  const ports: DrainPorts = {
    locks,
    clock,
    find: async () => (opts.signedIn === false ? null : {
      lockName: LOCK,
      open: async () => ({
        store, http, optimistic: createRecordingOptimistic(),
        onUnauthorized: () => void unauthorized++,
        close: async () => void closed++,
      }),
    }),
  };
  return { clock, store, net, locks, ports, entry, unauthorized: () => unauthorized, closed: () => closed };
}

/** Runs a drain while moving the fake clock on, until it settles. */
async function drainWhileTimePasses(t: ReturnType<typeof setup>, budget = BUDGET) {
  let result: string | null = null;
  const run = drainOutbox(t.ports, budget).then((r) => (result = r));
  for (let i = 0; i < 400 && result === null; i++) await t.clock.advance(1_000);
  await run;
  return result;
}

describe('drainOutbox (the service worker delivers the outbox)', () => {
  it('delivers waiting commands under the sync lock, each with its Idempotency-Key, and leaves nothing', async () => {
    const t = setup();
    expect(await drainOutbox(t.ports, BUDGET)).toBe('drained');
    expect(t.locks.requested).toEqual([LOCK]);
    expect(t.net.keys).toEqual([E1]);
    expect(await t.store.list()).toEqual([]);
    expect(t.closed()).toBe(1);
  });

  it('sends nothing while a tab leads (holds the lock), and delivers once the last tab is gone', async () => {
    const t = setup();
    const release = await t.locks.hold(LOCK);
    let result: string | null = null;
    const run = drainOutbox(t.ports, BUDGET).then((r) => (result = r));
    await t.clock.advance(10_000);
    expect(result).toBeNull();
    expect(t.net.keys).toEqual([]);
    release();
    await run;
    expect(result).toBe('drained');
    expect(t.net.keys).toEqual([E1]);
  });

  it('a tab leading for the whole budget keeps the delivery: busy, nothing sent, nothing opened', async () => {
    const t = setup();
    await t.locks.hold(LOCK);
    expect(await drainWhileTimePasses(t)).toBe('busy');
    expect(t.net.keys).toEqual([]);
    expect(t.closed()).toBe(0);
    expect((await t.store.list()).map((e) => e.state)).toEqual(['pending']);
  });

  it('retries while the network is down, then reports waiting; the next drain re-sends with the same key', async () => {
    const t = setup();
    t.net.online = false;
    expect(await drainWhileTimePasses(t, 20_000)).toBe('waiting');
    expect(t.net.keys.length).toBeGreaterThan(1);
    const [left] = await t.store.list();
    expect(left).toMatchObject({ id: E1, state: 'pending', maybe_sent: true });
    t.net.online = true;
    expect(await drainWhileTimePasses(t)).toBe('drained');
    expect(new Set(t.net.keys)).toEqual(new Set([E1]));
    expect(await t.store.list()).toEqual([]);
  });

  it('delivers once the network returns within the budget', async () => {
    const t = setup();
    t.net.online = false;
    const run = drainWhileTimePasses(t);
    await t.clock.advance(5_000);
    t.net.online = true;
    expect(await run).toBe('drained');
    expect(await t.store.list()).toEqual([]);
  });

  it('yields to a tab that opens while commands still wait: the tab leads and goes on with them', async () => {
    const t = setup();
    t.net.online = false;
    let result: string | null = null;
    const run = drainOutbox(t.ports, BUDGET).then((r) => (result = r));
    await t.clock.advance(3_000);
    expect(result).toBeNull();
    let tabLeads = false;
    void t.locks.hold(LOCK).then(() => (tabLeads = true));
    for (let i = 0; i < 10 && result === null; i++) await t.clock.advance(1_000);
    await run;
    expect(result).toBe('yielded');
    await flush();
    expect(tabLeads).toBe(true);
    expect((await t.store.list()).map((e) => e.state)).toEqual(['pending']);
    expect(t.closed()).toBe(1);
  });

  it('a refused token (401) stops: the command stays pending and the session is told once', async () => {
    const t = setup({ answer: () => jsonResponse(401, { error_v2: { message: 'Sign in again.', error_code: 'AUTH_7003' } }) });
    expect(await drainWhileTimePasses(t)).toBe('signed_out');
    expect(t.unauthorized()).toBe(1);
    expect((await t.store.list()).map((e) => e.state)).toEqual(['pending']);
  });

  it('an entry a closed tab left `sending` is re-sent with its key', async () => {
    const clock = createFakeClock();
    const stale: OutboxEntry = {
      ...createOutboxEntry({ id: E1, command: 'transaction.code', args: { transaction_id: T1, patch: { memo: 'later' } }, now: clock.now() }),
      state: 'sending', attempts: 1, maybe_sent: true,
    };
    const t = setup({ entries: [stale] });
    expect(await drainOutbox(t.ports, BUDGET)).toBe('drained');
    expect(t.net.keys).toEqual([E1]);
  });

  it('a command held behind a refused one of the same row waits for the user: nothing sent, drained at once', async () => {
    const clock = createFakeClock();
    const args = { transaction_id: T1, patch: { memo: 'later' } };
    const refused: OutboxEntry = {
      ...createOutboxEntry({ id: E1, command: 'transaction.code', args, now: clock.now() - 10 }),
      state: 'failed', last_error: { message: 'No.', error_code: 'REQUEST_7001' },
    };
    const younger = createOutboxEntry({ id: T1, command: 'transaction.code', args, now: clock.now() });
    const t = setup({ entries: [refused, younger] });
    expect(await drainOutbox(t.ports, BUDGET)).toBe('drained');
    expect(t.net.keys).toEqual([]);
    expect((await t.store.list()).map((e) => e.state).sort()).toEqual(['failed', 'pending']);
  });

  it('does nothing with nobody signed in, or without Web Locks (never two deliverers unguarded)', async () => {
    const t = setup({ signedIn: false });
    expect(await drainOutbox(t.ports, BUDGET)).toBe('idle');
    expect(t.locks.requested).toEqual([]);
    const u = setup();
    expect(await drainOutbox({ ...u.ports, locks: undefined }, BUDGET)).toBe('idle');
    expect(u.net.keys).toEqual([]);
  });
});

describe('backgroundSyncRegistrar (the page registers the sync while commands wait)', () => {
  const status = (pending: number) => ({ pending } as SyncStatus);
  function registrar(withSync = true) {
    const tags: string[] = [];
    const reg = withSync ? { sync: { register: async (tag: string) => void tags.push(tag) } } : {};
    return { tags, r: backgroundSyncRegistrar(async () => reg) };
  }

  it('registers when commands start waiting, once per wait, and again when the page goes away', async () => {
    const { tags, r } = registrar();
    r.status(null);
    r.status(status(0));
    r.hidden();
    await flush();
    expect(tags).toEqual([]);
    r.status(status(1));
    r.status(status(3));
    await flush();
    expect(tags).toEqual([OUTBOX_SYNC_TAG]);
    r.hidden();
    await flush();
    expect(tags).toEqual([OUTBOX_SYNC_TAG, OUTBOX_SYNC_TAG]);
    r.status(status(0));
    r.status(status(2));
    await flush();
    expect(tags).toHaveLength(3);
  });

  it('one spell of being hidden registers once (visibilitychange and pagehide both say hidden)', async () => {
    const { tags, r } = registrar();
    r.status(status(1));
    r.hidden();
    r.hidden();
    await flush();
    expect(tags).toHaveLength(2);
    r.visible();
    r.hidden();
    await flush();
    expect(tags).toHaveLength(3);
  });

  it('without a service worker or Background Sync (Firefox, Safari) nothing happens', async () => {
    const none = backgroundSyncRegistrar(undefined);
    none.status(status(1));
    none.hidden();
    const { tags, r } = registrar(false);
    r.status(status(1));
    await flush();
    expect(tags).toEqual([]);
  });
});
