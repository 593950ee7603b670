/**
 * `useReceiptOcr()`: what a form calls with a receipt image to prefill its fields. The engine
 * (tesseract.js, ~4 MB with the model) is imported on the first `read`, never with the form.
 * The person confirms what is prefilled: nothing here submits anything.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { OcrProgress, ReceiptOcrResult } from './ocr-engine.ts';
import type { ParseReceiptOptions } from './parse-receipt-text.ts';

export type ReceiptOcrState =
  | { status: 'idle' }
  | { status: 'reading'; progress: number; step: string }
  | { status: 'done'; result: ReceiptOcrResult }
  | { status: 'failed'; error: unknown };

/**
 * Overall progress 0..1 from tesseract's per-step logger: starting the engine and loading the
 * model take the first 40 %, recognising the rest (a cached engine jumps straight to 40 %).
 */
export function overallProgress(p: OcrProgress): number {
  const clamp = (n: number) => Math.min(1, Math.max(0, Number.isFinite(n) ? n : 0));
  if (p.status === 'recognizing text') return 0.4 + 0.6 * clamp(p.progress);
  if (/traineddata|language/.test(p.status)) return 0.1 + 0.3 * clamp(p.progress);
  return 0.1 * clamp(p.progress);
}

export interface UseReceiptOcr {
  state: ReceiptOcrState;
  /** Reads the image; resolves with the result (also in `state`), or null if it failed or was superseded. */
  read(image: Blob, opts?: Partial<ParseReceiptOptions>): Promise<ReceiptOcrResult | null>;
  /** Back to idle (a reading in flight is then ignored). */
  reset(): void;
  /** Warms the offline cache with the engine and model, e.g. when the form opens online. */
  prefetch(): Promise<void>;
}

export function useReceiptOcr(): UseReceiptOcr {
  const [state, setState] = useState<ReceiptOcrState>({ status: 'idle' });
  const generation = useRef(0);
  useEffect(
    () => () => {
      generation.current += 1; // unmounted: late results are dropped
    },
    [],
  );

  const read = useCallback(async (image: Blob, opts: Partial<ParseReceiptOptions> = {}) => {
    const mine = ++generation.current;
    const current = () => generation.current === mine;
    setState({ status: 'reading', progress: 0, step: 'loading' });
    try {
      const { recognizeReceipt } = await import('./recognize-receipt.ts');
      const result = await recognizeReceipt(image, {
        ...opts,
        onProgress: (p) => {
          if (current()) setState({ status: 'reading', progress: overallProgress(p), step: p.status });
        },
      });
      if (!current()) return null;
      setState({ status: 'done', result });
      return result;
    } catch (error) {
      if (current()) setState({ status: 'failed', error });
      return null;
    }
  }, []);

  const reset = useCallback(() => {
    generation.current += 1;
    setState({ status: 'idle' });
  }, []);

  const prefetch = useCallback(async () => {
    const { prefetchReceiptOcr } = await import('./recognize-receipt.ts');
    await prefetchReceiptOcr();
  }, []);

  return { state, read, reset, prefetch };
}
