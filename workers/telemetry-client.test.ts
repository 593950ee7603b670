import { describe, expect, it } from 'vitest';
import { ANALYTICS_ID_KEYS, type KeyValueStorage } from '../sync/index.ts';
import { createFakeClock, flush } from '../sync/testing.ts';
import type { ErrorReportInput, TelemetryEventInput } from './api.ts';
import { startBrowserTelemetry } from './telemetry-client.ts';

function fakeWindow(href: string) {
  const map = new Map<string, string>();
  const listeners = new Map<string, ((e: Event) => void)[]>();
  const storage: KeyValueStorage = {
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  };
  return {
    map,
    location: { href },
    localStorage: storage,
    addEventListener: (type: string, fn: (e: Event) => void) => listeners.set(type, [...(listeners.get(type) ?? []), fn]),
    fire: (type: string, e: unknown) => listeners.get(type)?.forEach((fn) => fn(e as Event)),
  };
}

describe('startBrowserTelemetry', () => {
  it('sends batched events and masked window errors through the worker, and clears ids on pagehide', async () => {
    const sent: TelemetryEventInput[][] = [];
    const errors: ErrorReportInput[] = [];
    const win = fakeWindow('https://app.test/transactions');
    const t = startBrowserTelemetry(
      { sendTelemetry: async (e) => void sent.push(e), sendErrorReport: async (r) => void errors.push(r) },
      win,
      createFakeClock(),
    );
    t.identify({ spend_user_id: 'u-1', business_id: 'b-1', external_firm_id: null });
    t.page('https://app.test/transactions/42');
    win.fire('error', { message: 'failed with password=hunter2', error: new Error('token eyJa.eyJb.c') });
    win.fire('unhandledrejection', { reason: { password: 'hunter2' } });
    expect(win.map.get(ANALYTICS_ID_KEYS[0])).toBe('u-1');
    win.fire('pagehide', {});
    await flush();
    expect(win.map.size).toBe(0);
    expect(sent[0]?.[0]).toMatchObject({ name: 'page', props: { spend_user_id: 'u-1', business_id: 'b-1' } });
    expect(sent[0]?.[0]?.path).toContain('sanitized_path=%2Ftransactions%2F%3Aid');
    expect(errors).toHaveLength(2);
    expect(JSON.stringify(errors)).not.toContain('hunter2');
    expect(JSON.stringify(errors)).not.toContain('eyJa.eyJb.c');
  });

  it("does not report the browser's ResizeObserver loop notice, but an error of that text with an error object", async () => {
    const errors: ErrorReportInput[] = [];
    const win = fakeWindow('https://app.test/transactions');
    startBrowserTelemetry({ sendTelemetry: async () => undefined, sendErrorReport: async (r) => void errors.push(r) }, win, createFakeClock());
    win.fire('error', { message: 'ResizeObserver loop completed with undelivered notifications.', error: null });
    win.fire('error', { message: 'ResizeObserver loop limit exceeded' });
    win.fire('error', { message: 'Script error.', error: null });
    win.fire('error', { message: 'ResizeObserver loop limit exceeded', error: new Error('ResizeObserver loop limit exceeded') });
    win.fire('pagehide', {});
    await flush();
    expect(errors.map((e) => e.message)).toEqual(['Script error.', 'ResizeObserver loop limit exceeded']);
  });
});
