import type { ReportCollection, ReportRow } from './reports.ts';

/**
 * The Reports overview's tiles (issue 25), pure: shared by the page (src/features/reports) and
 * the server test that recomputes them from the table rows (server/routes/report-tiles.test.ts)
 * and the unit test that recomputes them from feed rows (schema/report-tiles.test.ts).
 */
type ReportView = ReportCollection;

/**
 * Issue 25: what each view's figures include, said beside them (the statuses schema/reports.ts
 * counts; the others are never in a total).
 */
export const INCLUDED_TEXT: Record<ReportView, string> = {
  transactions: 'pending and cleared, excluding declined and reversed',
  reimbursements: 'submitted, approved and paid, excluding drafts, rejected and canceled',
  bills: 'awaiting approval, approved, scheduled, paid and failed payments, excluding drafts, rejected and canceled',
  cards: 'requested, shipped, active, locked and suspended, excluding terminated',
};

/** The overview's tile names per view: the amount, the count. */
const TILE_NAMES: Record<ReportView, { amount: string; count: string; noun: [string, string] }> = {
  transactions: { amount: 'Spend', count: 'Transactions', noun: ['transaction', 'transactions'] },
  reimbursements: { amount: 'Total', count: 'Claims', noun: ['claim', 'claims'] },
  bills: { amount: 'Total', count: 'Bills', noun: ['bill', 'bills'] },
  cards: { amount: 'Total limits', count: 'Cards', noun: ['card', 'cards'] },
};

export interface OverviewTiles {
  amountLabel: string;
  countLabel: string;
  averageLabel: string;
  /** Minor units of `currency`; null when no currency is chosen. */
  sum: number | null;
  count: number;
  /** sum ÷ count, rounded to a minor unit; null with nothing to divide. */
  average: number | null;
  /** What the three tiles cover, and how many items of other currencies they leave out. */
  scope: string;
}

/**
 * The overview's tiles from a whole-range, ungrouped sum report (one row per currency): the
 * amount, the count and the average all of ONE currency, so amount ÷ count is the average shown
 * (issue 25: the count once added every currency's rows).
 */
export function overviewTiles(rows: readonly ReportRow[], currency: string | null, view: ReportView): OverviewTiles {
  const names = TILE_NAMES[view];
  const row = currency === null ? undefined : rows.find((r) => r.currency === currency);
  const sum = currency === null ? null : (row?.value ?? 0);
  const count = row?.count ?? 0;
  const others = rows.reduce((n, r) => (r.currency === currency ? n : n + r.count), 0);
  const tag = currency ? ` · ${currency}` : '';
  const otherText = others > 0
    ? ` ${others.toLocaleString('en-US')} ${others === 1 ? names.noun[0] : names.noun[1]} in other currencies ${others === 1 ? 'is' : 'are'} not in these figures.`
    : '';
  return {
    amountLabel: `${names.amount}${tag}`,
    countLabel: `${names.count}${tag}`,
    averageLabel: `Average${tag}`,
    sum,
    count,
    average: sum !== null && count > 0 ? Math.round(sum / count) : null,
    scope: `${currency ? `${currency} only: ` : ''}${INCLUDED_TEXT[view]}.${otherText}`,
  };
}

/** The to-do tiles beside the overview's (transactions: receipts and coding; claims: coding). */
export interface MissingTile {
  label: string;
  /** Items of the chosen currency only, in the states the other tiles count. */
  count: number;
}

export interface MissingTiles {
  receipts: MissingTile | null;
  coding: MissingTile | null;
  /** What they count, said in the tiles' caption; '' with neither tile. */
  caption: string;
}

/**
 * How many items of ONE currency a report counts with no key: the ungrouped report's rows
 * (`dimension: 'none'`, every key null), or the unassigned group of a grouped one (the items
 * with no GL account under `gl_account`). Sum reports give one row per currency and its count.
 */
export function unkeyedCount(rows: readonly ReportRow[], currency: string | null): number {
  if (currency === null) return 0;
  let n = 0;
  for (const r of rows) if (r.key === null && r.currency === currency) n += r.count;
  return n;
}

/**
 * "Missing receipts" and "Missing coding" (issue 25): of the selected currency only and in the
 * same states as the amount, count and average beside them, so the five tiles cover the same
 * items. `receipts`: the whole-range sum report filtered to `missing_receipt`; `coding`: the
 * whole-range sum report grouped by GL account (the null group is the uncoded). Each is null
 * when the view has no such tile (or its report is not ready yet).
 */
export function missingTiles(
  receipts: readonly ReportRow[] | null,
  coding: readonly ReportRow[] | null,
  currency: string | null,
  view: ReportView,
): MissingTiles {
  const tag = currency ? ` · ${currency}` : '';
  const tile = (rows: readonly ReportRow[] | null, what: string): MissingTile | null =>
    rows === null ? null : { label: `Missing ${what}${tag}`, count: unkeyedCount(rows, currency) };
  const out = { receipts: tile(receipts, 'receipts'), coding: tile(coding, 'coding') };
  const which = out.receipts && out.coding ? 'Missing receipts and coding count' : out.receipts ? 'Missing receipts counts' : out.coding ? 'Missing coding counts' : '';
  const caption = which ? `${which} ${currency ? `${currency} ` : ''}${TILE_NAMES[view].noun[1]} only: ${INCLUDED_TEXT[view]}.` : '';
  return { ...out, caption };
}
