import { describe, expect, it } from 'vitest';
import type { Queryable } from '../db/db.ts';
import { forgetRecordedDevices, rememberDevice } from './devices.ts';

/** A Queryable that only counts the statements it is given. */
function countingDb(): Queryable & { statements: unknown[][] } {
  const statements: unknown[][] = [];
  return {
    statements,
    query: async <T>(_sql: string, params?: readonly unknown[]) => {
      statements.push([...(params ?? [])]);
      return [] as T[];
    },
    exec: async () => {},
    notify: async () => {},
  };
}

const CHROME_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

describe('rememberDevice', () => {
  it('writes a device once per name, and again after forgetRecordedDevices (a test file on a fresh database)', async () => {
    const db = countingDb();
    await rememberDevice(db, 'b-1', 'd-1', CHROME_MAC);
    await rememberDevice(db, 'b-1', 'd-1', CHROME_MAC);
    expect(db.statements).toEqual([['b-1', 'd-1', 'Chrome on macOS']]);

    const fresh = countingDb();
    await rememberDevice(fresh, 'b-1', 'd-1', CHROME_MAC);
    expect(fresh.statements).toEqual([]);
    forgetRecordedDevices();
    await rememberDevice(fresh, 'b-1', 'd-1', CHROME_MAC);
    expect(fresh.statements).toEqual([['b-1', 'd-1', 'Chrome on macOS']]);
  });

  it('writes nothing without a device id', async () => {
    const db = countingDb();
    await rememberDevice(db, 'b-1', null, CHROME_MAC);
    expect(db.statements).toEqual([]);
  });
});
