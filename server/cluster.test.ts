import { describe, expect, it } from 'vitest';
import { poolSizes, RestartBudget, webConcurrency } from './cluster.ts';

describe('WEB_CONCURRENCY', () => {
  it('is one process by default and N with PostgreSQL', () => {
    expect(webConcurrency({})).toBe(1);
    expect(webConcurrency({ WEB_CONCURRENCY: '' })).toBe(1);
    expect(webConcurrency({ WEB_CONCURRENCY: '4', DATABASE_URL: 'postgres://x/y' })).toBe(4);
  });

  it('refuses more than one process on PGlite, and nonsense', () => {
    expect(() => webConcurrency({ WEB_CONCURRENCY: '2' })).toThrow(/needs DATABASE_URL/);
    expect(() => webConcurrency({ WEB_CONCURRENCY: '0', DATABASE_URL: 'postgres://x/y' })).toThrow(/at least 1/);
    expect(() => webConcurrency({ WEB_CONCURRENCY: 'two', DATABASE_URL: 'postgres://x/y' })).toThrow(/non-negative integer/);
  });
});

describe('poolSizes', () => {
  it('shares one budget among the processes, never below the least per process', () => {
    expect(poolSizes({}, 1)).toEqual({ readPoolSize: 10, poolSize: 10 });
    expect(poolSizes({}, 2)).toEqual({ readPoolSize: 5, poolSize: 5 });
    expect(poolSizes({}, 4)).toEqual({ readPoolSize: 4, poolSize: 3 });
    expect(poolSizes({}, 16)).toEqual({ readPoolSize: 4, poolSize: 3 });
  });

  it('takes a size per process from the environment, and refuses nonsense', () => {
    expect(poolSizes({ LEDGERLINE_DB_READ_POOL: '7', LEDGERLINE_DB_TX_POOL: '2' }, 4)).toEqual({ readPoolSize: 7, poolSize: 2 });
    expect(() => poolSizes({ LEDGERLINE_DB_TX_POOL: '0' }, 1)).toThrow(/at least 1/);
    expect(() => poolSizes({ LEDGERLINE_DB_READ_POOL: 'many' }, 1)).toThrow(/non-negative integer/);
  });
});

describe('RestartBudget', () => {
  it('restarts at once up to max in the window, then waits for the oldest to leave it', () => {
    const budget = new RestartBudget(3, 60_000);
    for (const t of [0, 1_000, 2_000]) {
      expect(budget.delayMs(t)).toBe(0);
      budget.note(t);
    }
    expect(budget.delayMs(10_000)).toBe(50_000);
    expect(budget.delayMs(59_999)).toBe(1);
    expect(budget.delayMs(60_000)).toBe(0);
    budget.note(60_000);
    expect(budget.delayMs(60_500)).toBe(500);
  });
});
