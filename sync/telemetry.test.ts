import { describe, expect, it } from 'vitest';
import { ANALYTICS_CLEAR_DELAY_MS } from '../schema/constants.ts';
import { ANALYTICS_ID_KEYS, createTelemetry, type ErrorReport, type KeyValueStorage, type TelemetryEvent } from './telemetry.ts';
import { createFakeClock, flush } from './testing.ts';

function memoryStorage(): KeyValueStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  };
}

function setup(url = 'https://app.test/transactions', batchSize = 3) {
  const clock = createFakeClock();
  const storage = memoryStorage();
  const batches: TelemetryEvent[][] = [];
  const errors: ErrorReport[] = [];
  const t = createTelemetry({
    clock,
    storage,
    url,
    batchSize,
    flushDelayMs: 1_000,
    sendEvents: async (e) => void batches.push(e),
    sendError: async (r) => void errors.push(r),
  });
  return { clock, storage, batches, errors, t };
}

const IDS = { spend_user_id: 'u-1', business_id: 'b-1', external_firm_id: 'f-1' };

describe('telemetry', () => {
  it('logs only sanitised paths (ids collapsed, router tokens stripped)', async () => {
    const { t, batches } = setup();
    t.page('https://app.test/transactions/123e4567-e89b-12d3-a456-426614174000?code=secret&state=x&tab=memo');
    await t.flush();
    const path = batches[0]?.[0]?.path ?? '';
    expect(path).not.toContain('123e4567');
    expect(path).not.toContain('secret');
    expect(path).toContain('sanitized_path=%2Ftransactions%2F%3Aid');
    expect(path).toContain('tab=memo');
  });

  it('batches: flushes at the batch size, or after the flush delay', async () => {
    const { t, batches, clock } = setup();
    t.track('a', '/transactions');
    t.track('b', '/transactions');
    expect(batches).toHaveLength(0);
    t.track('c', '/transactions');
    await flush();
    expect(batches.map((b) => b.map((e) => e.name))).toEqual([['a', 'b', 'c']]);
    t.track('d', '/transactions');
    await clock.advance(999);
    expect(batches).toHaveLength(1);
    await clock.advance(1);
    expect(batches[1]?.map((e) => e.name)).toEqual(['d']);
  });

  it('carries only the external firm id on /console paths', async () => {
    const { t, batches } = setup();
    t.identify(IDS);
    t.track('open', '/console/clients');
    t.track('open', '/transactions');
    await t.flush();
    expect(batches[0]?.[0]?.identity).toEqual({ external_firm_id: 'f-1' });
    expect(batches[0]?.[1]?.identity).toEqual({ spend_user_id: 'u-1', business_id: 'b-1' });
  });

  it('clears analytics identifiers 2.5 s after identify or page, and at once on unload', async () => {
    const { t, storage, clock } = setup();
    t.identify(IDS);
    expect(storage.getItem(ANALYTICS_ID_KEYS[0])).toBe('u-1');
    await clock.advance(ANALYTICS_CLEAR_DELAY_MS - 1);
    expect(storage.getItem(ANALYTICS_ID_KEYS[0])).toBe('u-1');
    await clock.advance(1);
    expect(ANALYTICS_ID_KEYS.map((k) => storage.getItem(k))).toEqual([null, null]);

    t.page('/transactions');
    expect(storage.getItem(ANALYTICS_ID_KEYS[1])).not.toBeNull();
    await t.unload();
    expect(ANALYTICS_ID_KEYS.map((k) => storage.getItem(k))).toEqual([null, null]);
  });

  it('a second page call restarts the 2.5 s window', async () => {
    const { t, storage, clock } = setup();
    t.identify(IDS);
    await clock.advance(2_000);
    t.page('/transactions');
    await clock.advance(2_000);
    expect(storage.getItem(ANALYTICS_ID_KEYS[0])).toBe('u-1');
    await clock.advance(500);
    expect(storage.getItem(ANALYTICS_ID_KEYS[0])).toBeNull();
  });

  it.each([
    ['no_track=true', false, false, false],
    ['no_segment=true', true, false, true],
    ['', true, true, true],
  ])('switches %s: track %s, analytics %s, errors sent %s', async (query, track, analytics, errorsSent) => {
    const { t, batches, errors, storage } = setup(`https://app.test/transactions?${query}`);
    expect(t.switches).toEqual({ track, analytics });
    t.identify(IDS);
    t.page('/transactions');
    t.reportError('boom', '/transactions');
    await t.flush();
    expect(batches.length > 0).toBe(analytics);
    expect(storage.map.size > 0).toBe(analytics);
    expect(errors.length > 0).toBe(errorsSent);
  });

  it.each([
    ['/sign-in', false],
    ['/sign-up', false],
    ['/transactions', true],
  ])('recording start-up on %s: %s', (path, records) => {
    expect(setup(`https://app.test${path}`).t.recordsStartup).toBe(records);
  });

  it('masks error reports (passwords, tokens, IBAN, SSN, account numbers)', async () => {
    const { t, errors } = setup();
    t.reportError('Request failed for GB82 WEST 1234 5698 7654 32 with Bearer abc.def', '/transactions/42?code=zz', {
      request: { body: { password: 'hunter2', account_number: '000123456789', note: 'ssn 123-45-6789' } },
      headers: { 'RAMP-ID-TOKEN': 'eyJhbGciOi.eyJzdWIiOi.sig' },
      log: 'POST /v1/public/sign-in {"email":"a@b.c","password":"s3cret!"} then token=abc123',
    });
    await flush();
    const report = JSON.stringify(errors[0]);
    for (const secret of ['s3cret!', 'abc123', 'hunter2', '000123456789', '123-45-6789', 'GB82 WEST', 'abc.def', 'eyJhbGciOi', 'zz']) {
      expect(report).not.toContain(secret);
    }
    expect(errors[0]?.path).toContain('sanitized_path=%2Ftransactions%2F%3Aid');
  });

  it('a failing send drops the batch instead of throwing', async () => {
    const clock = createFakeClock();
    const t = createTelemetry({
      clock,
      storage: memoryStorage(),
      url: '/transactions',
      sendEvents: () => Promise.reject(new Error('offline')),
      sendError: () => Promise.reject(new Error('offline')),
    });
    t.track('x', '/transactions');
    await expect(t.flush()).resolves.toBeUndefined();
    expect(t.pending()).toBe(0);
  });
});
