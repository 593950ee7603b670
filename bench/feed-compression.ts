/**
 * Does compressing API answers slow the change feed? `npx tsx bench/feed-compression.ts
 * --transactions 20000`: the real server (PGlite, seeded) pulled over loopback HTTP page by page,
 * as the data worker does on a first mirror, once per Accept-Encoding, in alternating rounds.
 * Loopback has no bandwidth limit, so the times show the CPU cost alone; the bytes show the
 * saving a real network would turn into time. Not part of `npm test`.
 */
import { parseArgs } from 'node:util';
import { startTestServer } from '../server/testing.ts';
import { ownerToken } from './owner-token.ts';
import { median } from './stats.ts';

const { values } = parseArgs({ options: { transactions: { type: 'string' }, rounds: { type: 'string' } } });
const transactions = Number(values.transactions ?? 20_000);
const rounds = Number(values.rounds ?? 3);
const ENCODINGS = ['identity', 'gzip', 'br'] as const;

type Pull = { ms: number; wireBytes: number; pages: number; rows: number };

async function pullFeed(url: string, token: string, encoding: string): Promise<Pull> {
  let after = 0;
  let wireBytes = 0;
  let pages = 0;
  let rows = 0;
  const started = performance.now();
  for (;;) {
    const res = await fetch(`${url}/v1/auth/sync/changes?after=${after}`, {
      headers: { 'RAMP-ID-TOKEN': token, 'accept-encoding': encoding },
    });
    if (res.status !== 200) throw new Error(`feed: ${res.status} ${await res.text()}`);
    const got = res.headers.get('content-encoding') ?? 'identity';
    if (got !== encoding) throw new Error(`asked for ${encoding}, got ${got}`);
    wireBytes += Number(res.headers.get('content-length'));
    // fetch (undici) decodes br/gzip itself, as the browser does.
    const page = (await res.json()) as { changes: unknown[]; checkpoint: number; has_more: boolean };
    pages += 1;
    rows += page.changes.length;
    after = page.checkpoint;
    if (!page.has_more) break;
  }
  return { ms: performance.now() - started, wireBytes, pages, rows };
}

const server = await startTestServer({ transactions });
try {
  const token = await ownerToken(server.url);
  await pullFeed(server.url, token, 'identity'); // warm-up: caches, JIT
  const results = new Map<string, Pull[]>(ENCODINGS.map((e) => [e, []]));
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? ENCODINGS : [...ENCODINGS].reverse();
    for (const e of order) results.get(e)?.push(await pullFeed(server.url, token, e));
  }
  console.log(`feed of ${transactions} transactions, median of ${rounds} full pulls over loopback`);
  console.log('encoding   pages     rows   wire KiB   ms (full pull)   ms/page');
  for (const e of ENCODINGS) {
    const runs = results.get(e) ?? [];
    const first = runs[0];
    if (!first) continue;
    const ms = median(runs.map((x) => x.ms));
    console.log(
      `${e.padEnd(9)} ${String(first.pages).padStart(6)} ${String(first.rows).padStart(8)} ${(first.wireBytes / 1024).toFixed(0).padStart(10)} ${ms.toFixed(0).padStart(16)} ${(ms / first.pages).toFixed(1).padStart(9)}`,
    );
  }
} finally {
  await server.close();
}
