/**
 * Lighthouse figures and screenshots of the main screens:
 * `npm run lighthouse` (`-- --transactions 20000 --skip-build --no-screenshots --lhr-dir /tmp/lhr`;
 * `--runs 3 --form-factors mobile`: three mobile audits of each page on one seed and one mirror;
 * `--pages transactions`: only that page, e.g. to profile it).
 *
 * Real parts only, as the benchmark: the built PWA (dist/), the real server (server/testing.ts,
 * PGlite in a temporary directory, the demo business) and Debian's Chromium on a fresh profile.
 * Lighthouse is not a project dependency (it is large and only this script needs it): the first
 * run installs the pinned version into node_modules/.cache/lighthouse from the npm registry.
 *
 * Audited: the sign-in page cold (storage reset, as a first visit), and the transactions page of
 * a signed-in admin whose device holds the mirror (storage kept: how a returning person opens the
 * installed app), each with Lighthouse's mobile and desktop settings (simulated throttling).
 * Writes docs/lighthouse.md (the table), docs/lighthouse.json (the figures) and PNG screenshots
 * of the main screens at desktop (1280×800) and phone (390×844) size into docs/screenshots/.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import { z } from 'zod';
import { startTestServer } from '../server/testing.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH, pollPage, signIn, waitForServiceWorkerControl, waitForSyncStatus } from '../tests/support/browser.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const LIGHTHOUSE_VERSION = '13.5.0';
const LH_DIR = join(ROOT, 'node_modules', '.cache', 'lighthouse');
const DEMO_PASSWORD = 'demo-password-1';

const argsSchema = z.object({
  transactions: z.coerce.number().int().min(100).max(200_000).default(20_000),
  'skip-build': z.boolean().default(false),
  'no-screenshots': z.boolean().default(false),
  /** Where to keep each run's whole Lighthouse report (long tasks, bootup time) and its Chrome trace, for a profile. */
  'lhr-dir': z.string().optional(),
  /** Audits per page and form factor (one seed, one mirror): scores vary from run to run, a median needs three. */
  runs: z.coerce.number().int().min(1).max(9).default(1),
  /** `mobile`, `desktop` or both (comma-separated). */
  'form-factors': z.string().default('mobile,desktop').transform((v, ctx) => {
    const list = v.split(',').map((f) => f.trim()).filter(Boolean);
    if (list.length === 0 || list.some((f) => f !== 'mobile' && f !== 'desktop')) {
      ctx.addIssue({ code: 'custom', message: 'form-factors: mobile, desktop or both' });
      return z.NEVER;
    }
    return list as FormFactor[];
  }),
  /** `sign-in`, `transactions` or both (comma-separated). */
  pages: z.string().default('sign-in,transactions').transform((v, ctx) => {
    const list = v.split(',').map((p) => p.trim()).filter(Boolean);
    if (list.length === 0 || list.some((p) => p !== 'sign-in' && p !== 'transactions')) {
      ctx.addIssue({ code: 'custom', message: 'pages: sign-in, transactions or both' });
      return z.NEVER;
    }
    return list;
  }),
});

type FormFactor = 'mobile' | 'desktop';
type Row = {
  page: string;
  run: number;
  form_factor: FormFactor;
  performance: number;
  accessibility: number;
  best_practices: number;
  seo: number;
  fcp_ms: number;
  lcp_ms: number;
  tbt_ms: number;
  cls: number;
  speed_index_ms: number;
  failed_audits: string[];
};

type LighthouseResult = {
  /** The run's artifacts: `Trace` is the page load's Chrome trace (written beside the report for a profile). */
  artifacts?: { Trace?: unknown };
  lhr: {
    categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
    audits: Record<string, { numericValue?: number; score: number | null; title: string; scoreDisplayMode: string }>;
    runWarnings: string[];
    runtimeError?: { code: string; message: string };
  };
};
type LighthouseFn = (url: string, flags: Record<string, unknown>, config?: unknown) => Promise<LighthouseResult | undefined>;

function ensureLighthouse(): string {
  const entry = join(LH_DIR, 'node_modules', 'lighthouse', 'core', 'index.js');
  if (existsSync(entry)) return entry;
  console.log(`lighthouse: installing lighthouse@${LIGHTHOUSE_VERSION} into ${LH_DIR}`);
  spawnSync('mkdir', ['-p', LH_DIR], { stdio: 'inherit' });
  if (!existsSync(join(LH_DIR, 'package.json'))) {
    spawnSync('sh', ['-c', `echo '{"name":"ledgerline-lighthouse","private":true}' > package.json`], { cwd: LH_DIR });
  }
  const res = spawnSync('npm', ['install', '--no-audit', '--no-fund', `lighthouse@${LIGHTHOUSE_VERSION}`], { cwd: LH_DIR, stdio: 'inherit' });
  if (res.status !== 0 || !existsSync(entry)) throw new Error('lighthouse: install failed');
  return entry;
}

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? done(addr.port) : fail(new Error('no port'))));
    });
  });
}

const score = (s: number | null | undefined) => Math.round((s ?? 0) * 100);
const ms = (v: number | undefined) => Math.round(v ?? 0);

function summarise(pageName: string, run: number, formFactor: FormFactor, result: LighthouseResult): Row {
  const { categories, audits } = result.lhr;
  const failed = ['accessibility', 'best-practices', 'seo']
    .flatMap((c) => categories[c]?.auditRefs ?? [])
    .filter((ref) => ref.weight > 0 && audits[ref.id]?.scoreDisplayMode === 'binary' && audits[ref.id]?.score === 0)
    .map((ref) => ref.id);
  return {
    page: pageName,
    run,
    form_factor: formFactor,
    performance: score(categories.performance?.score),
    accessibility: score(categories.accessibility?.score),
    best_practices: score(categories['best-practices']?.score),
    seo: score(categories.seo?.score),
    fcp_ms: ms(audits['first-contentful-paint']?.numericValue),
    lcp_ms: ms(audits['largest-contentful-paint']?.numericValue),
    tbt_ms: ms(audits['total-blocking-time']?.numericValue),
    cls: Number((audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3)),
    speed_index_ms: ms(audits['speed-index']?.numericValue),
    failed_audits: failed,
  };
}

async function screenshot(page: Page, dir: string, name: string): Promise<void> {
  // The screen as a person sees it once it has opened: no skeleton, no "Opening your saved …".
  await pollPage(
    page,
    () => !document.querySelector('[aria-busy="true"]') && !/Opening your saved|Loading…/.test(document.body.innerText),
    undefined,
    { timeout: 60_000 },
  );
  await waitForSyncStatus(page, 'All changes synced', 120_000);
  await page.waitForTimeout(300); // let transitions settle
  await page.screenshot({ path: join(dir, `${name}.png`) });
}

/** PNG screenshots of the main screens at desktop and phone size, into docs/screenshots/. */
async function screenshots(page: Page): Promise<void> {
  const dir = join(ROOT, 'docs', 'screenshots');
  await mkdir(dir, { recursive: true });
  await page.bringToFront();
  for (const [layout, size] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(size);
    await page.goto('/transactions');
    await page.getByRole('grid', { name: 'Transactions' }).or(page.getByRole('list', { name: 'Transactions' })).first().waitFor();
    await waitForSyncStatus(page, 'All changes synced', 120_000);
    await screenshot(page, dir, `${layout}-transactions`);
    const firstRow = page.getByRole('row').nth(1).or(page.getByRole('listitem').first()).first();
    await firstRow.click();
    await page.getByRole('dialog').first().waitFor();
    await screenshot(page, dir, `${layout}-transaction-detail`);
    await page.keyboard.press('Escape');
    for (const [name, path] of [
      ['reimbursements', '/reimbursements'],
      ['approvals', '/approvals'],
      ['settings', '/settings'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('main').waitFor();
      // The SPA answers every path; a screen not built yet shows the in-shell 404 page.
      if (await page.getByText('There is nothing at this address').isVisible()) continue;
      await screenshot(page, dir, `${layout}-${name}`);
    }
  }
}

function readArgs() {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      transactions: { type: 'string' },
      'skip-build': { type: 'boolean' },
      'no-screenshots': { type: 'boolean' },
      'lhr-dir': { type: 'string' },
      runs: { type: 'string' },
      'form-factors': { type: 'string' },
      pages: { type: 'string' },
    },
    strict: true,
  });
  return argsSchema.parse(values);
}

async function main(): Promise<void> {
  const args = readArgs();
  if (!args['skip-build']) {
    const build = spawnSync('npx', ['vite', 'build'], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('lighthouse: vite build failed');
  }
  const lhEntry = ensureLighthouse();
  const lighthouse = (await import(pathToFileURL(lhEntry).href)).default as LighthouseFn;
  const desktopConfig = (await import(pathToFileURL(join(dirname(lhEntry), 'config', 'desktop-config.js')).href)).default;

  console.log(`lighthouse: seeding ${args.transactions} transactions`);
  const server = await startTestServer({ transactions: args.transactions, serveDist: true });
  const port = await freePort();
  const userDataDir = await mkdtemp(join(tmpdir(), 'ledgerline-lighthouse-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`],
    baseURL: server.url,
    viewport: { width: 1280, height: 800 },
    serviceWorkers: 'allow',
  });
  const rows: Row[] = [];
  try {
    const audit = async (pageName: string, path: string, formFactor: FormFactor, keepStorage: boolean, run: number) => {
      const flags = {
        port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
        disableStorageReset: keepStorage,
      };
      let result: LighthouseResult | undefined;
      // A run Lighthouse could not measure (runtimeError, e.g. no paint seen) is tried again, twice at most.
      for (let attempt = 1; attempt <= 3; attempt++) {
        result = await lighthouse(`${server.url}${path}`, flags, formFactor === 'desktop' ? desktopConfig : undefined);
        const error = result?.lhr.runtimeError;
        if (result && !error) break;
        console.log(`lighthouse: ${path} (${formFactor}) attempt ${attempt} failed: ${error ? `${error.code} ${error.message}` : 'no result'}`);
        if (attempt === 3) throw new Error(`lighthouse: ${path} (${formFactor}) could not be measured`);
      }
      if (!result) throw new Error(`lighthouse: no result for ${path}`);
      const row = summarise(pageName, run, formFactor, result);
      const lhrDir = args['lhr-dir'];
      if (lhrDir) {
        await mkdir(lhrDir, { recursive: true });
        const name = `${path.replace(/\W+/g, '')}-${formFactor}${args.runs > 1 ? `-run${run}` : ''}`;
        await writeFile(join(lhrDir, `${name}.json`), JSON.stringify(result.lhr));
        // The Chrome trace too (DevTools → Performance → Load profile): which function each long task runs.
        if (result.artifacts?.Trace) await writeFile(join(lhrDir, `${name}.trace.json`), JSON.stringify(result.artifacts.Trace));
      }
      console.log(`lighthouse: ${pageName} (${formFactor}, run ${run}) perf ${row.performance} a11y ${row.accessibility} bp ${row.best_practices} seo ${row.seo} TBT ${row.tbt_ms} ms LCP ${row.lcp_ms} ms`);
      rows.push(row);
    };

    const auditAll = async (pageName: string, path: string, keepStorage: boolean) => {
      for (let run = 1; run <= args.runs; run++) {
        for (const formFactor of args['form-factors']) await audit(pageName, path, formFactor, keepStorage, run);
      }
    };
    // A first visit: storage reset before each run.
    if (args.pages.includes('sign-in')) await auditAll('Sign-in (first visit)', '/sign-in', false);

    // A returning admin: signed in, mirror complete, service worker in control.
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto('/sign-in');
    await signIn(page, 'admin@demo.test', DEMO_PASSWORD, 60_000);
    await waitForServiceWorkerControl(page, 120_000);
    await waitForSyncStatus(page, 'All changes synced', 600_000);
    if (args.pages.includes('transactions')) await auditAll('Transactions (signed in, mirrored)', '/transactions', true);

    if (!args['no-screenshots']) await screenshots(page);
  } finally {
    await context.close();
    await rm(userDataDir, { recursive: true, force: true });
    await server.close();
  }

  const when = new Date().toISOString().slice(0, 10);
  const table = [
    '| page | form factor | performance | accessibility | best practices | SEO | FCP | LCP | TBT | CLS | speed index | failed audits |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows.map(
      (r) =>
        `| ${r.page}${args.runs > 1 ? ` (run ${r.run})` : ''} | ${r.form_factor} | ${r.performance} | ${r.accessibility} | ${r.best_practices} | ${r.seo} | ${r.fcp_ms} ms | ${r.lcp_ms} ms | ${r.tbt_ms} ms | ${r.cls} | ${r.speed_index_ms} ms | ${r.failed_audits.join(', ') || '—'} |`,
    ),
  ].join('\n');
  const doc = `# Lighthouse\n\nMeasured ${when} by \`npm run lighthouse -- --transactions ${args.transactions}\` (Lighthouse ${LIGHTHOUSE_VERSION}, Debian Chromium, simulated throttling; a 2-core machine).\nThe sign-in page is audited as a first visit (storage reset); the transactions page as a returning admin whose device holds the mirror and whose service worker is in control.\n\n${table}\n\nScreenshots of the main screens at desktop (1280×800) and phone (390×844) size: \`docs/screenshots/\`.\n`;
  await writeFile(join(ROOT, 'docs', 'lighthouse.md'), doc);
  await writeFile(join(ROOT, 'docs', 'lighthouse.json'), `${JSON.stringify({ measured: when, transactions: args.transactions, rows }, null, 2)}\n`);
  console.log(table);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
