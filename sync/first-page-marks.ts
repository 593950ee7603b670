/**
 * Issue 33: where a first sign-in's time goes between the first feed page and the first row.
 * Each milestone is a User Timing mark (`performance.mark`) set once per context, so a worker
 * keeps at most one entry per name however many pages it stores; bench/first-page-personas.ts
 * reads them from the data worker over DevTools and lines them up with the page's own marks.
 * No-op where User Timing is missing.
 */
export const FIRST_PAGE_MARKS = {
  /** The first page of a first mirror's walk was asked for (the mirror is open, its checkpoint read). */
  asked: 'ledgerline:first-page:asked',
  /** Its answer is parsed. */
  received: 'ledgerline:first-page:received',
  /** Its rows are validated (mirror-store) and handed to IndexedDB. */
  validated: 'ledgerline:first-page:validated',
  /** The first rows of the list's collection reached the engine (the RxDB change stream). */
  inEngine: 'ledgerline:first-page:in-engine',
  /** Every row of the first page is stored. */
  stored: 'ledgerline:first-page:stored',
} as const;

export type FirstPageMark = (typeof FIRST_PAGE_MARKS)[keyof typeof FIRST_PAGE_MARKS];

export function markFirstPage(name: FirstPageMark): void {
  const perf = (globalThis as { performance?: Partial<Performance> }).performance;
  if (!perf?.mark || !perf.getEntriesByName) return;
  if (perf.getEntriesByName(name, 'mark').length === 0) perf.mark(name);
}
