import type { CardFilter, CardSort } from '../../../schema/entities/card.ts';
import type { RowView } from '../../../workers/api.ts';
import type { DataClient, TransactionView } from '../../data-access/types.ts';
import type { CardView } from '../../lib/cards.ts';
import { collectionReads, matchingIds } from '../../lib/list/collection-reads.ts';
import { useRows, type ListRows } from '../../lib/list/use-rows.ts';
import { useRead } from '../../lib/use-read.ts';
import { queryKey } from './search-params.ts';
import { lockChanges, spendFilter, spendIn, stopsWaiting, walletOrder } from './card-view.ts';

export type CardRequestView = RowView<'card_requests'>;

/** The worker's generic reads, typed (src/lib/list/collection-reads.ts). */
export const cardReads = collectionReads;

/** The cards the viewer mirrors matching a filter, as row windows (cards issued offline included, marked). */
export function useCardRows(client: DataClient, filter: CardFilter, sort: CardSort, version: number, dataVersion?: number): ListRows<CardView> {
  return useRows<CardView>({
    key: queryKey(filter, sort),
    version,
    dataVersion,
    what: 'Cards',
    read: (offset, limit) => cardReads(client).query('cards', { filter, sort, offset, limit }),
  });
}

/** Every id the filter matches ("Select all N matching"). */
export const matchingCardIds = (client: DataClient, filter: CardFilter, sort: CardSort) => matchingIds(client, 'cards', filter, sort);

/** How many of a person's own cards a tile grid shows: far more than anyone holds. */
const OWN_LIMIT = 500;

/**
 * The viewer's own cards, in the order a wallet shows them: live cards first (primary, then
 * starred, then by name), terminated ones last. Null until the worker answered.
 */
export function useOwnCards(client: DataClient, userId: string, version: number): CardView[] | null {
  return useRead(`own:${userId}`, version, async () => {
    const page = await cardReads(client).query('cards', { filter: { user_ids: [userId] }, sort: 'name_asc', offset: 0, limit: OWN_LIMIT });
    return walletOrder(page.rows);
  }, 'Cards');
}

/** The viewer's card requests, newest first. */
export function useOwnRequests(client: DataClient, userId: string, version: number): CardRequestView[] | null {
  return useRead(`requests:${userId}`, version, async () => {
    const page = await cardReads(client).query('card_requests', { filter: { user_ids: [userId] }, sort: 'created_desc', offset: 0, limit: 100 });
    return page.rows;
  }, 'Cards');
}

/**
 * What a card spent in its current limit interval (minor units of the limit's currency): the
 * worker's totals over the card's authorised and cleared transactions since the interval began.
 */
export function useIntervalSpend(client: DataClient, card: CardView, version: number): number | null {
  const { id, limit } = card;
  return useRead(`spend:${id}:${limit.interval}:${limit.currency}`, version, async () => {
    const totals = await cardReads(client).totals('transactions', { filter: spendFilter({ id, limit }, new Date()) });
    return spendIn(totals, limit.currency);
  }, 'Cards');
}

/** A card's latest transactions (newest first) and how many it has in all. */
export function useCardTransactions(client: DataClient, cardId: string, version: number, limit = 50): { rows: TransactionView[]; total: number } | null {
  return useRead(`txns:${cardId}:${limit}`, version, async () => {
    const page = await client.queryTransactions({ filter: { card_ids: [cardId] }, sort: 'occurred_desc', offset: 0, limit });
    return { rows: page.rows, total: page.total };
  }, 'Cards');
}

/** Lock and unlock changes still in the outbox (re-read on every data or outbox change). */
export function useLockChanges(client: DataClient, version: number): { waiting: number; failed: number } | null {
  return useRead('locks', version, async () => lockChanges(await client.outbox()), 'Cards');
}

const NO_STOPS: ReadonlySet<string> = new Set();

/** Cards whose lock (or other stop) still waits to reach the server (issue 25: the chip says the card still works). */
export function useStopsWaiting(client: DataClient, version: number): ReadonlySet<string> {
  return useRead('stops', version, async () => stopsWaiting(await client.outbox()), 'Cards') ?? NO_STOPS;
}
