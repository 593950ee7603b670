import { ANALYTICS_CLEAR_DELAY_MS } from '../schema/constants.ts';
import {
  eventIdentity,
  maskSensitive,
  sanitiseUrl,
  skipsRecordingStartup,
  trackingSwitches,
  type TrackingSwitches,
} from '../schema/telemetry.ts';
import type { Clock } from './ports.ts';

/**
 * First-party, private telemetry (§1, §2): events and error reports go only to our own server,
 * through ports the caller injects (the worker posts them with the catalogue's calls). Every
 * rule about WHAT may be logged lives in schema/telemetry.ts; this module adds the queue, the
 * batching and the analytics identifiers' short life in storage.
 */
export interface TelemetryEvent {
  name: string;
  /** The logged path: always sanitised (ids collapsed, router tokens stripped). */
  path: string;
  at: number;
  identity: Record<string, string | null>;
  props: Record<string, unknown>;
}

export interface ErrorReport {
  message: string;
  path: string;
  at: number;
  details: Record<string, unknown>;
}

/** The bits of Web Storage we use (localStorage in the browser, a Map in tests). */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface TelemetryIds {
  spend_user_id: string | null;
  business_id: string | null;
  external_firm_id: string | null;
}

export interface TelemetryOptions {
  clock: Clock;
  storage: KeyValueStorage;
  /** The page's URL at start (for no_track / no_segment and the start-up path). */
  url: string;
  sendEvents(events: TelemetryEvent[]): Promise<void>;
  sendError(report: ErrorReport): Promise<void>;
  /** Events are flushed when this many are queued, or after flushDelayMs. */
  batchSize?: number;
  flushDelayMs?: number;
}

/** Where the analytics identifiers sit between an identify/page call and their clearing. */
export const ANALYTICS_ID_KEYS = ['ledgerline.analytics.user', 'ledgerline.analytics.anonymous'] as const;
const DEFAULT_BATCH = 20;
const DEFAULT_FLUSH_DELAY_MS = 5_000;

export interface Telemetry {
  readonly switches: TrackingSwitches;
  /** Whether session recording may start on this page (not on /sign-in or /sign-up). */
  readonly recordsStartup: boolean;
  identify(ids: TelemetryIds): void;
  page(url: string): void;
  track(name: string, url: string, props?: Record<string, unknown>): void;
  reportError(message: string, url: string, details?: Record<string, unknown>): void;
  flush(): Promise<void>;
  /** pagehide: clear identifiers now and send what is queued. */
  unload(): Promise<void>;
  pending(): number;
}

const pathOf = (url: string) => new URL(url, 'http://localhost').pathname;

export function createTelemetry(opts: TelemetryOptions): Telemetry {
  const switches = trackingSwitches(new URL(opts.url, 'http://localhost').search);
  const batchSize = opts.batchSize ?? DEFAULT_BATCH;
  const flushDelay = opts.flushDelayMs ?? DEFAULT_FLUSH_DELAY_MS;
  let ids: TelemetryIds = { spend_user_id: null, business_id: null, external_firm_id: null };
  let queue: TelemetryEvent[] = [];
  let clearTimer: AbortController | null = null;
  let flushTimer: AbortController | null = null;

  const clearIds = () => {
    clearTimer?.abort();
    clearTimer = null;
    for (const k of ANALYTICS_ID_KEYS) opts.storage.removeItem(k);
  };

  /** §2: identifiers live in storage only for 2.5 s after the call that wrote them. */
  const scheduleClear = () => {
    clearTimer?.abort();
    const ctrl = new AbortController();
    clearTimer = ctrl;
    opts.clock.sleep(ANALYTICS_CLEAR_DELAY_MS, ctrl.signal).then(
      () => {
        if (clearTimer === ctrl) clearIds();
      },
      () => undefined,
    );
  };

  const writeIds = () => {
    if (ids.spend_user_id) opts.storage.setItem(ANALYTICS_ID_KEYS[0], ids.spend_user_id);
    opts.storage.setItem(ANALYTICS_ID_KEYS[1], opts.storage.getItem(ANALYTICS_ID_KEYS[1]) ?? `anon-${opts.clock.now()}`);
    scheduleClear();
  };

  const scheduleFlush = () => {
    if (flushTimer) return;
    const ctrl = new AbortController();
    flushTimer = ctrl;
    opts.clock.sleep(flushDelay, ctrl.signal).then(
      () => {
        if (flushTimer === ctrl) void flush();
      },
      () => undefined,
    );
  };

  const enqueue = (name: string, url: string, props: Record<string, unknown>) => {
    if (!switches.analytics) return;
    const path = sanitiseUrl(url);
    queue.push({ name, path, at: opts.clock.now(), identity: eventIdentity(pathOf(url), ids), props: maskSensitive(props) });
    if (queue.length >= batchSize) void flush();
    else scheduleFlush();
  };

  async function flush(): Promise<void> {
    flushTimer?.abort();
    flushTimer = null;
    if (queue.length === 0) return;
    const batch = queue;
    queue = [];
    try {
      await opts.sendEvents(batch);
    } catch {
      // Telemetry never gets in the user's way: a lost batch is dropped, not retried forever.
    }
  }

  return {
    switches,
    recordsStartup: switches.track && !skipsRecordingStartup(pathOf(opts.url)),
    identify(next) {
      ids = next;
      if (!switches.analytics) return;
      writeIds();
    },
    page(url) {
      if (!switches.analytics) return;
      writeIds();
      enqueue('page', url, {});
    },
    track(name, url, props = {}) {
      enqueue(name, url, props);
    },
    reportError(message, url, details = {}) {
      if (!switches.track) return;
      const report: ErrorReport = {
        message: maskSensitive(message),
        path: sanitiseUrl(url),
        at: opts.clock.now(),
        details: maskSensitive(details),
      };
      opts.sendError(report).catch(() => undefined);
    },
    flush,
    async unload() {
      clearIds();
      await flush();
    },
    pending: () => queue.length,
  };
}
