/**
 * The first mirror's feed walk as its critical path (issue 13): `npx tsx bench/feed-walk.ts
 * --transactions 20000 --write-ms 165`. The real server (PGlite, seeded) walked over loopback
 * HTTP as sync/puller.ts walks it (backfill pages of 2,000, page N+1 asked as soon as page N
 * is parsed, then page N "written": a wait of --write-ms, the IndexedDB floor's time a page),
 * in alternating rounds of three server modes: `objects` (docs parsed by the driver and
 * stringified again, nothing prepared: the feed before issue 13's second step), `text` (docs as
 * PostgreSQL's JSON text, spliced in), `text+prepared` (and the walk's next page prepared while
 * the client writes this one: the server as it is). Not part of `npm test`.
 */
import { parseArgs } from 'node:util';
import type { ActingUser } from '../server/core/actor.ts';
import type { FeedPages } from '../server/core/deps.ts';
import { readChanges } from '../server/feed/changes.ts';
import { startTestServer } from '../server/testing.ts';
import { ownerToken } from './owner-token.ts';
import { median } from './stats.ts';

const { values } = parseArgs({ options: { transactions: { type: 'string' }, rounds: { type: 'string' }, 'write-ms': { type: 'string' } } });
const transactions = Number(values.transactions ?? 20_000);
const rounds = Number(values.rounds ?? 3);
const writeMs = Number(values['write-ms'] ?? 165);

type Walk = { ms: number; pages: number; rows: number; waitMs: number };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function walk(url: string, token: string): Promise<Walk> {
  const get = async (query: string) => {
    const res = await fetch(`${url}/v1/auth/sync/changes?${query}`, { headers: { 'RAMP-ID-TOKEN': token, 'accept-encoding': 'br' } });
    if (res.status !== 200) throw new Error(`feed: ${res.status} ${await res.text()}`);
    return (await res.json()) as { changes: unknown[]; has_more: boolean; backfill: { top: number; stage: string; before: number } };
  };
  const started = performance.now();
  let pages = 0;
  let rows = 0;
  let waitMs = 0;
  let next = get('backfill=true&limit=2000');
  for (;;) {
    const waitFrom = performance.now();
    const page = await next;
    waitMs += performance.now() - waitFrom;
    pages += 1;
    rows += page.changes.length;
    const b = page.backfill;
    if (page.has_more) next = get(`backfill=true&limit=2000&top=${b.top}&stage=${b.stage}&before=${b.before}`);
    await sleep(writeMs);
    if (!page.has_more) break;
  }
  return { ms: performance.now() - started, pages, rows, waitMs };
}

const server = await startTestServer({ transactions });
try {
  const token = await ownerToken(server.url);
  const deps = server.app.deps;
  const prepared = deps.feedPages;
  const MODES: Record<string, FeedPages> = {
    objects: { read: async (user, q) => JSON.stringify(await readChanges(deps.db, user as ActingUser, q)), close() {} },
    text: { read: async (_user, q, compute) => (await compute(q)).text, close() {} },
    'text+prepared': prepared,
  };
  const names = Object.keys(MODES);
  deps.feedPages = MODES.text!;
  await walk(server.url, token); // warm-up: caches, JIT
  const results = new Map<string, Walk[]>(names.map((n) => [n, []]));
  for (let r = 0; r < rounds; r++) {
    for (const n of r % 2 === 0 ? names : [...names].reverse()) {
      deps.feedPages = MODES[n]!;
      results.get(n)!.push(await walk(server.url, token));
    }
  }
  console.log(`feed walk of ${transactions} transactions, ${writeMs} ms written a page, median of ${rounds} walks over loopback`);
  console.log('server           pages     rows   walk ms   waited for pages ms   ms/page');
  for (const n of names) {
    const runs = results.get(n)!;
    const ms = median(runs.map((x) => x.ms));
    const wait = median(runs.map((x) => x.waitMs));
    console.log(`${n.padEnd(14)} ${String(runs[0]!.pages).padStart(6)} ${String(runs[0]!.rows).padStart(8)} ${ms.toFixed(0).padStart(9)} ${wait.toFixed(0).padStart(21)} ${(ms / runs[0]!.pages).toFixed(1).padStart(9)}`);
  }
} finally {
  await server.close();
}
