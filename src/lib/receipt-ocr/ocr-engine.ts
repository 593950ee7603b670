/**
 * One tesseract worker, created on first use, reused for the next receipts and terminated after
 * an idle spell (it holds ~40 MB of wasm memory and the language model). Platform-neutral: the
 * browser entry (`recognize-receipt.ts`) and the Node accuracy test pass their own tesseract
 * module and asset paths. Tesseract runs in its own worker (a Web Worker in the browser, a
 * worker thread in Node); this side only posts images and receives text.
 */
import type Tesseract from 'tesseract.js';
import { parseReceiptText, type ParseReceiptOptions, type ReceiptFields } from './parse-receipt-text.ts';

export type TesseractModule = Pick<typeof Tesseract, 'createWorker'>;

export interface OcrAssetPaths {
  /** tesseract.js's worker script (browser only; Node uses the package's own). */
  workerPath?: string;
  /** A directory holding tesseract.js-core's `tesseract-core-*-lstm.wasm.js`/`.js` + `.wasm`. */
  corePath?: string;
  /** A directory holding `eng.traineddata.gz`. */
  langPath: string;
}

export interface OcrProgress {
  /** tesseract's step: "loading tesseract core", "loading language traineddata", "recognizing text", … */
  status: string;
  /** 0..1 within the step. */
  progress: number;
}

export interface ReceiptOcrResult {
  text: string;
  fields: ReceiptFields;
  /** Tesseract's mean word confidence, 0..1. */
  confidence: number;
  /** Wall time of this recognition, engine start included when it had to start. */
  ms: number;
}

export type ImageInput = Blob | Uint8Array | string;

export interface OcrEngine {
  recognize(image: ImageInput, parse: ParseReceiptOptions, onProgress?: (p: OcrProgress) => void): Promise<ReceiptOcrResult>;
  /** Ends the worker now (the next call starts a new one). */
  terminate(): Promise<void>;
}

export interface OcrEngineOptions {
  load: () => Promise<TesseractModule>;
  paths: OcrAssetPaths;
  /** Terminate the worker after this long without a job. Default 60 s. */
  idleMs?: number;
  now?: () => number;
}

/** LSTM only (OEM 1): the smaller core and model; the legacy engine adds nothing for receipts. */
const OEM_LSTM_ONLY = 1;

export function createOcrEngine(opts: OcrEngineOptions): OcrEngine {
  const idleMs = opts.idleMs ?? 60_000;
  const now = opts.now ?? (() => performance.now());
  let worker: Promise<Tesseract.Worker> | null = null;
  let idle: ReturnType<typeof setTimeout> | undefined;
  let running = 0;
  // tesseract's logger is per worker: route it to whoever is recognizing now (jobs run one at a time).
  let listener: ((p: OcrProgress) => void) | undefined;

  const start = async () => {
    const T = await opts.load();
    return T.createWorker('eng', OEM_LSTM_ONLY, {
      ...(opts.paths.workerPath ? { workerPath: opts.paths.workerPath } : {}),
      ...(opts.paths.corePath ? { corePath: opts.paths.corePath } : {}),
      langPath: opts.paths.langPath,
      gzip: true,
      // A same-origin worker URL, never a blob: (the CSP's worker-src is 'self').
      workerBlobURL: false,
      // The service worker caches the model (or it sits on disk in Node): no second copy in IndexedDB.
      cacheMethod: 'none',
      logger: (m) => listener?.({ status: m.status, progress: m.progress }),
    });
  };

  const terminate = async () => {
    clearTimeout(idle);
    const w = worker;
    worker = null;
    if (w) await (await w.catch(() => null))?.terminate();
  };

  const armIdle = () => {
    clearTimeout(idle);
    idle = setTimeout(() => {
      if (running === 0) void terminate();
    }, idleMs);
    // Node: an idle timer must not keep the process (a test, the bench) alive.
    (idle as { unref?: () => void }).unref?.();
  };

  return {
    async recognize(image, parse, onProgress) {
      const t0 = now();
      running += 1;
      clearTimeout(idle);
      try {
        worker ??= start();
        const w = await worker.catch((err: unknown) => {
          worker = null; // a failed start is retried on the next receipt
          throw err;
        });
        listener = onProgress;
        const { data } = await w.recognize(image as Tesseract.ImageLike);
        const text = data.text ?? '';
        return { text, fields: parseReceiptText(text, parse), confidence: (data.confidence ?? 0) / 100, ms: now() - t0 };
      } finally {
        listener = undefined;
        running -= 1;
        armIdle();
      }
    },
    terminate,
  };
}
