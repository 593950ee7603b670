/**
 * Issue 33, the first page in a second for every person: `npx tsx bench/first-page-personas.ts
 * [--transactions 20000] [--pg] [--browser] [--runs 3]`.
 *
 * Seeds the demo business as the main benchmark does (N transactions, N / 5 reimbursements and
 * bills, receipts) on PGlite, or with `--pg` on a fresh PostgreSQL database (PG_TEST_URL), then for
 * each demo persona (owner, admin, manager, employee), `--runs` times:
 * - `first_page_api_ms`: sign-in → the first backfill page (2,000 rows, the puller's batch) answered,
 *   as a fresh device asks it, over HTTP; beside it the feed page alone (`feed_page_ms`) and the
 *   transactions list's first keyset page (`list_page_ms`, 50 rows newest first);
 * - with `--browser` (needs `npx vite build` first): `first_page_ms`, sign-in submit → first table
 *   row painted in a fresh Chromium profile at 390 × 844 (the bench's page marks).
 * Prints the median per persona; goal ≤ 1,000 ms each (docs/performance.md). Not part of `npm test`.
 */
import { parseArgs } from 'node:util';
import { ID_TOKEN_HEADER } from '../schema/api/scopes.ts';
import { SYNC_BATCH_DEFAULT } from '../schema/constants.ts';
import { DEFAULT_PG_ADMIN_URL, startTestServer, type TestServer } from '../server/testing.ts';
import { defaultBills } from '../server/seed/bills.ts';
import { defaultReimbursements } from '../server/seed/reimbursements.ts';
import { DEMO_PASSWORD } from '../server/seed/types.ts';
import { apiSearch, apiSignIn } from '../tests/support/api.ts';
import { launchBrowser, signIn } from '../tests/support/browser.ts';
import { installProbe, pageMark } from './app-probe.ts';
import { median, roundMs } from './stats.ts';

const PERSONAS = ['owner', 'admin', 'manager', 'employee'] as const;
type Sample = { first_page_api_ms: number; feed_page_ms: number; list_page_ms: number; first_page_ms?: number };

async function apiFirstPage(url: string, email: string): Promise<Sample> {
  const t0 = performance.now();
  const api = await apiSignIn(url, email, DEMO_PASSWORD);
  const t1 = performance.now();
  const res = await fetch(`${url}/v1/auth/sync/changes?backfill=true&limit=${SYNC_BATCH_DEFAULT}`, { headers: { [ID_TOKEN_HEADER]: api.token } });
  if (!res.ok) throw new Error(`${email}: the first backfill page answered ${res.status}`);
  const page = (await res.json()) as { changes: unknown[] };
  const t2 = performance.now();
  if (page.changes.length === 0) throw new Error(`${email}: an empty first page`);
  await apiSearch(api, { pageSize: 50 });
  const t3 = performance.now();
  return { first_page_api_ms: t2 - t0, feed_page_ms: t2 - t1, list_page_ms: t3 - t2 };
}

/** Sign-in submit → first data row painted, on a phone-sized fresh profile. */
async function browserFirstPage(url: string, email: string): Promise<number> {
  const b = await launchBrowser({ baseURL: url, viewport: { width: 390, height: 844 } });
  try {
    await installProbe(b.context);
    await b.page.goto('/');
    await b.page.getByLabel('Email').waitFor({ timeout: 60_000 });
    await signIn(b.page, email, DEMO_PASSWORD, 120_000);
    const firstRow = await pageMark(b.page, 'first_row_painted', 120_000);
    return firstRow - (await pageMark(b.page, 'sign_in_submit'));
  } finally {
    await b.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { transactions: { type: 'string' }, pg: { type: 'boolean' }, browser: { type: 'boolean' }, runs: { type: 'string' } },
    strict: true,
  });
  const transactions = Number(values.transactions ?? 20_000);
  const runs = Number(values.runs ?? 3);
  const log = (m: string) => console.error(`[first-page] ${m}`);
  log(`seeding ${transactions} transactions on ${values.pg ? 'PostgreSQL' : 'PGlite'} (not timed)`);
  const server: TestServer = await startTestServer({
    transactions, reimbursements: defaultReimbursements(transactions), bills: defaultBills(transactions), receipts: true,
    serveDist: values.browser ?? false, ...(values.pg ? { databaseUrl: DEFAULT_PG_ADMIN_URL } : {}),
  });
  try {
    await server.db.exec('ANALYZE');
    const rows: string[] = [];
    for (const persona of PERSONAS) {
      const email = `${persona}@demo.test`;
      const samples: Sample[] = [];
      for (let i = 0; i < runs; i++) {
        const s = await apiFirstPage(server.url, email);
        if (values.browser) s.first_page_ms = await browserFirstPage(server.url, email);
        samples.push(s);
        log(`${persona} run ${i + 1}: ${JSON.stringify(Object.fromEntries(Object.entries(s).map(([k, v]) => [k, roundMs(v)])))}`);
      }
      const med = (k: keyof Sample) => (samples[0]?.[k] === undefined ? '' : String(roundMs(median(samples.map((s) => s[k]!)))));
      rows.push(`| ${persona} | ${med('first_page_api_ms')} | ${med('feed_page_ms')} | ${med('list_page_ms')} | ${med('first_page_ms')} |`);
    }
    console.log(`first page per persona, ${transactions} transactions, ${values.pg ? 'PostgreSQL' : 'PGlite'}, median of ${runs} (ms)`);
    console.log('| persona | first_page_api_ms | feed_page_ms | list_page_ms | first_page_ms (browser) |\n|---|---|---|---|---|');
    console.log(rows.join('\n'));
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
