/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { systemClock } from '../sync/index.ts';
import type { DataApi } from './api.ts';
import { createDataService } from './data-service.ts';
import { webLocksElector } from './leader.ts';
import { SessionStore } from './session-store.ts';

/**
 * The dedicated data worker's entry (one per tab). RxDB, the query engine and, in the leader
 * tab, the sync engine all live here, off the UI thread. The UI creates it through
 * workers/client.ts and talks to it only through DataApi.
 */
const { dispose, ...service } = createDataService({
  sessionStore: new SessionStore(),
  transport: (input, init) => fetch(input, init),
  clock: systemClock,
  elector: webLocksElector(),
});
void dispose; // the worker lives as long as its tab

/**
 * Every handler is forwarded as is. Comlink can send functions only as proxies: callbacks
 * arrive proxied (client.ts wraps them), and a function a handler resolves to (subscribe's
 * unsubscribe) goes back proxied.
 */
function exposable(handlers: DataApi): DataApi {
  const out: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const [name, handler] of Object.entries(handlers) as [string, (...args: unknown[]) => Promise<unknown>][]) {
    out[name] = async (...args) => {
      const result = await handler(...args);
      return typeof result === 'function' ? Comlink.proxy(result) : result;
    };
  }
  return out as unknown as DataApi;
}

Comlink.expose(exposable(service));
