import type { Db } from '../db/db.ts';

/**
 * A job a server process runs at start and then every `everyMs` on the injected clock; a run
 * never overlaps the previous one in this process (other processes are ordered by the job's own
 * row locks). Shared by the recurring-bill generation and the bill payment settlement.
 */
export interface PeriodicJob {
  runNow: () => Promise<void>;
  /** Ends the schedule; resolves once the run in flight (if any) has ended. No run starts after it. */
  stop: () => Promise<void>;
}

export interface PeriodicJobOptions {
  now: () => number;
  everyMs: number;
  onError: (err: unknown) => void;
}

export function startPeriodicJob(run: (now: Date) => Promise<unknown>, opts: PeriodicJobOptions): PeriodicJob {
  let running: Promise<void> | null = null;
  let stopped = false;
  const runNow = () => {
    if (stopped) return running ?? Promise.resolve();
    running ??= run(new Date(opts.now()))
      .then(() => undefined, opts.onError)
      .finally(() => { running = null; });
    return running;
  };
  void runNow();
  const timer = setInterval(() => void runNow(), opts.everyMs);
  timer.unref();
  return {
    runNow,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

/** A queue's job in one process (mail, chat posts): `runNow` to kick it, `stop` to end it after the pass in flight. */
export interface KickedJob {
  runNow: () => Promise<void>;
  stop: () => Promise<void>;
}

/**
 * The job of a durable queue in one process: a pass (`pass`, e.g. deliver what is due) kicked by
 * every committed enqueue (LISTEN on `channel`), at start, and every `everyMs` for retries and rows
 * a crashed process left. One pass at a time; a kick during a pass runs another once it ends, so a
 * row committed while the last claim came back empty is not left to the sweep. A pass's error goes
 * to `onError` and the job goes on.
 */
export async function startKickedJob(
  db: Pick<Db, 'listen'>, channel: string, pass: () => Promise<unknown>, opts: { everyMs: number; onError: (err: unknown) => void },
): Promise<KickedJob> {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const runNow = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await pass().then(() => undefined, opts.onError);
      } while (again && !stopped);
    })().finally(() => { running = null; });
    return running;
  };
  const unlisten = await db.listen(channel, () => { if (!stopped) void runNow(); });
  const timer = setInterval(() => void runNow(), opts.everyMs);
  timer.unref();
  void runNow();
  return {
    runNow,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await unlisten().catch(() => undefined);
      await running;
    },
  };
}
