import * as Comlink from 'comlink';
import type { DataApi } from './api.ts';

/**
 * The UI's handle on the data worker. Every DataApi method returns a promise of a structured
 * clone of the worker's answer.
 *
 * `subscribe(onStatus, onDataChanged)` takes PLAIN functions: this client wraps them in
 * Comlink.proxy before they cross to the worker (functions cannot be cloned), and resolves to
 * an unsubscribe function (calling it returns a promise; awaiting it is optional). Listeners
 * are called at most once per 50 ms each; `onStatus` is called once right away.
 *
 * `exportCsv`'s `onProgress` is wrapped the same way.
 *
 * `run` keeps its generic signature (Comlink's mapping of a method would widen the command
 * name and input to unions): it already returns a promise of a clone.
 */
export type DataClient = Omit<Comlink.Remote<DataApi>, 'run'> & Pick<DataApi, 'run'>;

export function createDataClient(
  worker: Worker = new Worker(new URL('./data-worker.ts', import.meta.url), { type: 'module', name: 'ledgerline-data' }),
): DataClient {
  const remote = Comlink.wrap<DataApi>(worker) as unknown as DataClient;
  type Subscribe = DataApi['subscribe'];
  const subscribe = (async (onStatus: Parameters<Subscribe>[0], onDataChanged: Parameters<Subscribe>[1]) =>
    remote.subscribe(Comlink.proxy(onStatus), Comlink.proxy(onDataChanged))) as unknown as DataClient['subscribe'];
  type ExportCsv = DataApi['exportCsv'];
  const exportCsv = ((collection, filter, sort, onProgress) =>
    remote.exportCsv(collection as never, filter as never, sort as never, onProgress ? Comlink.proxy(onProgress) : undefined)) as ExportCsv;
  return new Proxy(remote, {
    get(target, prop, receiver) {
      if (prop === 'subscribe') return subscribe;
      if (prop === 'exportCsv') return exportCsv;
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
}
