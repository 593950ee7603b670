import { describe, expect, it } from 'vitest';
import { bootData, createAppStore, sessionState, signedInSession, whenBooted, withStatus } from './app-state.ts';
import type { DataClient, SessionInfo, SyncStatus } from './types.ts';

const status: SyncStatus = {
  phase: 'live',
  online: true,
  progress: null,
  mirrored: true,
  checkpoint: 0,
  pending: 0,
  failed: 0,
  needsStepUp: 0,
  leader: true,
  lastError: null,
};

/** A window with just what bootData touches: online state, location, online/offline events. */
function fakeWindow(online: boolean) {
  const target = new EventTarget();
  const nav = { onLine: online };
  const win = Object.assign(target, { navigator: nav, location: { origin: 'http://app.test' } });
  return {
    win: win as unknown as Window,
    go(next: boolean) {
      nav.onLine = next;
      target.dispatchEvent(new Event(next ? 'online' : 'offline'));
    },
  };
}

function fakeClient(opts: { session?: SessionInfo | null; initError?: Error } = {}) {
  const calls = { setOnline: [] as boolean[], initBaseUrl: '' };
  let onStatus: (s: SyncStatus) => void = () => undefined;
  let onData: (c: string[]) => void = () => undefined;
  const client = {
    async setOnline(online: boolean) {
      calls.setOnline.push(online);
    },
    async init({ baseUrl }: { baseUrl: string }) {
      calls.initBaseUrl = baseUrl;
      if (opts.initError) throw opts.initError;
      return opts.session ?? null;
    },
    async subscribe(s: typeof onStatus, d: typeof onData) {
      onStatus = s;
      onData = d;
      return () => undefined;
    },
    async status() {
      return status;
    },
  };
  return {
    client: client as unknown as DataClient,
    calls,
    emitStatus: (s: SyncStatus) => onStatus(s),
    emitData: (c: string[]) => onData(c),
  };
}

describe('bootData', () => {
  it('opens the worker at the page origin and is ready with its session', async () => {
    const store = createAppStore(true);
    const { client, calls } = fakeClient({ session: null });
    const booted = whenBooted(store);
    await bootData(client, store, fakeWindow(true).win);
    await booted;
    expect(calls.initBaseUrl).toBe('http://app.test');
    expect(calls.setOnline).toEqual([true]);
    expect(store.get()).toMatchObject({ boot: 'ready', session: null, status });
  });

  it('passes the page online/offline events to the store and the worker', async () => {
    const store = createAppStore(true);
    const { client, calls } = fakeClient();
    const w = fakeWindow(true);
    await bootData(client, store, w.win);
    w.go(false);
    expect(store.get().online).toBe(false);
    w.go(true);
    expect(store.get().online).toBe(true);
    expect(calls.setOnline).toEqual([true, false, true]);
  });

  it('is online from evidence: back on the network it waits for the worker to hear the server answer', async () => {
    const store = createAppStore(true);
    const fake = fakeClient();
    const w = fakeWindow(true);
    await bootData(fake.client, store, w.win);
    expect(store.get().online).toBe(true);
    w.go(false);
    fake.emitStatus({ ...status, online: false, phase: 'offline' });
    // The online event is a claim: the worker probes, and says offline until the server answers.
    w.go(true);
    expect(fake.calls.setOnline).toEqual([true, false, true]);
    expect(store.get().online).toBe(false);
    fake.emitStatus({ ...status, online: false, phase: 'offline', reachable: false });
    expect(store.get().online).toBe(false);
    fake.emitStatus(status);
    expect(store.get().online).toBe(true);
    // Requests failing without an answer (a captive portal, a LAN without internet) take it away again.
    fake.emitStatus({ ...status, online: false, phase: 'offline', reachable: false });
    expect(store.get().online).toBe(false);
    // No network at all: offline whatever the worker last said.
    fake.emitStatus(status);
    w.go(false);
    expect(store.get().online).toBe(false);
  });

  it('bumps the data version on every change and the reference version only for reference data', async () => {
    const store = createAppStore(true);
    const fake = fakeClient();
    await bootData(fake.client, store, fakeWindow(true).win);
    fake.emitData(['transactions']);
    expect(store.get()).toMatchObject({ dataVersion: 1, referenceVersion: 0 });
    fake.emitData(['transactions', 'gl_accounts']);
    expect(store.get()).toMatchObject({ dataVersion: 2, referenceVersion: 1 });
    fake.emitStatus({ ...status, pending: 4 });
    expect(store.get().status?.pending).toBe(4);
  });

  it('reports a worker that cannot open', async () => {
    const store = createAppStore(true);
    const { client } = fakeClient({ initError: new Error('QuotaExceededError') });
    await bootData(client, store, fakeWindow(true).win);
    expect(store.get()).toMatchObject({ boot: 'failed', bootError: 'QuotaExceededError' });
  });
});

describe('withStatus (issue 33)', () => {
  it('re-reads the lists when the first mirror completes, and marks from which version answers are complete', () => {
    const store = createAppStore(true);
    store.set((s) => withStatus(s, { ...status, mirrored: false }, true));
    expect(store.get()).toMatchObject({ dataVersion: 0, completedVersion: 0 });
    store.set((s) => ({ dataVersion: s.dataVersion + 1 }));
    store.set((s) => withStatus(s, status, true));
    expect(store.get()).toMatchObject({ dataVersion: 2, completedVersion: 2, status });
    // Already complete (a cold start, a later sync): no extra read.
    store.set((s) => withStatus(s, { ...status, checkpoint: 9 }, true));
    expect(store.get()).toMatchObject({ dataVersion: 2, completedVersion: 2 });
  });

  it('a mirror opened complete (no partial status before) bumps nothing', () => {
    const store = createAppStore(true);
    store.set((s) => withStatus(s, status, false));
    expect(store.get()).toMatchObject({ dataVersion: 0, completedVersion: 0, online: false });
  });
});

describe('whenBooted', () => {
  it('resolves at once when boot is over, else on the change', async () => {
    const store = createAppStore(false);
    let done = false;
    const p = whenBooted(store).then(() => (done = true));
    store.set({ online: true });
    await Promise.resolve();
    expect(done).toBe(false);
    store.set({ boot: 'ready' });
    await p;
    expect(done).toBe(true);
    await expect(whenBooted(store)).resolves.toBeUndefined();
  });
});

describe('bootData: the tab’s business', () => {
  const choice = (id: string) => ({ id, name: id.toUpperCase(), role: 'BUSINESS_USER' as const, user_id: `u-${id}` });
  const sessionIn = (id: string) => ({ surface: { kind: 'BUSINESS' }, business: { id }, businesses: [choice('a'), choice('b')] }) as unknown as SessionInfo;

  function switching(answer: 'ok' | 'refused') {
    const { client } = fakeClient({ session: sessionIn('a') });
    const asked: string[] = [];
    Object.assign(client, {
      async switchBusiness(id: string) {
        asked.push(id);
        return answer === 'ok'
          ? { ok: true, session: sessionIn(id), left_behind: null }
          : { ok: false, error: { message: 'No user was found for this identity.', error_code: '4014' } };
      },
    });
    return { client, asked };
  }

  it.each([
    ['switches to the tab’s other business', 'b', 'ok', ['b'], 'b'],
    ['stays when the tab already shows the session’s business', 'a', 'ok', [], 'a'],
    ['stays on a business the identity does not have', 'zzz', 'ok', [], 'a'],
    ['stays when the server refuses', 'b', 'refused', ['b'], 'a'],
  ] as const)('%s', async (_, tab, answer, askedFor, shown) => {
    const { client, asked } = switching(answer);
    const store = createAppStore(true);
    await bootData(client, store, fakeWindow(true).win, { tabBusinessId: tab });
    expect(asked).toEqual(askedFor);
    expect(store.get().session?.business.id).toBe(shown);
    expect(store.get().surfaceSession).toBeNull();
  });

  it('boots a session of another surface as it is (issue 31): no business switch, the surface field set', async () => {
    const portal = {
      surface: { kind: 'VENDOR_PORTAL', network_vendor_id: 'v1' }, identity_id: 'i1', email: 'ada@acme.test', label: 'Acme', scopes: ['default'],
    } as const satisfies SessionInfo;
    const { client } = fakeClient({ session: portal });
    const asked: string[] = [];
    Object.assign(client, {
      async switchBusiness(id: string) {
        asked.push(id);
        return { ok: false, error: { message: 'x', error_code: '4014' } };
      },
    });
    const store = createAppStore(true);
    await bootData(client, store, fakeWindow(true).win, { tabBusinessId: 'b' });
    expect(asked).toEqual([]);
    expect(store.get()).toMatchObject({ boot: 'ready', session: null, surfaceSession: portal });
  });
});

describe('sessionState', () => {
  it('puts a session in the field of its surface and clears the other', () => {
    const business = { surface: { kind: 'BUSINESS' }, business: { id: 'a' } } as unknown as SessionInfo;
    const firm = { surface: { kind: 'ADVISOR_CONSOLE', external_firm_id: 'f', external_firm_user_id: 'u' } } as unknown as SessionInfo;
    expect(sessionState(business)).toEqual({ session: business, surfaceSession: null });
    expect(sessionState(firm)).toEqual({ session: null, surfaceSession: firm });
    expect(sessionState(null)).toEqual({ session: null, surfaceSession: null });
    expect(signedInSession(sessionState(firm))).toBe(firm);
  });
});
