import { createTelemetry, systemClock, type Clock, type KeyValueStorage, type Telemetry } from '../sync/index.ts';
import type { DataApi } from './api.ts';

/**
 * The page's side of first-party telemetry (runs on the main thread, where localStorage and
 * the window's error events are): the queue from sync/telemetry.ts, sent to our own server
 * through the data worker's catalogue calls. No third-party SDK, nothing leaves unsanitised.
 */
export interface TelemetryWindow {
  location: { href: string };
  localStorage: KeyValueStorage;
  addEventListener(type: 'error' | 'unhandledrejection' | 'pagehide', fn: (e: Event) => void): void;
}

export function startBrowserTelemetry(
  client: Pick<DataApi, 'sendTelemetry' | 'sendErrorReport'>,
  win: TelemetryWindow,
  clock: Clock = systemClock,
): Telemetry {
  const telemetry = createTelemetry({
    clock,
    storage: win.localStorage,
    url: win.location.href,
    sendEvents: (events) =>
      client.sendTelemetry(
        events.map((e) => ({ name: e.name, path: e.path, props: { ...e.props, ...e.identity }, ts: new Date(e.at).toISOString() })),
      ),
    sendError: (r) => client.sendErrorReport({ message: r.message, url: r.path, context: r.details }),
  });
  win.addEventListener('error', (e) => {
    const err = (e as ErrorEvent).error as unknown;
    if ((err === null || err === undefined) && isResizeObserverNotice((e as ErrorEvent).message)) return;
    telemetry.reportError((e as ErrorEvent).message || String(err), win.location.href, errorDetails(err));
  });
  win.addEventListener('unhandledrejection', (e) => {
    const reason = (e as PromiseRejectionEvent).reason as unknown;
    telemetry.reportError(reason instanceof Error ? reason.message : String(reason), win.location.href, errorDetails(reason));
  });
  win.addEventListener('pagehide', () => void telemetry.unload());
  return telemetry;
}

/**
 * The browser's note that a ResizeObserver callback changed layout and the new sizes wait for the
 * next frame (an `error` event with no error object): not a failure. The shell's navigation fit
 * renders inside its observer's callback on purpose (app-layout.tsx `useNavFit`), so each first
 * screen raised one, and the server's error reports were mostly these.
 */
function isResizeObserverNotice(message: string | undefined): boolean {
  return message === 'ResizeObserver loop completed with undelivered notifications.' || message === 'ResizeObserver loop limit exceeded';
}

function errorDetails(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { value: typeof err === 'object' ? err : String(err) };
  return { name: err.name, stack: err.stack ?? '' };
}
