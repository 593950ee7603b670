/**
 * A read asked on every data change, run one at a time and paced by its own cost (issue 33: the
 * nav's missing items read every transaction of the signed-in person, and a first mirror changes
 * data once per feed batch, so the reads grew with the mirror and ran back to back: ≈ 10 s of the
 * worker's 112 s in the 100k profile). A call while a read runs shares the next one, which starts
 * when that one ends and `ratio` × its duration later: the reads take at most 1 / (1 + ratio) of
 * the worker while changes keep coming, and a call after a quiet spell starts at once. Every
 * caller gets an answer read after its call began.
 */
export interface PacedReadOptions {
  /** The pause after a read, as a multiple of its duration (default 3). */
  ratio?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export function pacedRead<T>(read: () => Promise<T>, opts: PacedReadOptions = {}): () => Promise<T> {
  const ratio = opts.ratio ?? 3;
  const now = opts.now ?? (() => performance.now());
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let running: Promise<T> | null = null;
  let queued: Promise<T> | null = null;
  /** The earliest start of the next read. */
  let readyAt = -Infinity;
  const start = (): Promise<T> => {
    const began = now();
    const run: Promise<T> = read().finally(() => {
      const ended = now();
      readyAt = ended + (ended - began) * ratio;
      if (running === run) running = null;
    });
    running = run;
    return run;
  };
  const ignore = () => undefined;
  return () => {
    if (!running && !queued && readyAt <= now()) return start();
    queued ??= (running ?? Promise.resolve()).then(ignore, ignore).then(async () => {
      const wait = readyAt - now();
      if (wait > 0) await sleep(wait);
      queued = null;
      return start();
    });
    return queued;
  };
}
