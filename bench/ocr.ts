/**
 * receipt_ocr_ms: on-device receipt OCR in Chromium, through the built app's own asset path.
 * A page of the app (served by the real server, under its CSP) loads tesseract.js's client
 * (evaluated through DevTools: the CSP refuses an injected script, as for axe), which starts
 * tesseract's worker from dist/assets/ocr-<hash>/ with the same options the app uses
 * (src/lib/receipt-ocr/ocr-engine.ts). Every generated receipt of tests/fixtures/receipts is
 * read once to warm up, then timed; the text is parsed in Node with the app's parser and scored
 * against truth.json. `npm run bench -- --only ocr` runs this part alone.
 */
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type Tesseract from 'tesseract.js';
import { parseReceiptText } from '../src/lib/receipt-ocr/parse-receipt-text.ts';
import { RECEIPTS_DIR, readTruth, scoreFields, tally } from '../src/lib/receipt-ocr/receipt-score.ts';
import type { BrowserSession } from '../tests/support/browser.ts';
import { percentile, roundMs } from './stats.ts';

export interface OcrBench {
  receipt_ocr_ms: number;
  receipt_ocr_p95_ms: number;
  details: Record<string, number | string>;
}

/** The emitted OCR directory of dist/ (build/ocr-assets.ts), as a URL path. */
async function ocrDir(distDir: string): Promise<string> {
  // Directories only: `ocr-prefetch-worker-*.js` (the warm-up's worker chunk) sits beside it.
  const dirs = (await readdir(join(distDir, 'assets'), { withFileTypes: true })).filter((d) => d.isDirectory() && d.name.startsWith('ocr-')).map((d) => d.name);
  if (dirs.length !== 1) throw new Error(`bench: expected one dist/assets/ocr-* directory, found ${dirs.length}`);
  return `/assets/${dirs[0]}`;
}

type PageOcr = { ms: number; text: string; confidence: number };

async function startEngine(page: Page, dir: string): Promise<number> {
  const require = createRequire(import.meta.url);
  await page.evaluate(await readFile(require.resolve('tesseract.js/dist/tesseract.min.js'), 'utf8'));
  return page.evaluate(async (base) => {
    const T = (globalThis as unknown as { Tesseract: typeof Tesseract }).Tesseract;
    const simd = WebAssembly.validate(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]));
    const t0 = performance.now();
    const worker = await T.createWorker('eng', 1, {
      workerPath: `${base}/worker.min.js`,
      corePath: `${base}/${simd ? 'tesseract-core-simd-lstm' : 'tesseract-core-lstm'}.js`,
      langPath: base,
      gzip: true,
      workerBlobURL: false,
      cacheMethod: 'none',
    });
    (globalThis as unknown as { __ocr: unknown }).__ocr = worker;
    return performance.now() - t0;
  }, dir);
}

function recognizeInPage(page: Page, png: Buffer): Promise<PageOcr> {
  return page.evaluate(async (b64) => {
    const worker = (globalThis as unknown as { __ocr: Tesseract.Worker }).__ocr;
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const t0 = performance.now();
    const { data } = await worker.recognize(new Blob([bytes], { type: 'image/png' }));
    return { ms: performance.now() - t0, text: data.text, confidence: data.confidence };
  }, png.toString('base64'));
}

export async function measureReceiptOcr(b: BrowserSession, distDir: string, log: (msg: string) => void): Promise<OcrBench> {
  const dir = await ocrDir(distDir);
  const { today, receipts } = readTruth();
  const images = await Promise.all(receipts.map((r) => readFile(join(RECEIPTS_DIR, r.file))));
  const cspBefore = b.cspViolations.length;
  const page = await b.context.newPage();
  try {
    await page.goto('/sign-in');
    const startMs = await startEngine(page, dir);
    log(`OCR engine started from ${dir} in ${Math.round(startMs)} ms; ${receipts.length} receipts, one warm-up pass`);
    const first = await recognizeInPage(page, images[0]!);
    for (const img of images.slice(1)) await recognizeInPage(page, img);
    const runs: PageOcr[] = [];
    for (const img of images) runs.push(await recognizeInPage(page, img));
    const scores = runs.map((run, i) => scoreFields(parseReceiptText(run.text, { defaultCurrency: receipts[i]!.defaultCurrency, today }), receipts[i]!));
    const ok = tally(scores);
    const misses = receipts.filter((_, i) => !(scores[i]!.amount && scores[i]!.date && scores[i]!.merchant)).map((r) => r.file);
    const n = receipts.length;
    log(`OCR accuracy: amount ${ok.amount}/${n}, date ${ok.date}/${n}, merchant ${ok.merchant}/${n}`);
    const times = runs.map((r) => r.ms);
    return {
      receipt_ocr_ms: roundMs(percentile(times, 50)),
      receipt_ocr_p95_ms: roundMs(percentile(times, 95)),
      details: {
        receipt_ocr_receipts: n,
        receipt_ocr_amount_correct: `${ok.amount}/${n}`,
        receipt_ocr_date_correct: `${ok.date}/${n}`,
        receipt_ocr_merchant_correct: `${ok.merchant}/${n}`,
        receipt_ocr_misses: misses.join(' ') || 'none',
        receipt_ocr_engine_start_ms: roundMs(startMs),
        receipt_ocr_first_receipt_ms: roundMs(first.ms),
        receipt_ocr_mean_confidence: Math.round(runs.reduce((s, r) => s + r.confidence, 0) / n),
        receipt_ocr_csp_violations: b.cspViolations.length - cspBefore,
        receipt_ocr_assets: dir,
      },
    };
  } finally {
    await page.evaluate(async () => {
      await (globalThis as unknown as { __ocr?: Tesseract.Worker }).__ocr?.terminate();
    }).catch(() => {});
    await page.close();
  }
}

/**
 * `npm run bench -- --only ocr`: the OCR part alone, on its own small server (the app's pages
 * and CSP are what matter here, not the data) and a fresh browser profile.
 */
export async function runOcrBenchmark(distDir: string, log: (msg: string) => void): Promise<OcrBench> {
  const { startTestServer } = await import('../server/testing.ts');
  const { launchBrowser } = await import('../tests/support/browser.ts');
  const server = await startTestServer({ transactions: 100, serveDist: true });
  let browser: BrowserSession | null = null;
  try {
    browser = await launchBrowser({ baseURL: server.url });
    const result = await measureReceiptOcr(browser, distDir, log);
    if (browser.cspViolations.length) log(`CSP violations: ${browser.cspViolations.join(' | ')}`);
    return result;
  } finally {
    await browser?.close();
    await server.close();
  }
}
