/**
 * A job a server process runs at start and then every `everyMs` on the injected clock; a run
 * never overlaps the previous one in this process (other processes are ordered by the job's own
 * row locks). Shared by the recurring-bill generation and the bill payment settlement.
 */
export interface PeriodicJob {
  runNow: () => Promise<void>;
  stop: () => void;
}

export interface PeriodicJobOptions {
  now: () => number;
  everyMs: number;
  onError: (err: unknown) => void;
}

export function startPeriodicJob(run: (now: Date) => Promise<unknown>, opts: PeriodicJobOptions): PeriodicJob {
  let running: Promise<void> | null = null;
  const runNow = () => {
    running ??= run(new Date(opts.now()))
      .then(() => undefined, opts.onError)
      .finally(() => { running = null; });
    return running;
  };
  void runNow();
  const timer = setInterval(() => void runNow(), opts.everyMs);
  timer.unref();
  return { runNow, stop: () => clearInterval(timer) };
}
