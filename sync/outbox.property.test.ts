import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { commandDef, createOutbox, outboxEntryOf, type AnyCommand, type Outbox } from './outbox.ts';
import { createHttpClient } from './http.ts';
import type { OutboxEntry, OutboxStore } from './ports.ts';
import { createFakeClock, createRecordingOptimistic, fakeToken, jsonResponse } from './testing.ts';


/** Lets queued continuations run (setImmediate: no 1 ms timer clamp, so 200 runs stay quick). */
const ticks = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};
/**
 * Property (issue 26): whatever the interleaving of network faults (lost answers, timeouts,
 * 5xx, 409/422 refusals, "key in flight", offline), user retries, reloads (the tab closed
 * mid-request, the outbox re-read from its store) and server answers, every command queued is
 * applied exactly once by a server that honours Idempotency-Key, in queue order per entity,
 * once the network heals and the user retries what was refused. Nothing is lost or duplicated.
 */
const ENTITIES = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222', '33333333-3333-4333-8333-333333333333'];
/** The same edit in the upload lane, so both lanes run side by side over shared entities. */
const SIDE: AnyCommand = { ...commandDef('transaction.code'), name: 'side.code', lane: 'upload' } as AnyCommand;
const lookup = (name: string): AnyCommand => (name === 'side.code' ? SIDE : commandDef(name));
const TIMEOUT_MS = 5_000;

type Fault = 'ok' | 'down' | 'lost' | 'e503' | 'applied503' | 'busy7010' | 'r422' | 'r409' | 'slow';
const FAULTS: Fault[] = ['ok', 'down', 'lost', 'e503', 'applied503', 'busy7010', 'r422', 'r409', 'slow'];

/** The server side of the wire, as the API behaves: applies a write once per Idempotency-Key. */
function createServer(faults: Fault[]) {
  const applied: string[] = [];
  const stored = new Map<string, { status: number; body: unknown }>();
  const refuse = (status: number, code: string) => ({ status, body: { error_v2: { message: 'No.', error_code: code } } });
  /** What answers the request, or 'network' when the connection fails; `delay` before it arrives. */
  function handle(key: string, memo: string): { answer: { status: number; body: unknown } | 'network'; delay: number } {
    const replay = stored.get(key);
    if (replay) return { answer: replay, delay: 0 };
    const fault = faults.shift() ?? 'ok';
    const apply = () => {
      applied.push(memo);
      const ok = { status: 200, body: {} };
      stored.set(key, ok);
      return ok;
    };
    switch (fault) {
      case 'ok': return { answer: apply(), delay: 0 };
      case 'slow': return { answer: apply(), delay: TIMEOUT_MS * 2 };
      case 'down': return { answer: 'network', delay: 0 };
      case 'lost': apply(); return { answer: 'network', delay: 0 };
      case 'e503': return { answer: refuse(503, 'UNKNOWN'), delay: 0 };
      case 'applied503': apply(); return { answer: refuse(503, 'UNKNOWN'), delay: 0 };
      case 'busy7010': return { answer: refuse(409, 'IDEMPOTENCY_7010'), delay: 0 };
      case 'r422': stored.set(key, refuse(422, 'REQUEST_7001')); return { answer: stored.get(key)!, delay: 0 };
      case 'r409': stored.set(key, refuse(409, 'REQUEST_7009')); return { answer: stored.get(key)!, delay: 0 };
    }
  }
  return { applied, handle, faults };
}

type Op =
  | { op: 'enqueue'; entity: number; side: boolean }
  | { op: 'advance'; ms: number }
  | { op: 'offline' }
  | { op: 'online' }
  | { op: 'reload' }
  | { op: 'retry' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('enqueue' as const), entity: fc.integer({ min: 0, max: 2 }), side: fc.boolean() }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 70_000 }) }) },
  { weight: 1, arbitrary: fc.constant({ op: 'offline' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'online' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'reload' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'retry' as const }) },
);

/** One device: a durable outbox store and the tab currently running over it (reload = a new tab). */
function createDevice(server: ReturnType<typeof createServer>) {
  const clock = createFakeClock();
  const rows = new Map<string, OutboxEntry>();
  const optimistic = createRecordingOptimistic();
  let tab = 0;
  let keys = 0;
  const never = new Promise<never>(() => undefined);
  function boot(): Outbox {
    const mine = ++tab;
    // A closed tab's writes never land and its answers never arrive (its requests may have).
    const alive = () => mine === tab;
    const store: OutboxStore = {
      list: async () => (alive() ? [...rows.values()].map((e) => structuredClone(e)) : never),
      put: async (e) => (alive() ? void rows.set(e.id, structuredClone(e)) : never),
      remove: async (id) => (alive() ? void rows.delete(id) : never),
    };
    const transport = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      if (!alive()) return never;
      const key = new Headers(init?.headers).get('idempotency-key') ?? `none-${++keys}`;
      const { memo } = JSON.parse(String(init?.body)) as { memo: string };
      const { answer, delay } = server.handle(key, memo);
      if (delay > 0) await clock.sleep(delay, init?.signal ?? undefined);
      if (!alive()) return never;
      if (answer === 'network') throw new TypeError('connection reset');
      return jsonResponse(answer.status, answer.body);
    };
    const session = { getToken: () => fakeToken(['default', 'low-risk']), onUnauthorized: () => undefined };
    const http = createHttpClient({ baseUrl: 'http://api.test', transport: transport as typeof fetch, clock, session, timeoutMs: TIMEOUT_MS });
    const outbox = createOutbox({ store, http, optimistic, clock, session, commands: lookup, newKey: () => `fresh-${++keys}` });
    outbox.kick();
    return outbox;
  }
  return { clock, rows, boot, optimistic };
}

async function play(ops: Op[], faults: Fault[]) {
  const server = createServer([...faults]);
  const device = createDevice(server);
  let outbox = device.boot();
  let offline = false;
  const queued: { id: string; entity: string; at: number }[] = [];
  const retryRefused = async () => {
    for (const e of [...device.rows.values()]) if (e.state === 'failed' || e.state === 'conflict') await outbox.retry(e.id);
  };
  for (const o of ops) {
    if (o.op === 'enqueue') {
      const id = `c${queued.length}`;
      const entity = ENTITIES[o.entity]!;
      const def = o.side ? SIDE : commandDef('transaction.code');
      const entry = outboxEntryOf({ def, args: { transaction_id: entity, patch: { memo: id } } }, id, device.clock.now());
      queued.push({ id, entity, at: queued.length });
      await outbox.enqueue({ ...entry, created_at: entry.created_at + queued.length });
    } else if (o.op === 'advance') await device.clock.advance(o.ms);
    else if (o.op === 'offline') {
      offline = true;
      outbox.pause('offline');
    } else if (o.op === 'online') {
      offline = false;
      outbox.resume();
    } else if (o.op === 'reload') {
      outbox = device.boot();
      if (offline) outbox.pause('offline');
    } else await retryRefused();
    await ticks(3);
  }
  // The network heals and stays up; the user retries whatever the server refused.
  server.faults.length = 0;
  if (offline) outbox.resume();
  for (let round = 0; round < 60; round++) {
    await retryRefused();
    await ticks(5);
    if (device.rows.size === 0) break;
    await device.clock.advance(61_000);
  }
  return { server, device, queued };
}

function check({ server, device, queued }: Awaited<ReturnType<typeof play>>) {
  // Nothing lost: every command reached the server and left the outbox.
  expect([...device.rows.values()]).toEqual([]);
  expect([...server.applied].sort()).toEqual(queued.map((q) => q.id).sort());
  // Nothing duplicated: each command applied once (the key is honoured, so a re-send replays).
  expect(new Set(server.applied).size).toBe(server.applied.length);
  // Nothing reordered: per entity, applied in the order queued.
  for (const entity of ENTITIES) {
    const mine = queued.filter((q) => q.entity === entity).map((q) => q.id);
    expect(server.applied.filter((id) => mine.includes(id))).toEqual(mine);
  }
}

describe('outbox under random faults, retries and reloads (property)', () => {
  it('applies every command exactly once, in order per entity', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(opArb, { minLength: 1, maxLength: 25 }),
        fc.array(fc.constantFrom(...FAULTS), { maxLength: 30 }),
        async (ops, faults) => check(await play(ops, faults)),
      ),
      { numRuns: 200 },
    );
  }, 120_000);

  it('a crafted run: a lost answer, a reload mid-request, a refusal and a retry', async () => {
    const ops: Op[] = [
      { op: 'enqueue', entity: 0, side: false }, { op: 'enqueue', entity: 0, side: true }, { op: 'advance', ms: 1_000 },
      { op: 'enqueue', entity: 1, side: false }, { op: 'reload' }, { op: 'advance', ms: 20_000 }, { op: 'retry' },
    ];
    const result = await play(ops, ['lost', 'r422', 'slow', 'busy7010', 'applied503']);
    check(result);
    expect(result.server.applied).toEqual(['c0', 'c2', 'c1']);
  });
});
