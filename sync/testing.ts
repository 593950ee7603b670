import type { Clock, MirrorStore, OptimisticPort, OutboxEntry, OutboxStore, PullCheckpoint, Transport } from './ports.ts';

/**
 * Test doubles for OUR ports (never for the server): a clock that only moves when told, and a
 * transport that answers from a script and records what was sent. Exported so the worker's
 * tests can drive the engine the same way.
 */
export interface FakeClock extends Clock {
  /** Moves time forward, firing due sleeps in order and letting their continuations run. */
  advance(ms: number): Promise<void>;
  /** Sleeps not yet due. */
  pending(): number[];
}

export function createFakeClock(start = Date.UTC(2026, 0, 1)): FakeClock {
  let now = start;
  let timers: { at: number; seq: number; fire: () => void }[] = [];
  let seq = 0;
  return {
    now: () => now,
    sleep(ms, signal) {
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const timer = { at: now + Math.max(0, ms), seq: seq++, fire: () => resolve() };
        timers.push(timer);
        signal?.addEventListener(
          'abort',
          () => {
            timers = timers.filter((t) => t !== timer);
            reject(signal.reason);
          },
          { once: true },
        );
      });
    },
    async advance(ms) {
      const target = now + ms;
      await flush();
      for (;;) {
        const due = timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
        if (!due) break;
        timers = timers.filter((t) => t !== due);
        now = due.at;
        due.fire();
        await flush();
      }
      now = target;
      await flush();
    },
    pending: () => timers.map((t) => t.at - now).sort((a, b) => a - b),
  };
}

/** Lets every queued promise continuation run (several macrotask turns, no real waiting). */
export async function flush(turns = 5): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((r) => setTimeout(r, 0));
}

export interface RecordedRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

export type ScriptStep = Response | Error | ((req: RecordedRequest, signal: AbortSignal | undefined) => Promise<Response>);

/** A transport answering each request with the next scripted step (an Error rejects like fetch). */
export function scriptedTransport(steps: ScriptStep[]): Transport & { requests: RecordedRequest[] } {
  const requests: RecordedRequest[] = [];
  const fn = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((v, k) => (headers[k] = v));
    const req: RecordedRequest = {
      url: String(input),
      method: init?.method ?? 'GET',
      headers,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    requests.push(req);
    const step = steps.shift();
    if (!step) throw new Error(`unscripted request ${req.method} ${req.url}`);
    if (step instanceof Error) throw step;
    if (typeof step === 'function') return step(req, init?.signal ?? undefined);
    return step;
  };
  return Object.assign(fn as Transport, { requests });
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

/** A response that never arrives until the signal aborts (for timeouts and aborts). */
export function hangingStep(): ScriptStep {
  return (_req, signal) =>
    new Promise<Response>((_resolve, reject) => {
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
}

/** An unsigned JWT carrying the given scopes (the client never verifies signatures). */
export function fakeToken(scopes: string[], extra: Record<string, unknown> = {}): string {
  const enc = (o: unknown) =>
    btoa(JSON.stringify(o)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `${enc({ alg: 'none', typ: 'JWT' })}.${enc({ ramp_access_scopes: scopes, ...extra })}.sig`;
}

/** In-memory OutboxStore (a fake of our port); `puts` records every write for assertions. */
export function createMemoryOutboxStore(initial: OutboxEntry[] = []) {
  const rows = new Map(initial.map((e) => [e.id, structuredClone(e)]));
  const puts: OutboxEntry[] = [];
  const store: OutboxStore = {
    list: async () => [...rows.values()].filter((e) => e.state !== 'done').map((e) => structuredClone(e)),
    put: async (e) => {
      puts.push(structuredClone(e));
      rows.set(e.id, structuredClone(e));
    },
    remove: async (id) => {
      rows.delete(id);
    },
  };
  return Object.assign(store, { rows, puts });
}

/** Records optimistic effects instead of applying them. */
export function createRecordingOptimistic() {
  const calls: { op: 'rollback' | 'confirm' | 'reapply'; id: string; response?: unknown }[] = [];
  const port: Required<OptimisticPort> = {
    rollback: async (e) => void calls.push({ op: 'rollback', id: e.id }),
    confirm: async (e, response) => void calls.push({ op: 'confirm', id: e.id, response }),
    reapply: async (e) => void calls.push({ op: 'reapply', id: e.id }),
  };
  return Object.assign(port, { calls });
}

/** In-memory MirrorStore: rows per collection, checkpoint written with them in one step. */
export function createMemoryMirror() {
  let checkpoint: PullCheckpoint = { seq: 0, epoch: null };
  const rows = new Map<string, Map<string, Record<string, unknown>>>();
  const applied: { count: number; seq: number; epoch: string }[] = [];
  let resets = 0;
  const store: MirrorStore = {
    getCheckpoint: async () => ({ ...checkpoint }),
    applyChanges: async (changes, cp) => {
      for (const c of changes) {
        const coll = rows.get(c.collection) ?? new Map<string, Record<string, unknown>>();
        rows.set(c.collection, coll);
        if (c.deleted || !c.doc) coll.delete(c.id);
        else coll.set(c.id, c.doc);
      }
      checkpoint = { ...cp };
      applied.push({ count: changes.length, ...cp });
    },
    reset: async () => {
      rows.clear();
      checkpoint = { seq: 0, epoch: null };
      resets++;
    },
  };
  return Object.assign(store, {
    rows,
    applied,
    resets: () => resets,
    count: (collection: string) => rows.get(collection)?.size ?? 0,
  });
}
