import { describe, expect, it } from 'vitest';
import { pacedRead } from './paced-read.ts';

/** A read whose runs the test ends by hand, on a clock the test moves. */
function harness(ratio = 3) {
  let clock = 0;
  const runs: { began: number; end: (value: number) => void }[] = [];
  const sleeps: number[] = [];
  let state = 0;
  const read = () => new Promise<number>((resolve) => runs.push({ began: clock, end: resolve }));
  const paced = pacedRead(read, {
    ratio,
    now: () => clock,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock += ms;
    },
  });
  const settle = () => new Promise((r) => setTimeout(r, 0));
  return {
    paced, runs, sleeps, settle,
    advance: (ms: number) => void (clock += ms),
    /** Ends the newest run after `ms`, answering the state then. */
    async finish(ms: number) {
      clock += ms;
      runs.at(-1)!.end(++state);
      await settle();
    },
  };
}

describe('pacedRead (issue 33): one read at a time, paced by its cost, never an answer older than the call', () => {
  it('starts at once when idle, and shares one later read among the calls made while one runs', async () => {
    const h = harness();
    const first = h.paced();
    expect(h.runs).toHaveLength(1);
    const during = [h.paced(), h.paced(), h.paced()];
    expect(h.runs).toHaveLength(1);
    await h.finish(100);
    expect(await first).toBe(1);
    await h.settle();
    // The next read began 3 × 100 ms after the first ended: the calls made during it share it.
    expect(h.sleeps).toEqual([300]);
    expect(h.runs).toHaveLength(2);
    expect(h.runs[1]!.began).toBe(400);
    await h.finish(50);
    expect(await Promise.all(during)).toEqual([2, 2, 2]);
  });

  it('a call during the pause waits for it; after a quiet spell it starts at once', async () => {
    const h = harness();
    void h.paced();
    await h.finish(20);
    h.advance(10);
    const paused = h.paced();
    await h.settle();
    expect(h.sleeps).toEqual([50]);
    await h.finish(20);
    expect(await paused).toBe(2);
    h.advance(1_000);
    const quiet = h.paced();
    expect(h.runs).toHaveLength(3);
    await h.finish(5);
    expect(await quiet).toBe(3);
    expect(h.sleeps).toEqual([50]);
  });

  it('goes on after a failed read: the calls waiting get the next read', async () => {
    let n = 0;
    const paced = pacedRead(async () => {
      n++;
      if (n === 1) throw new Error('closed');
      return n;
    }, { ratio: 0 });
    const failed = paced();
    const next = paced();
    await expect(failed).rejects.toThrow('closed');
    expect(await next).toBe(2);
  });
});
