import type { QueryApi } from '../api.ts';
import type { WorkerContext } from '../worker-context.ts';
import { ReferenceCache } from '../reference-cache.ts';

/** Queries: thin forwarders to the open mirror's query engine; empty answers while signed out. */
export function queryHandlers(ctx: WorkerContext): QueryApi {
  return {
    async query(collection, q) {
      const rt = ctx.host.runtime;
      return rt ? rt.query(collection, q) : { rows: [], total: 0, offset: 0, took_ms: 0 };
    },
    get: async (collection, id) => ctx.host.runtime?.get(collection, id) ?? null,
    async queryTransactions(q) {
      const rt = ctx.host.runtime;
      return rt ? rt.queryTransactions(q) : { rows: [], total: 0, offset: 0, took_ms: 0 };
    },
    matchingIds: async (filter) => ctx.host.runtime?.matchingIds(filter) ?? [],
    getTransaction: async (id) => ctx.host.runtime?.getTransaction(id) ?? null,
    async referenceData() {
      const rt = ctx.host.runtime;
      if (!rt) return new ReferenceCache().snapshot();
      // Not `ready`: names must not wait for 100k transactions to load on a cold start.
      await Promise.race([rt.referencesLoaded, rt.ready]);
      return rt.refs.snapshot();
    },
  };
}
