import { z } from 'zod';
import { cardFilterSchema, cardSortSchema, type CardFilter, type CardSort } from '../../../schema/entities/card.ts';
import { parseEachParam } from '../../lib/search-params.ts';

/**
 * The cards route's URL state, flat strings (§5): which view (the viewer's own cards, or every
 * card they manage), the managed table's search, filters (the card definition's own filter
 * keys) and sort, the card open in the detail drawer, and a dialog a palette command asked for.
 * Selection stays in memory (as the transactions table's).
 */
export const CARD_VIEWS = ['mine', 'managed'] as const;
export type CardsView = (typeof CARD_VIEWS)[number];

export const cardsSearchSchema = cardFilterSchema.extend({
  /** 'mine' is the default and never written. */
  view: z.enum(CARD_VIEWS).optional(),
  sort: cardSortSchema.optional(),
  open: z.uuid().optional(),
  /** Opens the request or issue form once the page is mounted (the palette's commands). */
  new: z.enum(['request', 'issue']).optional(),
});
export type CardsSearch = z.infer<typeof cardsSearchSchema>;

export const DEFAULT_SORT: CardSort = 'name_asc';

const FILTER_KEYS = Object.keys(cardFilterSchema.shape) as (keyof CardFilter)[];

/** Each parameter on its own (lib/search-params.ts), its default left out. */
export const parseCardsSearch = (raw: Record<string, unknown>): CardsSearch => parseEachParam(cardsSearchSchema, raw, { view: 'mine', sort: DEFAULT_SORT });

/** The worker's filter for the managed table (text trimmed; empty keys left out). */
export function filterFromSearch(search: CardsSearch): CardFilter {
  const filter: CardFilter = {};
  const q = search.q?.trim();
  if (q) filter.q = q;
  for (const key of FILTER_KEYS) {
    if (key === 'q') continue;
    const value = search[key];
    if (value !== undefined && !(Array.isArray(value) && value.length === 0)) (filter as Record<string, unknown>)[key] = value;
  }
  return filter;
}

/** True when a structured filter (not the text) narrows the table. */
export const hasStructuredFilter = (filter: CardFilter): boolean => FILTER_KEYS.some((k) => k !== 'q' && filter[k] !== undefined);

/** A stable key for a filter and sort: equal queries get equal keys whatever their key order. */
export function queryKey(filter: CardFilter, sort: CardSort): string {
  const entries = Object.entries(filter)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return JSON.stringify([sort, entries]);
}

/** The kind filter's select value ↔ the filter's `is_physical`. */
export const kindValue = (isPhysical: boolean | undefined): '' | 'physical' | 'virtual' =>
  isPhysical === undefined ? '' : isPhysical ? 'physical' : 'virtual';
export const isPhysicalOf = (kind: string): boolean | undefined => (kind === 'physical' ? true : kind === 'virtual' ? false : undefined);
