/**
 * The server alone, from Node, no browser:
 * - server_page_rps / server_page_p99_ms: `GET /v1/auth/transactions?page_size=50` under
 *   CLIENTS concurrent clients on loopback for a fixed time. Each client walks the keyset list
 *   newest first, following `page.next` as a person scrolling the list does (restarting at the
 *   newest page when the list ends), so every request is a real keyset page at some depth, not
 *   one cached answer; compressed as a browser asks. The clients run in a worker thread: their HTTP and JSON work must not
 *   share the event loop of the in-process server they measure.
 * - change_feed_rows_per_s: one pull of the whole change feed from zero, as the data worker's
 *   first mirror asks it (sync/puller.ts: the backfill walk, then forward from its top, pages
 *   of SYNC_BATCH_DEFAULT, the browser's Accept-Encoding), rows received per second of wall time.
 */
import { Worker } from 'node:worker_threads';
import { SYNC_BATCH_DEFAULT } from '../schema/constants.ts';
import { ID_TOKEN_HEADER } from '../schema/api/scopes.ts';
import { apiSignIn } from '../tests/support/api.ts';
import { pgAvailable, startTestServer } from '../server/testing.ts';
import { percentile, roundMs } from './stats.ts';

export const PAGE_CLIENTS = 20;
export const PAGE_SIZE = 50;
export const DEFAULT_LOAD_SECONDS = 10;
/** What Chromium asks for: answers are compressed as the app receives them. */
const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

export interface PageLoad {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  errors: number;
  seconds: number;
  /** The deepest page any client reached (pages from the newest). */
  deepestPage: number;
}

// Plain JavaScript (the worker thread is not compiled by tsx). Each client: fetch, read the
// whole body, follow next; latencies collected per request; stop issuing once the time is up.
const LOAD_SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, header, token, acceptEncoding, clients, pageSize, durationMs } = workerData;
const latencies = [];
let errors = 0;
let deepest = 0;
const t0 = performance.now();
async function client() {
  let start = null;
  let depth = 0;
  while (performance.now() - t0 < durationMs) {
    const u = url + '/v1/auth/transactions?page_size=' + pageSize + (start ? '&start=' + encodeURIComponent(start) : '');
    const s = performance.now();
    try {
      const res = await fetch(u, { headers: { [header]: token, accept: 'application/json', 'accept-encoding': acceptEncoding } });
      const body = await res.text();
      latencies.push(performance.now() - s);
      if (res.status !== 200) { errors++; start = null; depth = 0; continue; }
      const next = JSON.parse(body).page.next;
      depth++;
      if (depth > deepest) deepest = depth;
      if (next) start = next; else { start = null; depth = 0; }
    } catch (err) {
      errors++;
      start = null;
      depth = 0;
    }
  }
}
Promise.all(Array.from({ length: clients }, client)).then(() => {
  parentPort.postMessage({ latencies, errors, seconds: (performance.now() - t0) / 1000, deepest });
});
`;

/** Runs the keyset-page load against `url` as the holder of `token`. */
export async function measureKeysetPages(
  url: string,
  token: string,
  opts: { clients?: number; seconds?: number } = {},
): Promise<PageLoad> {
  const workerData = {
    url, header: ID_TOKEN_HEADER, token, acceptEncoding: BROWSER_ACCEPT_ENCODING, clients: opts.clients ?? PAGE_CLIENTS, pageSize: PAGE_SIZE,
    durationMs: (opts.seconds ?? DEFAULT_LOAD_SECONDS) * 1000,
  };
  const out = await new Promise<{ latencies: number[]; errors: number; seconds: number; deepest: number }>((resolve, reject) => {
    const worker = new Worker(LOAD_SCRIPT, { eval: true, workerData });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => code !== 0 && reject(new Error(`keyset load worker exited with ${code}`)));
  });
  const ok = out.latencies.length - out.errors;
  if (out.errors > 0) throw new Error(`keyset page load: ${out.errors} of ${out.latencies.length} requests failed`);
  return {
    rps: Math.round((ok / out.seconds) * 10) / 10,
    p50Ms: roundMs(percentile(out.latencies, 50)),
    p99Ms: roundMs(percentile(out.latencies, 99)),
    requests: out.latencies.length,
    errors: out.errors,
    seconds: Math.round(out.seconds * 100) / 100,
    deepestPage: out.deepest,
  };
}

export interface FeedPull {
  rowsPerS: number;
  rows: number;
  requests: number;
  ms: number;
  wireBytes: number;
}

interface FeedPage {
  changes: unknown[];
  checkpoint: number;
  has_more: boolean;
  backfill?: { top: number; stage: string; before: number };
}

type Ask = { kind: 'forward'; after: number } | { kind: 'backfill'; cursor: FeedPage['backfill'] | null };

/** The puller's next page (sync/puller.ts): the walk's cursor, then forward from its top. */
function nextAsk(ask: Ask, page: FeedPage): Ask | null {
  const walk = ask.kind === 'backfill' && page.backfill !== undefined ? page.backfill : null;
  if (walk) return page.has_more ? { kind: 'backfill', cursor: walk } : { kind: 'forward', after: page.checkpoint };
  return page.has_more ? { kind: 'forward', after: page.checkpoint } : null;
}

function feedQuery(ask: Ask, limit: number): string {
  const q: Record<string, string> = ask.kind === 'forward'
    ? { after: String(ask.after), limit: String(limit) }
    : { backfill: 'true', limit: String(limit), ...(ask.cursor ? { top: String(ask.cursor.top), stage: ask.cursor.stage, before: String(ask.cursor.before) } : {}) };
  return new URLSearchParams(q).toString();
}

/** One full pull from zero as a first mirror asks it; rows received per second of wall time. */
export async function measureChangeFeed(url: string, token: string, limit = SYNC_BATCH_DEFAULT): Promise<FeedPull> {
  let ask: Ask | null = { kind: 'backfill', cursor: null };
  let rows = 0;
  let requests = 0;
  let wireBytes = 0;
  const t0 = performance.now();
  while (ask) {
    const res = await fetch(`${url}/v1/auth/sync/changes?${feedQuery(ask, limit)}`, {
      headers: { [ID_TOKEN_HEADER]: token, accept: 'application/json', 'accept-encoding': BROWSER_ACCEPT_ENCODING },
    });
    if (res.status !== 200) throw new Error(`change feed answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    wireBytes += Number(res.headers.get('content-length') ?? 0);
    const page = (await res.json()) as FeedPage;
    requests += 1;
    rows += page.changes.length;
    ask = nextAsk(ask, page);
  }
  const ms = performance.now() - t0;
  return { rowsPerS: Math.round(rows / (ms / 1000)), rows, requests, ms: roundMs(ms), wireBytes };
}

/** The PostgreSQL figures, or why there are none. */
export type PgPageLoad = { load: PageLoad; detail: string } | { load: null; detail: string };

/**
 * The same keyset-page load against PostgreSQL: a fresh database on `adminUrl` (created and
 * dropped by startTestServer), seeded like the bench's PGlite server (N transactions, M claims,
 * receipts; not the bench's 1,000 issued cards, which no transaction page shows), served by the
 * same server code with its default pool. Skipped, with the reason, when PostgreSQL does not answer.
 */
export async function measureKeysetPagesOnPg(
  adminUrl: string,
  seed: { transactions: number; reimbursements: number },
  signInAs: { email: string; password: string },
  opts: { seconds?: number; log: (msg: string) => void },
): Promise<PgPageLoad> {
  const where = redact(adminUrl);
  if (!(await pgAvailable(adminUrl))) return { load: null, detail: `not measured: PostgreSQL at ${where} did not answer` };
  opts.log(`seeding PostgreSQL at ${where} with ${seed.transactions} transactions (not timed)`);
  const server = await startTestServer({ ...seed, receipts: true, databaseUrl: adminUrl });
  try {
    const [version] = await server.db.query<{ v: string }>(`SELECT current_setting('server_version') AS v`);
    const api = await apiSignIn(server.url, signInAs.email, signInAs.password);
    opts.log(`keyset pages on PostgreSQL (${PAGE_CLIENTS} clients, ${opts.seconds ?? DEFAULT_LOAD_SECONDS} s)`);
    const load = await measureKeysetPages(server.url, api.token, { seconds: opts.seconds });
    return { load, detail: `PostgreSQL ${version?.v ?? '?'} at ${where}, a fresh database dropped afterwards` };
  } finally {
    await server.close();
  }
}

/** The URL without its password, for the report. */
function redact(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}
