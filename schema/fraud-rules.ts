import { z } from 'zod';
import { formatMoney } from './money.ts';

/**
 * Fraud rules (issue 24, §7 fraud-response), pure: which card charges are held for the
 * cardholder to confirm, and what a "Yes, it was me" teaches. The server runs `assessCharge` in
 * the same transaction that writes the charge; the app only reads the verdict (the transaction's
 * `fraud_status` and `fraud_reasons`).
 *
 * A card's profile is its history (its charges that count: PENDING or CLEARED, not held and not
 * disowned) plus what the cardholder taught it by recognising held charges. Every threshold is
 * in FRAUD_THRESHOLDS.
 */
export const FRAUD_THRESHOLDS = {
  /** The usual amount is the median of the card's last `historySize` charges in the charge's currency. */
  historySize: 50,
  /**
   * Below this many charges the card is new: nothing is "new for the card" and no amount is
   * "far above usual" yet (a new card's first purchases are never held).
   */
  minHistory: 5,
  /** A charge above `amountMultiple` × the usual amount… */
  amountMultiple: 5,
  /** …and at least this much (minor units) is far above usual: small amounts never flag. */
  amountFloor: 20_000,
  /** A category or country new for the card flags only from this amount (minor units). */
  noveltyFloor: 2_500,
  /** `repeatCount` charges at one merchant (this one included) within `repeatWindowMinutes`. */
  repeatCount: 3,
  repeatWindowMinutes: 10,
} as const;

const FRAUD_REASONS = ['NEW_CATEGORY', 'NEW_COUNTRY', 'AMOUNT_ABOVE_USUAL', 'RAPID_REPEAT'] as const;
export const fraudReasonSchema = z.enum(FRAUD_REASONS);
export type FraudReason = z.infer<typeof fraudReasonSchema>;

/** null: never held. FLAGGED: waiting for the cardholder. The answers are final. */
const FRAUD_STATUSES = ['FLAGGED', 'RECOGNIZED', 'NOT_RECOGNIZED'] as const;
export const fraudStatusSchema = z.enum(FRAUD_STATUSES);
export type FraudStatus = z.infer<typeof fraudStatusSchema>;

const FRAUD_RESPONSES = ['RECOGNIZED', 'NOT_RECOGNIZED'] as const;
export const fraudResponseSchema = z.enum(FRAUD_RESPONSES);
export type FraudResponse = z.infer<typeof fraudResponseSchema>;

/** One of the card's earlier charges, as the rules read it. */
export interface ChargeHistoryItem {
  merchant_name: string;
  merchant_category: string;
  merchant_country: string | null;
  amount: number;
  currency: string;
  occurred_at: string;
}

/** What recognised charges taught the card beyond its history. */
export interface TaughtProfile {
  categories: readonly string[];
  countries: readonly string[];
  /** The largest amount recognised per currency: charges up to it are not "far above usual". */
  recognized_max: Readonly<Record<string, number>>;
}
export const NOTHING_TAUGHT: TaughtProfile = { categories: [], countries: [], recognized_max: {} };

/** The new charge being decided: read as the card's earlier charges are. */
export type NewCharge = ChargeHistoryItem;

export interface FraudVerdict {
  flagged: boolean;
  reasons: FraudReason[];
}

const norm = (s: string) => s.trim().toLowerCase();

/** The median of the amounts (the lower middle for an even count), or null for none. */
export function median(amounts: readonly number[]): number | null {
  if (amounts.length === 0) return null;
  const sorted = [...amounts].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/**
 * The card's usual amount in `currency`: the median of its last `historySize` charges in that
 * currency (history newest first or in any order: the newest are taken by `occurred_at`); null
 * while it has fewer than `minHistory` of them.
 */
export function usualAmount(history: readonly ChargeHistoryItem[], currency: string): number | null {
  const same = history
    .filter((h) => h.currency === currency && h.amount > 0)
    .sort((a, b) => (a.occurred_at < b.occurred_at ? 1 : a.occurred_at > b.occurred_at ? -1 : 0))
    .slice(0, FRAUD_THRESHOLDS.historySize);
  if (same.length < FRAUD_THRESHOLDS.minHistory) return null;
  return median(same.map((h) => h.amount));
}

/**
 * What the rules know of a card: how many charges count for it, every merchant category and
 * country it has used, its newest charges (at least the last `historySize` in the new charge's
 * currency and every charge within the repeat window), and what recognised charges taught it.
 * The server reads it in SQL (server/domain/fraud.ts); `profileOf` builds it from a plain history.
 */
export interface CardProfile {
  charges: number;
  categories: readonly string[];
  countries: readonly string[];
  recent: readonly ChargeHistoryItem[];
  taught: TaughtProfile;
}

export function profileOf(history: readonly ChargeHistoryItem[], taught: TaughtProfile = NOTHING_TAUGHT): CardProfile {
  return {
    charges: history.length,
    categories: [...new Set(history.map((h) => h.merchant_category))],
    countries: [...new Set(history.flatMap((h) => (h.merchant_country ? [h.merchant_country] : [])))],
    recent: history,
    taught,
  };
}

/** The decision for one new charge. Refunds (amount ≤ 0) are never held. */
export function assessCharge(charge: NewCharge, profile: CardProfile): FraudVerdict {
  const t = FRAUD_THRESHOLDS;
  const { taught } = profile;
  const reasons: FraudReason[] = [];
  if (charge.amount <= 0) return { flagged: false, reasons };
  const established = profile.charges >= t.minHistory;

  if (established && charge.amount >= t.noveltyFloor) {
    const categories = new Set([...profile.categories, ...taught.categories].map(norm));
    if (!categories.has(norm(charge.merchant_category))) reasons.push('NEW_CATEGORY');
    // A country is new only for a card whose history names countries (rows without one say nothing).
    const countries = new Set([...profile.countries, ...taught.countries]);
    if (charge.merchant_country && countries.size > 0 && !countries.has(charge.merchant_country)) reasons.push('NEW_COUNTRY');
  }

  const usual = usualAmount(profile.recent, charge.currency);
  const recognized = taught.recognized_max[charge.currency] ?? 0;
  if (usual !== null && charge.amount >= t.amountFloor && charge.amount > usual * t.amountMultiple && charge.amount > recognized) {
    reasons.push('AMOUNT_ABOVE_USUAL');
  }

  const to = Date.parse(charge.occurred_at);
  const since = to - t.repeatWindowMinutes * 60_000;
  const repeats = profile.recent.filter((h) => {
    const when = Date.parse(h.occurred_at);
    return norm(h.merchant_name) === norm(charge.merchant_name) && when >= since && when <= to;
  });
  if (repeats.length + 1 >= t.repeatCount) reasons.push('RAPID_REPEAT');

  return { flagged: reasons.length > 0, reasons };
}

/**
 * "Yes, it was me": the charge's category and country become known for the card, and its amount
 * is no longer far above usual (the largest recognised amount in its currency).
 */
export function teach(taught: TaughtProfile, charge: Pick<NewCharge, 'merchant_category' | 'merchant_country' | 'amount' | 'currency'>): TaughtProfile {
  const categories = taught.categories.some((c) => norm(c) === norm(charge.merchant_category))
    ? [...taught.categories] : [...taught.categories, charge.merchant_category];
  const countries = !charge.merchant_country || taught.countries.includes(charge.merchant_country)
    ? [...taught.countries] : [...taught.countries, charge.merchant_country];
  const max = Math.max(taught.recognized_max[charge.currency] ?? 0, charge.amount);
  return { categories, countries, recognized_max: { ...taught.recognized_max, [charge.currency]: max } };
}

const REASON_TEXT: Record<FraudReason, string> = {
  NEW_CATEGORY: 'a kind of merchant this card has not used before',
  NEW_COUNTRY: 'a country this card has not been used in before',
  AMOUNT_ABOVE_USUAL: 'much more than this card usually spends',
  RAPID_REPEAT: 'several charges at the same merchant within minutes',
};
export const fraudReasonText = (r: FraudReason) => REASON_TEXT[r];

/**
 * "£812.40 at Grand Hotel on 28 Nov 2026" (the UTC day): the held charge as the mail names it.
 * Money in en-US symbols ($, £, €), the day unambiguous (day month year).
 */
export function heldChargeText(t: { amount: number; currency: string; merchant_name: string; occurred_at: string }): string {
  const day = new Date(t.occurred_at).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  return `${formatMoney(t.amount, t.currency, 'en-US')} at ${t.merchant_name} on ${day}`;
}

