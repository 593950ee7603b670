import type { QueriedCollection } from '../../../schema/collections.ts';
import type { CollectionQuery, DataApi } from '../../../workers/api.ts';
import type { DataClient } from '../../data-access/types.ts';

/**
 * The worker's generic reads, typed: Comlink's `Remote` widens a generic method's collection
 * parameter to the union, so the client's methods are seen through DataApi's.
 */
export const collectionReads = (client: DataClient) => ({
  query: client.query as DataApi['query'],
  get: client.get as DataApi['get'],
  totals: client.totals as DataApi['totals'],
});

const PAGE = 1000;

/** Every id a list's filter matches, in its sort ("Select all N matching"), read in pages of 1,000. */
export async function matchingIds<C extends QueriedCollection>(
  client: DataClient, collection: C, filter: CollectionQuery<C>['filter'], sort: CollectionQuery<C>['sort'],
): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await collectionReads(client).query(collection, { filter, sort, offset, limit: PAGE });
    ids.push(...page.rows.map((r) => (r as unknown as { id: string }).id));
    if (page.rows.length < PAGE || ids.length >= page.total) return ids;
  }
}
