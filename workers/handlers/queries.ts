import type { QueriedCollection } from '../../schema/collections.ts';
import { PLAIN_MONEY, TRANSACTION_SPEND_MONEY } from '../collections/transactions.ts';
import type { QueryApi } from '../api.ts';
import type { WorkerContext } from '../worker-context.ts';
import { countMatching, ReferenceCache } from '../reference-cache.ts';
import { EMPTY_TOTALS, type MoneyFields, type QueryEngine } from '../query-engine.ts';
import type { MirrorRuntime } from '../mirror-runtime.ts';

/** Every money-bearing collection so far stores `amount` (minor units) and `currency`. */
const DEFAULT_MONEY = PLAIN_MONEY as MoneyFields<never>;
// A card transaction's money is spend only while PENDING or CLEARED (issue 25): kept as the engine's columns (collections/transactions.ts).
export { TRANSACTION_SPEND_MONEY };
const defaultMoney = (collection: QueriedCollection) =>
  (collection === 'transactions' ? TRANSACTION_SPEND_MONEY : DEFAULT_MONEY) as unknown as MoneyFields<{ id: string }>;

/** A loaded engine of any queried collection, typed loosely (the registry's union cannot be tied to C). */
async function loadedEngine(rt: MirrorRuntime, collection: QueriedCollection): Promise<QueryEngine<{ id: string }, never, never>> {
  if (!rt.isReady) await rt.ready;
  return rt.engines[collection] as unknown as QueryEngine<{ id: string }, never, never>;
}

/** Queries: thin forwarders to the open mirror's query engine; empty answers while signed out. */
export function queryHandlers(ctx: WorkerContext): QueryApi {
  return {
    async query(collection, q) {
      const rt = ctx.host.runtime;
      return rt ? rt.query(collection, q) : { rows: [], total: 0, offset: 0, took_ms: 0 };
    },
    async totals(collection, q) {
      const rt = ctx.host.runtime;
      if (!rt) return { ...EMPTY_TOTALS, took_ms: 0 };
      const engine = await loadedEngine(rt, collection);
      const t0 = performance.now();
      const totals = engine.totals(q.filter as never, (q.money as MoneyFields<{ id: string }> | undefined) ?? defaultMoney(collection), q.sort as never);
      return { ...totals, took_ms: performance.now() - t0 };
    },
    async selectionTotals(collection, ids, money) {
      const rt = ctx.host.runtime;
      if (!rt) return { ...EMPTY_TOTALS, took_ms: 0 };
      const engine = await loadedEngine(rt, collection);
      const t0 = performance.now();
      const totals = engine.totalsOf(ids, (money as MoneyFields<{ id: string }> | undefined) ?? defaultMoney(collection));
      return { ...totals, took_ms: performance.now() - t0 };
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
      // As shown: the reference rows commands change carry them (rows created offline included).
      return rt.referenceData();
    },
    async referenceCount(kind, where) {
      const rt = ctx.host.runtime;
      if (!rt) return 0;
      await Promise.race([rt.referencesLoaded, rt.ready]);
      return countMatching(rt.referenceRows(kind), where as Readonly<Record<string, unknown>> | undefined);
    },
    checkDuplicateInvoice: async (vendorId, invoiceNumber, billId) =>
      ctx.host.runtime?.duplicateInvoices(vendorId, invoiceNumber, billId) ?? { is_duplicate: false, bills: [] },
  };
}
