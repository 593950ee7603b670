import { describe, expect, it } from 'vitest';
import { startPeriodicJob } from './periodic-job.ts';

/** A run the test ends by hand. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => { open = r; });
  return { open, opened };
}

describe('startPeriodicJob', () => {
  it('runs once at start and never two runs at once in one process', async () => {
    const g = gate();
    let runs = 0;
    const job = startPeriodicJob(async () => { runs += 1; await g.opened; }, { now: () => 0, everyMs: 60_000, onError: () => undefined });
    const again = job.runNow();
    expect(runs).toBe(1);
    g.open();
    await again;
    await job.stop();
    expect(runs).toBe(1);
  });

  it('stop waits for the run in flight and no run starts after it', async () => {
    const g = gate();
    const events: string[] = [];
    const job = startPeriodicJob(async () => {
      events.push('run');
      await g.opened;
      events.push('run ended');
    }, { now: () => 0, everyMs: 60_000, onError: () => undefined });
    const stopped = job.stop().then(() => events.push('stopped'));
    await Promise.resolve();
    expect(events).toEqual(['run']);
    g.open();
    await stopped;
    expect(events).toEqual(['run', 'run ended', 'stopped']);
    await job.runNow();
    expect(events).toEqual(['run', 'run ended', 'stopped']);
  });

  it('a failed run goes to onError and the job goes on', async () => {
    const errors: unknown[] = [];
    let runs = 0;
    const job = startPeriodicJob(async () => {
      runs += 1;
      if (runs === 1) throw new Error('database went away');
    }, { now: () => 0, everyMs: 60_000, onError: (e) => errors.push(e) });
    await job.runNow();
    await job.runNow();
    await job.stop();
    expect(errors.map((e) => (e as Error).message)).toEqual(['database went away']);
    expect(runs).toBe(2);
  });
});
