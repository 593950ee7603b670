import type { Card, CardStatus, LimitInterval, SpendingLimit } from '../../../schema/entities/card.ts';
import type { CardRequestStatus } from '../../../schema/entities/card-request.ts';
import type { UserRow } from '../../../schema/entities/spend-user.ts';
import type { TransactionFilter } from '../../../schema/entities/transaction.ts';
import {
  cardStatusLabel, checkCardAction, checkIssue, intervalStart, mayActOnCard, remainingLimit, SPEND_STATES,
  type CardAction, type CardActor,
} from '../../../schema/card-rules.ts';
import { isAdmin, type Actor } from '../../../schema/roles.ts';
import type { PillTone } from '../../components/status-pill.tsx';
import { WAITING_TO_SYNC } from '../../components/sync-mark.tsx';
import { formatMoney } from '../../lib/format.ts';
import { teamOf } from '../../lib/reporting-team.ts';

/**
 * What the cards screens say and offer, pure and tested: status words and tones (from the
 * schema's `cardStatusLabel`), the limit bar, the spend query of a card's interval, the actions
 * the rules (`mayActOnCard` + `checkCardAction`) allow the viewer, and the viewer's team.
 */

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "Active", "Locked", "Shipped and not yet activated"… */
export const statusText = (s: CardStatus): string => capitalise(cardStatusLabel(s));

export const STATUS_TONES: Record<CardStatus, PillTone> = {
  REQUESTED: 'info', SHIPPED: 'info', ACTIVE: 'ok', LOCKED: 'warn', SUSPENDED: 'danger', TERMINATED: 'neutral',
};

type SyncState = 'pending' | 'sending' | 'needs_step_up' | 'failed' | 'conflict' | null;

/**
 * The status chip's words: the status as shown (commands applied), and while the change that
 * made it waits in the outbox, that it does ("Locked · waiting to sync").
 */
export function chipText(card: Pick<Card, 'status'> & { pending: SyncState }, stopWaiting = false): string {
  const status = statusText(card.status);
  // Issue 25: a lock made offline holds only here; the server still authorises the card.
  if (stopWaiting && STOPPED.has(card.status)) return `${status} on this device · the card still works until this syncs`;
  return card.pending === 'pending' || card.pending === 'sending' ? `${status} · ${WAITING_TO_SYNC.toLowerCase()}` : status;
}

/** Statuses in which a card no longer spends. */
const STOPPED: ReadonlySet<CardStatus> = new Set(['LOCKED', 'SUSPENDED', 'TERMINATED']);

/** Commands that stop a card (lock, bulk lock, suspend, terminate, reissue). */
const STOP_COMMANDS: ReadonlySet<string> = new Set(['card.lock', 'card.suspend', 'card.terminate', 'card.reissue']);

/**
 * The cards a stop (lock, suspend, terminate, report lost) is still waiting to reach the server
 * for: not sent yet, sending, or parked for a step-up. Until it lands the server still
 * authorises the card, so the chip says so.
 */
export function stopsWaiting(entries: readonly { command: string; entity_ids: readonly string[]; state: string; args?: unknown }[]): Set<string> {
  const ids = new Set<string>();
  for (const e of entries) {
    if (e.state !== 'pending' && e.state !== 'sending' && e.state !== 'needs_step_up') continue;
    const bulkLock = e.command === 'card.bulkLock' && (e.args as { lock?: unknown } | undefined)?.lock === true;
    if (!bulkLock && !STOP_COMMANDS.has(e.command)) continue;
    // A single-card command names its card first (reissue: the old card).
    for (const id of bulkLock ? e.entity_ids : e.entity_ids.slice(0, 1)) ids.add(id);
  }
  return ids;
}

export { INTERVAL_LABELS } from '../../lib/limit-words.ts';
/** The interval as the limit bar ends its sentence. */
const INTERVAL_PERIOD: Record<LimitInterval, string> = {
  DAILY: 'today', WEEKLY: 'this week', MONTHLY: 'this month', YEARLY: 'this year', TOTAL: 'in total',
};
/** The interval after an amount in a table cell ("$5,000.00 / month"). */
const INTERVAL_PER: Record<LimitInterval, string> = {
  DAILY: '/ day', WEEKLY: '/ week', MONTHLY: '/ month', YEARLY: '/ year', TOTAL: 'total',
};

/** "$5,000.00 / month", "$800.00 total". */
export const limitText = (limit: Pick<SpendingLimit, 'amount' | 'currency' | 'interval'>): string =>
  `${formatMoney(limit.amount, limit.currency)} ${INTERVAL_PER[limit.interval]}`;

/** One line of a limit change's confirmation: what it was, what it becomes. */
export interface LimitChangeLine {
  label: string;
  from: string;
  to: string;
}

/**
 * Issue 25: what a limit change does, before it is sent — only the parts that change ("Limit:
 * $5,000.00 / month → $8,000.00 / month", "Per purchase: No cap → $1,000.00"), and whether it
 * raises what the card can spend (a higher amount in the same currency and interval, or a cap
 * lifted), which the dialog says in words.
 */
export function limitChangeSummary(from: SpendingLimit, to: SpendingLimit): { lines: LimitChangeLine[]; raises: boolean } {
  const cap = (l: SpendingLimit) => (l.per_transaction === null ? 'No cap' : formatMoney(l.per_transaction, l.currency));
  const lines: LimitChangeLine[] = [];
  if (from.amount !== to.amount || from.currency !== to.currency || from.interval !== to.interval) {
    lines.push({ label: 'Limit', from: limitText(from), to: limitText(to) });
  }
  if (from.per_transaction !== to.per_transaction || (from.per_transaction !== null && from.currency !== to.currency)) {
    lines.push({ label: 'Per purchase', from: cap(from), to: cap(to) });
  }
  const sameBasis = from.currency === to.currency && from.interval === to.interval;
  const raises = (sameBasis && to.amount > from.amount)
    || (to.per_transaction === null && from.per_transaction !== null)
    || (sameBasis && from.per_transaction !== null && to.per_transaction !== null && to.per_transaction > from.per_transaction);
  return { lines, raises };
}

/** The transactions that count against a card's limit now: its authorised or cleared spend since the interval began. */
export function spendFilter(card: Pick<Card, 'id'> & { limit: Pick<SpendingLimit, 'interval'> }, now: Date): TransactionFilter {
  const filter: TransactionFilter = { card_ids: [card.id], states: [...SPEND_STATES] };
  // The filter's `from` is a UTC calendar day, as intervalStart is a UTC midnight.
  if (card.limit.interval !== 'TOTAL') filter.from = intervalStart(card.limit.interval, now).toISOString().slice(0, 10);
  return filter;
}

/** The spend in the limit's currency out of the worker's per-currency totals (other currencies never count). */
export const spendIn = (totals: { sums: readonly { currency: string; amount: number }[] }, currency: string): number =>
  totals.sums.find((s) => s.currency === currency)?.amount ?? 0;

export interface LimitBar {
  /** "$1,240.00 left of $5,000.00 this month". */
  text: string;
  /** Share of the limit spent, 0–100 (a zero limit is all spent). */
  percent: number;
  tone: 'ok' | 'warn' | 'danger';
  /** "$3,760.00 spent", or "$200.00 over the limit". */
  detail: string;
}

/** The limit bar of a card whose interval spend is `spent` (minor units of the limit's currency). */
export function limitBar(limit: Pick<SpendingLimit, 'amount' | 'currency' | 'interval'>, spent: number): LimitBar {
  const money = (n: number) => formatMoney(n, limit.currency);
  const left = remainingLimit(limit, spent);
  const percent = limit.amount <= 0 ? 100 : Math.min(100, Math.max(0, (spent / limit.amount) * 100));
  const tone = percent >= 100 ? 'danger' : percent >= 80 ? 'warn' : 'ok';
  const detail = spent > limit.amount ? `${money(spent - limit.amount)} over the limit` : `${money(Math.max(0, spent))} spent`;
  return { text: `${money(left)} left of ${money(limit.amount)} ${INTERVAL_PERIOD[limit.interval]}`, percent: Math.round(percent * 10) / 10, tone, detail };
}

/** "Expires 11/2029" from YYYY-MM; null before the card is issued. */
export const expiryText = (expires: string | null): string | null => (expires ? `Expires ${expires.slice(5, 7)}/${expires.slice(0, 4)}` : null);

/** A wallet's order: live cards first (primary, then starred, then as given), terminated ones last. */
export function walletOrder<C extends Pick<Card, 'status' | 'is_primary' | 'is_favorite'>>(cards: readonly C[]): C[] {
  const rank = (c: C) => (c.status === 'TERMINATED' ? 3 : c.is_primary ? 0 : c.is_favorite ? 1 : 2);
  return cards.map((c, i) => ({ c, i })).sort((a, b) => rank(a.c) - rank(b.c) || a.i - b.i).map((x) => x.c);
}

// --- What the viewer may do ------------------------------------------------------------------------

export type CardOffer =
  | 'lock' | 'unlock' | 'activate' | 'reissue' | 'suspend' | 'unsuspend' | 'terminate' | 'edit' | 'primary' | 'favorite' | 'unfavorite';

const BY_RULES: readonly (CardAction & CardOffer)[] = ['lock', 'unlock', 'activate', 'reissue', 'suspend', 'unsuspend', 'edit', 'terminate'];

/**
 * The actions offered on a card: those its status allows (`checkCardAction`) that the viewer may
 * take (`mayActOnCard`), plus the cardholder's own: primary (a live, issued card that is not
 * primary yet) and the star. The server checks the same rules again.
 */
export function cardOffers(card: Pick<Card, 'user_id' | 'status' | 'is_physical' | 'is_primary' | 'is_favorite'>, actor: CardActor): CardOffer[] {
  const offers: CardOffer[] = BY_RULES.filter(
    (a) => mayActOnCard(a, actor, card) && checkCardAction(a, card.status).ok && (a !== 'activate' || card.is_physical),
  );
  const live = card.status === 'ACTIVE' || card.status === 'LOCKED' || card.status === 'SHIPPED';
  if (mayActOnCard('primary', actor, card) && live && !card.is_primary) offers.push('primary');
  if (mayActOnCard('favorite', actor, card)) {
    if (card.is_favorite) offers.push('unfavorite');
    else if (card.status !== 'TERMINATED') offers.push('favorite');
  }
  return offers;
}

/** A manager's team (moved to lib/reporting-team.ts: the requests feature walks it too). */
export { teamOf } from '../../lib/reporting-team.ts';

/** The viewer as the card rules see them: admins act on every card, anyone else within their team. */
export function cardActor(user: Actor, users: readonly Pick<UserRow, 'id' | 'manager_id'>[]): CardActor {
  return { ...user, team: isAdmin(user) ? 'all' : teamOf(user.id, users) };
}

/** Whom the viewer may issue a card to (`checkIssue`): admins anyone active, managers their team. */
export function issuableUsers<U extends Pick<UserRow, 'id' | 'status'>>(actor: CardActor, users: readonly U[]): U[] {
  return users.filter((u) => u.status !== 'SUSPENDED' && checkIssue(actor, u.id).ok);
}

// --- Card requests ----------------------------------------------------------------------------------

export const REQUEST_STATUS_TEXT: Record<CardRequestStatus, string> = {
  PENDING: 'Pending review', APPROVED: 'Approved', REJECTED: 'Rejected', CANCELED: 'Withdrawn',
};
export const REQUEST_TONES: Record<CardRequestStatus, PillTone> = {
  PENDING: 'info', APPROVED: 'ok', REJECTED: 'danger', CANCELED: 'neutral',
};

// --- Lock changes still in the outbox -----------------------------------------------------------------

const LOCK_COMMANDS: ReadonlySet<string> = new Set(['card.lock', 'card.unlock', 'card.bulkLock']);

/**
 * How many cards have a lock or unlock waiting in the outbox (`waiting`: not yet confirmed by the
 * server) or refused (`failed`): what the bulk bar says after a bulk lock, counted per card.
 */
export function lockChanges(entries: readonly { command: string; entity_ids: readonly string[]; state: string }[]): { waiting: number; failed: number } {
  const waiting = new Set<string>();
  const failed = new Set<string>();
  for (const e of entries) {
    if (!LOCK_COMMANDS.has(e.command) || e.state === 'done') continue;
    const into = e.state === 'failed' || e.state === 'conflict' ? failed : waiting;
    for (const id of e.entity_ids) into.add(id);
  }
  return { waiting: waiting.size, failed: failed.size };
}
