import { formatCount, formatMoney, joinList } from '../../lib/format.ts';
import { reviewedText, type InboxRow } from './approval-rows.ts';

/**
 * The kinds whose approval moves money at once: a bill becomes payable, a travel booking is
 * charged to the trip's card (issue 27), a spend request issues a card, grows a budget or creates
 * a purchase order (issue 28), a vendor payment is sent at its last step and a vendor's new payee
 * details let its bills be paid (issue 28's vendor-payment and payee policies).
 */
const MONEY_KINDS: ReadonlySet<InboxRow['kind']> = new Set(['bill', 'travel_booking', 'spend_request', 'vendor-payment', 'payee']);

/** What approving a list asks first: nothing for claims and card requests alone; bills and travel bookings move money, so they confirm with the amounts. */
export function needsApprovalConfirm(rows: readonly Pick<InboxRow, 'kind'>[]): boolean {
  return rows.some((r) => MONEY_KINDS.has(r.kind));
}

/** "$12,400.00 USD, £500.00 GBP": the bills' amounts summed per currency (in the order they first appear), each with its ISO code. */
export function amountsByCurrency(rows: readonly Pick<InboxRow, 'amount' | 'currency'>[]): string {
  const sums = new Map<string, number>();
  for (const r of rows) if (r.amount !== null && r.currency) sums.set(r.currency, (sums.get(r.currency) ?? 0) + r.amount);
  return [...sums]
    .map(([currency, minor]) => `${formatMoney(minor, currency)} ${currency}`)
    .join(', ');
}

/**
 * The confirmation's title: "Approve 3 bills · $12,400.00 USD, £500.00 GBP" (with the claims and card
 * requests also chosen named first: "Approve 2 claims and 3 bills · …"; travel bookings' prices are
 * summed with the bills'). A bill or booking whose amount has not reached this device is counted and
 * said so, never summed as zero.
 */
export function approveConfirmTitle(rows: readonly Pick<InboxRow, 'kind' | 'amount' | 'currency'>[]): string {
  // A payee change moves no amount of its own (it lets a vendor be paid): counted, never summed.
  const bills = rows.filter((r) => MONEY_KINDS.has(r.kind) && r.kind !== 'payee');
  const amounts = amountsByCurrency(bills);
  const unknown = bills.filter((r) => r.amount === null || !r.currency).length;
  const money = joinList([...(amounts ? [amounts] : []), ...(unknown > 0 ? [`${formatCount(unknown)} not downloaded yet`] : [])]);
  return `Approve ${reviewedText(rows.map((r) => r.kind))}${money ? ` · ${money}` : ''}`;
}
