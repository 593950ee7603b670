import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createPuller, type Puller, type PullResult } from './puller.ts';
import { createHttpClient } from './http.ts';
import type { MirrorStore, PullCheckpoint } from './ports.ts';
import type { Change, ChangesResponse } from '../schema/sync-feed.ts';
import { createFakeClock, fakeToken, jsonResponse } from './testing.ts';


/** Lets queued continuations run (setImmediate: no 1 ms timer clamp, so 200 runs stay quick). */
const ticks = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};
/**
 * Property (issue 26): whatever the interleaving of feed faults (5xx, refusals, lost
 * connections, timeouts), store failures, slow writes, writes landing on the server, visibility
 * changes and reloads (the mirror's checkpoint re-read mid-pull), the puller never skips a row of
 * the feed nor applies one twice, and a reloaded puller asks from the checkpoint it stored.
 */
const TIMEOUT_MS = 5_000;
type FeedFault = 'ok' | 'e503' | 'down' | 'slow' | 'r422';
type StoreFault = 'ok' | 'fail' | 'slow';

/** The change feed as the server keeps it: seqs ascending (with gaps), pages of any size it likes. */
function createFeed(faults: FeedFault[], sizes: number[]) {
  const rows: Change[] = [];
  let head = 0;
  let epoch = 1;
  function write(count: number, gap: number) {
    for (let i = 0; i < count; i++) {
      head += 1 + (i === 0 ? gap : 0);
      rows.push({ collection: 'transactions', seq: head, id: `t${head}`, deleted: false, doc: { id: `t${head}` } });
    }
  }
  /** The page after `after` (the walk is not offered: backfill asks get the forward feed from 0). */
  function answer(url: URL): { status: number; body: unknown; delay: number } | 'network' {
    const fault = faults.shift() ?? 'ok';
    if (fault === 'down') return 'network';
    if (fault === 'e503') return { status: 503, body: { error_v2: { message: 'Busy.', error_code: 'UNKNOWN' } }, delay: 0 };
    if (fault === 'r422') return { status: 422, body: { error_v2: { message: 'No.', error_code: 'REQUEST_7001' } }, delay: 0 };
    const after = Number(url.searchParams.get('after') ?? 0);
    const newer = rows.filter((r) => r.seq > after);
    const changes = newer.slice(0, sizes.shift() ?? 3);
    const has_more = changes.length < newer.length;
    const body: ChangesResponse = {
      changes, has_more, checkpoint: has_more ? changes.at(-1)!.seq : Math.max(after, head), high_water: head,
      visibility_epoch: `e${epoch}`, ...(after === 0 ? { total: newer.length } : {}),
    };
    return { status: 200, body, delay: fault === 'slow' ? TIMEOUT_MS * 2 : 0 };
  }
  return { rows, write, answer, faults, sizes, head: () => head, bumpEpoch: () => void epoch++ };
}

type Op =
  | { op: 'pull' }
  | { op: 'advance'; ms: number }
  | { op: 'write'; count: number; gap: number }
  | { op: 'epoch' }
  | { op: 'reload' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ op: 'pull' as const }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 12_000 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('write' as const), count: fc.integer({ min: 1, max: 6 }), gap: fc.integer({ min: 0, max: 2 }) }) },
  { weight: 1, arbitrary: fc.constant({ op: 'epoch' as const }) },
  { weight: 2, arbitrary: fc.constant({ op: 'reload' as const }) },
);

/** One device: the durable mirror (rows + checkpoint), and the tab whose puller runs over it. */
function createDevice(feed: ReturnType<typeof createFeed>, storeFaults: StoreFault[]) {
  const clock = createFakeClock();
  let checkpoint: PullCheckpoint = { seq: 0, epoch: null };
  const rows = new Map<string, number>();
  /** What the mirror did, in order: each row applied (by seq), and each reset. */
  const log: (number | 'reset')[] = [];
  /** Per tab: the stored checkpoint when it started, and what its first feed request asked. */
  const starts: { stored: PullCheckpoint; firstAsk: string | null }[] = [];
  let tab = 0;
  const never = new Promise<never>(() => undefined);
  /** Every feed request, by tab: `tab:query`. */
  const reqs: string[] = [];
  function boot(): Puller {
    const mine = ++tab;
    const alive = () => mine === tab;
    const start = { stored: structuredClone(checkpoint), firstAsk: null as string | null };
    starts.push(start);
    // As workers/mirror-store.ts: writes in call order; batches of one pull share a generation
    // and none is stored after a failed one of it; a pull starts (getCheckpoint) after them all.
    let tail: Promise<unknown> = Promise.resolve();
    let generation = 0;
    let broken = -1;
    const queue = <T>(fn: () => Promise<T>): Promise<T> => {
      const run = tail.then(fn, fn);
      tail = run.catch(() => undefined);
      return run;
    };
    const store: MirrorStore = {
      getCheckpoint: () => queue(async () => {
        if (!alive()) return never;
        if (broken === generation) generation++;
        return structuredClone(checkpoint);
      }),
      applyChanges: (changes, cp) => {
        const fault = storeFaults.shift() ?? 'ok';
        const mine = generation;
        return queue(async () => {
          if (fault === 'slow') await clock.sleep(700);
          if (!alive()) return never;
          if (broken === mine || fault === 'fail') {
            broken = mine;
            throw new Error('QuotaExceededError');
          }
          for (const c of changes) {
            log.push(c.seq);
            rows.set(c.id, c.seq);
          }
          checkpoint = structuredClone(cp);
        });
      },
      reset: () => queue(async () => {
        if (!alive()) return never;
        rows.clear();
        checkpoint = { seq: 0, epoch: null };
        log.push('reset');
      }),
    };
    const transport = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      if (!alive()) return never;
      const url = new URL(String(input));
      reqs.push(`${mine}:${url.search}`);
      start.firstAsk ??= url.searchParams.get('backfill') === 'true' ? 'backfill' : url.searchParams.get('after');
      const answer = feed.answer(url);
      if (answer === 'network') throw new TypeError('connection reset');
      if (answer.delay > 0) await clock.sleep(answer.delay, init?.signal ?? undefined);
      if (!alive()) return never;
      return jsonResponse(answer.status, answer.body);
    };
    const http = createHttpClient({
      baseUrl: 'http://api.test', transport: transport as typeof fetch, clock, timeoutMs: TIMEOUT_MS,
      session: { getToken: () => fakeToken(['default']), onUnauthorized: () => undefined },
    });
    return createPuller({ http, clock, store });
  }
  return { clock, rows, log, starts, boot, checkpoint: () => checkpoint, reqs };
}

async function play(ops: Op[], feedFaults: FeedFault[], storeFaults: StoreFault[], sizes: number[]) {
  const feed = createFeed([...feedFaults], [...sizes]);
  const storeScript = [...storeFaults];
  const device = createDevice(feed, storeScript);
  let puller = device.boot();
  for (const o of ops) {
    if (o.op === 'pull') void puller.pull();
    else if (o.op === 'advance') await device.clock.advance(o.ms);
    else if (o.op === 'write') feed.write(o.count, o.gap);
    else if (o.op === 'epoch') feed.bumpEpoch();
    else puller = device.boot();
    await ticks(3);
  }
  // The faults end; pull until a pull succeeds at the head of the feed.
  feed.faults.length = 0;
  storeScript.length = 0;
  for (let round = 0; round < 30; round++) {
    let result: PullResult | null = null;
    void puller.pull().then((r) => (result = r));
    for (let i = 0; i < 20; i++) {
      await ticks(5);
      if (result !== null) break;
      await device.clock.advance(6_000);
    }
    if (result !== null && (result as PullResult).ok && device.checkpoint().seq === feed.head()) break;
  }
  return { feed, device };
}

function check({ feed, device }: Awaited<ReturnType<typeof play>>) {
  const all = feed.rows.map((r) => r.seq);
  // The mirror holds the feed, at its head, complete.
  expect(device.checkpoint()).toMatchObject({ seq: feed.head(), mirrored: true });
  expect([...device.rows.values()].sort((a, b) => a - b)).toEqual(all);
  // Between resets, rows were applied in feed order, each once, none skipped: a prefix of the feed.
  const segments: number[][] = [[]];
  for (const item of device.log) {
    if (item === 'reset') segments.push([]);
    else segments.at(-1)!.push(item);
  }
  for (const seqs of segments) expect(seqs, JSON.stringify([device.log, device.reqs])).toEqual(all.slice(0, seqs.length));
  // Each tab began from the checkpoint the last one stored (a fresh mirror walks from the top).
  for (const s of device.starts) {
    if (s.firstAsk === null) continue;
    const fresh = s.stored.mirrored !== true && s.stored.seq === 0;
    expect(s.firstAsk).toBe(fresh ? 'backfill' : String(s.stored.seq));
  }
}

describe('puller under random faults, writes, visibility changes and reloads (property)', () => {
  it('never skips or re-applies a row and resumes from its stored checkpoint', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(opArb, { minLength: 1, maxLength: 20 }),
        fc.array(fc.constantFrom<FeedFault>('ok', 'ok', 'e503', 'down', 'slow', 'r422'), { maxLength: 20 }),
        fc.array(fc.constantFrom<StoreFault>('ok', 'ok', 'fail', 'slow'), { maxLength: 12 }),
        fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 30 }),
        async (ops, feedFaults, storeFaults, sizes) => check(await play([{ op: 'write', count: 5, gap: 1 }, ...ops], feedFaults, storeFaults, sizes)),
      ),
      { numRuns: 200 },
    );
  }, 120_000);
});
