import { describe, expect, it } from 'vitest';
import { formatBytes, persistenceRequester, requestPersistence, storageInfo, type StorageManagerLike } from './storage.ts';

function fakeStorage(opts: { persisted?: boolean; grant?: boolean; usage?: number; quota?: number } = {}) {
  let persisted = opts.persisted ?? false;
  const calls = { persist: 0, persisted: 0, estimate: 0 };
  const storage: StorageManagerLike = {
    persisted: async () => (calls.persisted++, persisted),
    persist: async () => {
      calls.persist++;
      if (opts.grant) persisted = true;
      return persisted;
    },
    estimate: async () => (calls.estimate++, { usage: opts.usage ?? 1_000, quota: opts.quota ?? 10_000 }),
  };
  return { nav: { storage }, calls };
}

describe('requestPersistence', () => {
  it('asks when not yet persisted and reports the answer', async () => {
    const granted = fakeStorage({ grant: true });
    expect(await requestPersistence(granted.nav)).toBe(true);
    expect(granted.calls.persist).toBe(1);
    const refused = fakeStorage({ grant: false });
    expect(await requestPersistence(refused.nav)).toBe(false);
  });

  it('does not ask again when already persisted', async () => {
    const f = fakeStorage({ persisted: true });
    expect(await requestPersistence(f.nav)).toBe(true);
    expect(f.calls.persist).toBe(0);
  });

  it('says null where the browser has no storage manager, false when it throws', async () => {
    expect(await requestPersistence({})).toBeNull();
    const throwing = { storage: { persisted: async () => false, persist: () => Promise.reject(new Error('no')) } };
    expect(await requestPersistence(throwing)).toBe(false);
  });

  it('persistenceRequester asks once however often it is called', async () => {
    const f = fakeStorage({ grant: false });
    const ask = persistenceRequester(f.nav);
    await Promise.all([ask(), ask()]);
    await ask();
    expect(f.calls.persist).toBe(1);
  });
});

describe('storageInfo', () => {
  it('reports persisted, usage and quota', async () => {
    const f = fakeStorage({ persisted: true, usage: 123, quota: 456 });
    expect(await storageInfo(f.nav)).toEqual({ persisted: true, usage: 123, quota: 456 });
  });

  it('reports nulls where unsupported', async () => {
    expect(await storageInfo({})).toEqual({ persisted: null, usage: null, quota: null });
  });
});

describe('formatBytes', () => {
  it('uses decimal units as browsers report quota', () => {
    expect(formatBytes(512)).toBe('512 bytes');
    expect(formatBytes(1_234_567)).toMatch(/^1[.,]2 MB$/);
    expect(formatBytes(20_000_000_000)).toMatch(/^20 GB$/);
  });
});
