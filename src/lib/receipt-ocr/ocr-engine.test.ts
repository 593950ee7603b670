import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createOcrEngine, type TesseractModule } from './ocr-engine.ts';
import { overallProgress } from './use-receipt-ocr.ts';

/** A stand-in for tesseract.js: counts workers and terminations, answers with fixed text. */
function fakeTesseract(text = 'ACME\n2026-11-20\nTOTAL $9.99') {
  const calls = { created: 0, terminated: 0, options: [] as unknown[] };
  const mod = {
    createWorker: async (_lang: unknown, _oem: unknown, options: { logger?: (m: unknown) => void }) => {
      calls.created += 1;
      calls.options.push(options);
      return {
        recognize: async () => {
          options.logger?.({ status: 'recognizing text', progress: 0.5, jobId: '', userJobId: '', workerId: '' });
          return { data: { text, confidence: 91 } };
        },
        terminate: async () => {
          calls.terminated += 1;
        },
      };
    },
  } as unknown as TesseractModule;
  return { mod, calls };
}

const PARSE = { defaultCurrency: 'USD', today: '2026-11-23' };

describe('createOcrEngine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('starts one worker lazily, reuses it, and ends it after the idle time', async () => {
    const { mod, calls } = fakeTesseract();
    const engine = createOcrEngine({ load: async () => mod, paths: { langPath: '/x' }, idleMs: 1000 });
    expect(calls.created).toBe(0);
    const progress: number[] = [];
    const r = await engine.recognize('a.png', PARSE, (p) => progress.push(p.progress));
    await engine.recognize('b.png', PARSE);
    expect(calls.created).toBe(1);
    expect(r.fields).toEqual({ amount: { minor: 999, currency: 'USD' }, date: '2026-11-20', merchant: 'ACME' });
    expect(r.confidence).toBeCloseTo(0.91);
    expect(progress).toEqual([0.5]);
    await vi.advanceTimersByTimeAsync(999);
    expect(calls.terminated).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.terminated).toBe(1);
    await engine.recognize('c.png', PARSE);
    expect(calls.created).toBe(2);
  });

  it('asks tesseract for a same-origin worker URL and no IndexedDB copy of the model', async () => {
    const { mod, calls } = fakeTesseract();
    const engine = createOcrEngine({ load: async () => mod, paths: { workerPath: '/w.js', corePath: '/c.js', langPath: '/l' } });
    await engine.recognize('a.png', PARSE);
    expect(calls.options[0]).toMatchObject({ workerPath: '/w.js', corePath: '/c.js', langPath: '/l', workerBlobURL: false, cacheMethod: 'none', gzip: true });
    await engine.terminate();
  });

  it('retries the start after a failed one', async () => {
    const { mod, calls } = fakeTesseract();
    let fail = true;
    const engine = createOcrEngine({
      load: async () => {
        if (fail) throw new Error('offline, not cached');
        return mod;
      },
      paths: { langPath: '/x' },
    });
    await expect(engine.recognize('a.png', PARSE)).rejects.toThrow('offline');
    fail = false;
    await engine.recognize('a.png', PARSE);
    expect(calls.created).toBe(1);
    await engine.terminate();
  });
});

describe('overallProgress', () => {
  it.each([
    [{ status: 'loading tesseract core', progress: 1 }, 0.1],
    [{ status: 'loading language traineddata', progress: 0.5 }, 0.25],
    [{ status: 'recognizing text', progress: 0 }, 0.4],
    [{ status: 'recognizing text', progress: 1 }, 1],
    [{ status: 'recognizing text', progress: Number.NaN }, 0.4],
  ])('%o → %d', (p, want) => {
    expect(overallProgress(p)).toBeCloseTo(want);
  });
});
