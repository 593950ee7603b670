/**
 * Issue 33, the first page in a second for every person: `npx tsx bench/first-page-personas.ts
 * [--transactions 20000] [--pg] [--browser] [--runs 3] [--first-limits 200,300,500,1000]`.
 *
 * Seeds the demo business as the main benchmark does (N transactions, N / 5 reimbursements and
 * bills, receipts) on PGlite, or with `--pg` on a fresh PostgreSQL database (PG_TEST_URL), then for
 * each demo persona (owner, admin, manager, employee), `--runs` times:
 * - `first_page_api_ms`: sign-in → the walk's first page (FIRST_WALK_PAGE rows: issue 33)
 *   answered, as a fresh device asks it, over HTTP; beside it the feed page alone (`feed_page_ms`),
 *   the same page at the full batch (`feed_page_batch_ms`, 2,000 rows: what a device asked before)
 *   and the transactions list's first keyset page (`list_page_ms`, 50 rows newest first); the first
 *   page's rows by collection are logged;
 * - with `--browser` (needs `npx vite build` first): `first_page_ms`, sign-in submit → first table
 *   row painted in a fresh Chromium profile at 390 × 844 (the bench's page marks), logged with the
 *   API requests of that window and the data worker's first-page marks (sync/first-page-marks.ts:
 *   asked, received, validated, in-engine, stored), in ms after the submit.
 * Prints the median per persona; goal ≤ 1,000 ms each (docs/performance.md). Not part of `npm test`.
 */
import { parseArgs } from 'node:util';
import { ID_TOKEN_HEADER } from '../schema/api/scopes.ts';
import { SYNC_BATCH_DEFAULT } from '../schema/constants.ts';
import { FIRST_WALK_PAGE } from '../sync/puller.ts';
import { DEFAULT_PG_ADMIN_URL, startTestServer, type TestServer } from '../server/testing.ts';
import { defaultBills } from '../server/seed/bills.ts';
import { defaultReimbursements } from '../server/seed/reimbursements.ts';
import { DEMO_PASSWORD } from '../server/seed/types.ts';
import { apiSearch, apiSignIn } from '../tests/support/api.ts';
import { launchBrowser, signIn } from '../tests/support/browser.ts';
import type { Page } from 'playwright-core';
import { installProbe, pageMark } from './app-probe.ts';
import { workerCdp } from './worker-cdp.ts';
import { FIRST_PAGE_MARKS } from '../sync/first-page-marks.ts';
import { median, roundMs } from './stats.ts';

const PERSONAS = ['owner', 'admin', 'manager', 'employee'] as const;
type Sample = { first_page_api_ms: number; feed_page_ms: number; feed_page_batch_ms: number; list_page_ms: number; first_page_ms?: number };

/** `--first-limits`: the walk's first page at other sizes, back to back on a settled database (ms per limit). */
async function limitSweep(server: TestServer, email: string, limits: readonly number[]): Promise<Map<number, number>> {
  const api = await apiSignIn(server.url, email, DEMO_PASSWORD);
  const out = new Map<number, number>();
  for (const limit of limits) {
    await settle(server);
    const t0 = performance.now();
    await feedPage(server.url, api.token, limit, email);
    out.set(limit, performance.now() - t0);
  }
  return out;
}

async function apiFirstPage(server: TestServer, email: string): Promise<Sample> {
  const url = server.url;
  const t0 = performance.now();
  const api = await apiSignIn(url, email, DEMO_PASSWORD);
  const t1 = performance.now();
  // The walk's first page as a fresh device asks it (sync/puller-reducer.ts firstWalkQuery).
  const page = await feedPage(url, api.token, FIRST_WALK_PAGE, email);
  const t2 = performance.now();
  if (page.changes.length === 0) throw new Error(`${email}: an empty first page`);
  console.error(`[first-page]   ${email} first page: ${composition(page.changes)}`);
  await apiSearch(api, { pageSize: 50 });
  const t3 = performance.now();
  // The same page at the full batch (what the device asked before issue 33's change), back to back.
  await settle(server);
  const t4 = performance.now();
  await feedPage(url, api.token, SYNC_BATCH_DEFAULT, email);
  const feed_page_batch_ms = performance.now() - t4;
  return { first_page_api_ms: t2 - t0, feed_page_ms: t2 - t1, feed_page_batch_ms, list_page_ms: t3 - t2 };
}

async function feedPage(url: string, token: string, limit: number, email: string): Promise<{ changes: { collection: string }[] }> {
  const res = await fetch(`${url}/v1/auth/sync/changes?backfill=true&limit=${limit}`, { headers: { [ID_TOKEN_HEADER]: token } });
  if (!res.ok) throw new Error(`${email}: the first backfill page answered ${res.status}`);
  return (await res.json()) as { changes: { collection: string }[] };
}

/** The first page's rows by collection, in page order (runs of one collection): what the list waits behind. */
function composition(changes: readonly { collection: string }[]): string {
  const runs: [string, number][] = [];
  for (const c of changes) {
    const last = runs.at(-1);
    if (last && last[0] === c.collection) last[1]++;
    else runs.push([c.collection, 1]);
  }
  const shown = runs.slice(0, 12).map(([c, n]) => `${c} ${n}`).join(', ');
  return `${shown}${runs.length > 12 ? ` … (${runs.length} runs)` : ''}`;
}

/** One request of the sign-in → first row window, in ms after the submit. */
type Timed = { what: string; start: number; end: number };

/** The data worker's first-page milestones (sync/first-page-marks.ts), as epoch-ms instants. */
async function workerMarks(page: Page): Promise<Timed[]> {
  const worker = await workerCdp(page);
  try {
    const names = JSON.stringify(Object.values(FIRST_PAGE_MARKS));
    const expression = `JSON.stringify(${names}.flatMap((n) => performance.getEntriesByName(n, 'mark').map((m) => [n, performance.timeOrigin + m.startTime])))`;
    const { result } = await worker.send<{ result: { value: string } }>('Runtime.evaluate', { expression, returnByValue: true });
    return (JSON.parse(result.value) as [string, number][]).map(([n, t]) => ({ what: `worker: ${n.split(':').pop()}`, start: t, end: t }));
  } finally {
    await worker.close();
  }
}

/** Sign-in submit → first data row painted, on a phone-sized fresh profile; with the requests between. */
async function browserFirstPage(url: string, email: string): Promise<{ ms: number; timeline: Timed[] }> {
  const b = await launchBrowser({ baseURL: url, viewport: { width: 390, height: 844 } });
  const requests: { what: string; start: number; end: number }[] = [];
  b.context.on('requestfinished', (req) => {
    const u = new URL(req.url());
    const t = req.timing();
    requests.push({ what: `${req.method()} ${u.pathname}${u.search.includes('backfill') ? ' (backfill)' : ''}`, start: t.startTime, end: t.startTime + t.responseEnd });
  });
  try {
    await installProbe(b.context);
    await b.page.goto('/');
    await b.page.getByLabel('Email').waitFor({ timeout: 60_000 });
    await signIn(b.page, email, DEMO_PASSWORD, 120_000);
    const firstRow = await pageMark(b.page, 'first_row_painted', 120_000);
    const submit = await pageMark(b.page, 'sign_in_submit');
    // Request timings are epoch ms; the marks are on the document's clock.
    const origin = await b.page.evaluate('performance.timeOrigin') as number;
    const timeline = [...requests.filter((r) => r.what.includes(' /v1/')), ...(await workerMarks(b.page))]
      .map((r) => ({ what: r.what, start: r.start - origin - submit, end: r.end - origin - submit }))
      .filter((r) => r.end >= 0 && r.start <= firstRow - submit)
      .sort((x, y) => x.start - y.start);
    timeline.push({ what: 'first row painted', start: firstRow - submit, end: firstRow - submit });
    return { ms: firstRow - submit, timeline };
  } finally {
    await b.close();
  }
}

/** Waits until the database has nothing queued: a prepared page runs several statements in turn. */
async function settle(server: TestServer): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await server.db.query('SELECT 1');
    await new Promise((r) => setTimeout(r, 300));
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      transactions: { type: 'string' }, pg: { type: 'boolean' }, browser: { type: 'boolean' }, runs: { type: 'string' },
      'first-limits': { type: 'string' },
    },
    strict: true,
  });
  const transactions = Number(values.transactions ?? 20_000);
  const runs = Number(values.runs ?? 3);
  const limits = (values['first-limits'] ?? '').split(',').filter(Boolean).map(Number);
  const log = (m: string) => console.error(`[first-page] ${m}`);
  log(`seeding ${transactions} transactions on ${values.pg ? 'PostgreSQL' : 'PGlite'} (not timed)`);
  const server: TestServer = await startTestServer({
    transactions, reimbursements: defaultReimbursements(transactions), bills: defaultBills(transactions), receipts: true,
    serveDist: values.browser ?? false, ...(values.pg ? { databaseUrl: DEFAULT_PG_ADMIN_URL } : {}),
  });
  try {
    await server.db.exec('ANALYZE');
    const rows: string[] = [];
    const sweepRows: string[] = [];
    for (const persona of PERSONAS) {
      const email = `${persona}@demo.test`;
      const samples: Sample[] = [];
      const sweeps: Map<number, number>[] = [];
      for (let i = 0; i < runs; i++) {
        if (limits.length > 0) {
          const sweep = await limitSweep(server, email, limits);
          log(`${persona} run ${i + 1} first page by limit: ${[...sweep].map(([l, ms]) => `${l}: ${roundMs(ms)}`).join(', ')} ms`);
          sweeps.push(sweep);
          await settle(server);
        }
        const s = await apiFirstPage(server, email);
        // The API sample's answer made the server prepare its next page (feed/page-cache.ts) on
        // PGlite's one connection: the browser's first page would queue behind it.
        await settle(server);
        if (values.browser) {
          const { ms, timeline } = await browserFirstPage(server.url, email);
          s.first_page_ms = ms;
          // Where the window goes: what the client waited on between the server's answers.
          for (const r of timeline) log(`  ${persona} ${String(roundMs(r.start)).padStart(6)} → ${String(roundMs(r.end)).padStart(6)} ms  ${r.what}`);
          await settle(server); // the browser's walk left a prepared page too
        }
        samples.push(s);
        log(`${persona} run ${i + 1}: ${JSON.stringify(Object.fromEntries(Object.entries(s).map(([k, v]) => [k, roundMs(v)])))}`);
      }
      const med = (k: keyof Sample) => (samples[0]?.[k] === undefined ? '' : String(roundMs(median(samples.map((s) => s[k]!)))));
      if (limits.length > 0) sweepRows.push(`| ${persona} | ${limits.map((l) => roundMs(median(sweeps.map((m) => m.get(l)!)))).join(' | ')} |`);
      rows.push(`| ${persona} | ${med('first_page_api_ms')} | ${med('feed_page_ms')} | ${med('feed_page_batch_ms')} | ${med('list_page_ms')} | ${med('first_page_ms')} |`);
    }
    console.log(`first page per persona, ${transactions} transactions, ${values.pg ? 'PostgreSQL' : 'PGlite'}, median of ${runs} (ms)`);
    console.log('| persona | first_page_api_ms | feed_page_ms (1,000) | feed_page_batch_ms (2,000) | list_page_ms | first_page_ms (browser) |\n|---|---|---|---|---|---|');
    console.log(rows.join('\n'));
    if (limits.length > 0) {
      console.log(`\nthe walk's first page by limit, median of ${runs} (ms, server + wire)`);
      console.log(`| persona | ${limits.join(' | ')} |\n|---|${limits.map(() => '---|').join('')}`);
      console.log(sweepRows.join('\n'));
    }
  } finally {
    await server.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
