/**
 * The load test's clients (bench/load-test.ts), run in a worker thread so their HTTP and JSON work
 * stays off the thread that starts and stops the servers. Plain JavaScript: tsx does not compile
 * an eval'd worker. Each client loops until the time is up, picking one call by weight:
 * - page: `GET /v1/auth/transactions?page_size=50`, walking the keyset list through page.next
 *   (back to the newest page at its end), as a person scrolling;
 * - search: `POST /v1/auth/transactions/search` for a word of the seeded merchants;
 * - get: `GET /v1/auth/transactions/:id` of a known transaction;
 * - code: `PATCH /v1/auth/transactions/:id` (memo + GL account) with a fresh Idempotency-Key;
 * - feed: `GET /v1/auth/sync/changes?after=<checkpoint>` from the client's own checkpoint (a mirror
 *   keeping up: it sees the coding the clients write).
 * Latencies are per call and include reading the whole body; a non-2xx answer is an error.
 */
export type LoadOp = 'page' | 'search' | 'get' | 'code' | 'feed';
export const LOAD_OPS: readonly LoadOp[] = ['page', 'search', 'get', 'code', 'feed'];
/** Percent of calls per kind (sums to 100). */
export const LOAD_WEIGHTS: Record<LoadOp, number> = { page: 30, search: 30, get: 20, code: 10, feed: 10 };

export interface LoadWorkerData {
  url: string;
  header: string;
  token: string;
  acceptEncoding: string;
  clients: number;
  durationMs: number;
  /** Calls before this many ms are not recorded (connections and caches warm). */
  warmupMs: number;
  transactionIds: string[];
  glAccountIds: string[];
  searchTerms: string[];
  checkpoint: number;
  weights: Record<LoadOp, number>;
}

export interface LoadWorkerResult {
  latencies: Record<LoadOp, number[]>;
  errors: Record<LoadOp, number>;
  firstErrors: string[];
  seconds: number;
}

export const LOAD_CLIENT_SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads');
const { randomUUID } = require('node:crypto');
const d = workerData;
const ops = Object.keys(d.weights);
const latencies = Object.fromEntries(ops.map((o) => [o, []]));
const errors = Object.fromEntries(ops.map((o) => [o, 0]));
const firstErrors = [];
const t0 = performance.now();
let tick = 0;
function pick() {
  let r = Math.random() * 100;
  for (const o of ops) { r -= d.weights[o]; if (r < 0) return o; }
  return ops[0];
}
const any = (xs) => xs[Math.floor(Math.random() * xs.length)];
async function call(method, path, body, extra) {
  const headers = { [d.header]: d.token, accept: 'application/json', 'accept-encoding': d.acceptEncoding, ...extra };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(d.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (res.status < 200 || res.status > 299) throw new Error(method + ' ' + path.split('?')[0] + ' -> ' + res.status + ' ' + text.slice(0, 200));
  return text;
}
async function client() {
  let cursor = null;
  let checkpoint = d.checkpoint;
  while (performance.now() - t0 < d.durationMs) {
    const op = pick();
    const s = performance.now();
    try {
      if (op === 'page') {
        const text = await call('GET', '/v1/auth/transactions?page_size=50' + (cursor ? '&start=' + encodeURIComponent(cursor) : ''));
        cursor = JSON.parse(text).page.next || null;
      } else if (op === 'search') {
        await call('POST', '/v1/auth/transactions/search', { filters: { q: any(d.searchTerms) }, paging: { page_size: 50 } });
      } else if (op === 'get') {
        await call('GET', '/v1/auth/transactions/' + any(d.transactionIds));
      } else if (op === 'code') {
        await call('PATCH', '/v1/auth/transactions/' + any(d.transactionIds),
          { memo: 'load ' + (++tick), gl_account_id: any(d.glAccountIds) }, { 'idempotency-key': randomUUID() });
      } else {
        let more = true;
        while (more) {
          const page = JSON.parse(await call('GET', '/v1/auth/sync/changes?after=' + checkpoint + '&limit=500'));
          checkpoint = page.checkpoint;
          more = page.has_more;
        }
      }
      if (s - t0 >= d.warmupMs) latencies[op].push(performance.now() - s);
    } catch (err) {
      if (s - t0 >= d.warmupMs) errors[op]++;
      if (firstErrors.length < 5) firstErrors.push(String(err && err.message || err));
      if (op === 'page') cursor = null;
    }
  }
}
Promise.all(Array.from({ length: d.clients }, client)).then(() => {
  parentPort.postMessage({ latencies, errors, firstErrors, seconds: (performance.now() - t0 - d.warmupMs) / 1000 });
});
`;
