/**
 * The real engine (tesseract.js in Node, worker thread, model from node_modules) over the
 * generated receipts of tests/fixtures/receipts. Measured on 2026-11-23: 12/12 amounts, 12/12
 * dates, 12/12 merchants; the bar leaves room for engine or font drift. ~1–2 s per receipt.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OCR_MODEL } from '../../../build/ocr-assets.ts';
import { RECEIPTS_DIR, readTruth, scoreFields, tally, type FieldScore } from './receipt-score.ts';
import { createOcrEngine } from './ocr-engine.ts';

const require = createRequire(import.meta.url);
const langPath = join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), OCR_MODEL);

describe('receipt OCR accuracy on the generated receipts', () => {
  const engine = createOcrEngine({ load: async () => (await import('tesseract.js')).default, paths: { langPath } });
  afterAll(() => engine.terminate());

  it('reads at least 10 of 12 amounts and dates, 9 of 12 merchants', { timeout: 180_000 }, async () => {
    const { today, receipts } = readTruth();
    const scores: FieldScore[] = [];
    const misses: string[] = [];
    for (const r of receipts) {
      const image = new Uint8Array(readFileSync(join(RECEIPTS_DIR, r.file)));
      const res = await engine.recognize(image, { defaultCurrency: r.defaultCurrency, today });
      const score = scoreFields(res.fields, r);
      scores.push(score);
      if (!score.amount || !score.date || !score.merchant) misses.push(`${r.file}: ${JSON.stringify(res.fields)}`);
    }
    const total = tally(scores);
    console.info(`receipt OCR accuracy: amount ${total.amount}/12, date ${total.date}/12, merchant ${total.merchant}/12`, misses);
    expect(total.amount).toBeGreaterThanOrEqual(10);
    expect(total.date).toBeGreaterThanOrEqual(10);
    expect(total.merchant).toBeGreaterThanOrEqual(9);
  });
});
