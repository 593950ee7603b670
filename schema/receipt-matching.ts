import { z } from 'zod';
import { currencyCodeSchema } from './money.ts';

/**
 * Matching a receipt to a card transaction (issue 9 §2), defined once and pure: the worker runs
 * it over the local mirror, the server may run it over its rows.
 *
 * Rules:
 * - a candidate has the receipt's **currency and exact amount** (minor units). No tip tolerance:
 *   a pre-tip restaurant receipt would need a range (e.g. +30 %), and within a range several
 *   card charges of one person fit, so such a match could never be exact; it is left out rather
 *   than suggested wrongly (the person attaches by hand from the transaction).
 * - its day (occurred_at's UTC date) is within **±3 days** of the receipt's date; closer is better.
 * - **merchant similarity** (normalised tokens: processor prefixes such as "SQ *" and store
 *   numbers dropped; the larger of token Jaccard and character-trigram Dice) ranks candidates the
 *   date leaves close.
 * - **exact** (attach automatically): the best candidate is on the receipt's day, and it is the
 *   only candidate, or its merchant is similar (≥ `MERCHANT_SIMILAR`) and no other same-day
 *   candidate's merchant is.
 * A receipt without an amount or a date has no candidates.
 */

const MATCH_WINDOW_DAYS = 3;
/** A merchant similarity from which two names are taken for the same merchant. */
const MERCHANT_SIMILAR = 0.6;

const receiptFieldsSchema = z.object({
  amount: z.object({ minor: z.number().int(), currency: currencyCodeSchema }).optional(),
  date: z.iso.date().optional(),
  merchant: z.string().trim().max(200).optional(),
});
export type ReceiptFields = z.infer<typeof receiptFieldsSchema>;

/** A receipt's fields as read by OCR or typed by the person (the worker's `setReceiptFields`). */
export const receiptExtractedSchema = receiptFieldsSchema.extend({ source: z.enum(['ocr', 'manual']) });
export type ReceiptExtracted = z.infer<typeof receiptExtractedSchema>;

export interface MatchCandidateInput {
  id: string;
  /** Integer minor units of `currency`. */
  amount: number;
  currency: string;
  /** ISO date-time (UTC). */
  occurred_at: string;
  merchant_name: string;
}

export type MatchReason = 'amount' | 'same_day' | 'near_date' | 'merchant';

export interface MatchCandidate {
  transaction_id: string;
  /** 0..1: 0.6 × date closeness (1 on the day, −0.25 a day) + 0.4 × merchant similarity. */
  score: number;
  /** Days between the receipt's date and the transaction's (absolute). */
  days: number;
  /** 0..1; 0 when either side has no merchant. */
  merchant: number;
  reasons: MatchReason[];
}

export interface MatchResult {
  /** Best first. */
  candidates: MatchCandidate[];
  /** The best candidate is certain enough to attach without asking. */
  exact: boolean;
}

const PREFIXES = /^(sq|tst|sp|pp|paypal|ppl|py|pos|dd|ckc|in|ic|sqsp|lyft|uber|amzn mktp us)\s*\*+\s*/i;
const STOP = new Set(['the', 'inc', 'llc', 'ltd', 'co', 'corp', 'company', 'store', 'and', 'of']);

/** Lower-case words of a merchant name, processor prefixes, store numbers and noise dropped. */
export function merchantTokens(name: string): string[] {
  const stripped = name.trim().replace(PREFIXES, '').toLowerCase().replace(/&/g, ' and ');
  return stripped
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0 && !STOP.has(t) && !/^\d+$/.test(t) && !/^#/.test(t));
}

function trigrams(s: string): Set<string> {
  const padded = `  ${s} `;
  const out = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3));
  return out;
}

/** 0..1: the larger of the names' token Jaccard and trigram Dice over their joined tokens. */
export function merchantSimilarity(a: string, b: string): number {
  const ta = merchantTokens(a);
  const tb = merchantTokens(b);
  if (ta.length === 0 || tb.length === 0) return 0;
  const sa = new Set(ta);
  const sb = new Set(tb);
  let common = 0;
  for (const t of sa) if (sb.has(t)) common++;
  const jaccard = common / (sa.size + sb.size - common);
  const ga = trigrams(ta.join(' '));
  const gb = trigrams(tb.join(' '));
  let shared = 0;
  for (const g of ga) if (gb.has(g)) shared++;
  const dice = (2 * shared) / (ga.size + gb.size);
  return Math.round(Math.max(jaccard, dice) * 100) / 100;
}

/** Whole days between two ISO dates (YYYY-MM-DD), absolute. */
export function daysBetween(a: string, b: string): number {
  return Math.abs(Math.round((Date.parse(`${a}T00:00:00Z`) - Date.parse(`${b}T00:00:00Z`)) / 86_400_000));
}

/** The inclusive UTC date range a receipt's candidates lie in (for an indexed pre-filter). */
export function matchWindow(date: string): { from: string; to: string } {
  const t = Date.parse(`${date}T00:00:00Z`);
  const day = (d: number) => new Date(t + d * 86_400_000).toISOString().slice(0, 10);
  return { from: day(-MATCH_WINDOW_DAYS), to: day(MATCH_WINDOW_DAYS) };
}

/** Ranks the transactions a receipt may belong to; see the rules above. */
export function matchReceipt(fields: ReceiptFields, transactions: readonly MatchCandidateInput[]): MatchResult {
  const { amount, date } = fields;
  const merchant = fields.merchant?.trim() ?? '';
  if (!amount || !date) return { candidates: [], exact: false };
  const candidates: MatchCandidate[] = [];
  for (const t of transactions) {
    if (t.currency !== amount.currency || t.amount !== amount.minor) continue;
    const days = daysBetween(t.occurred_at.slice(0, 10), date);
    if (!(days <= MATCH_WINDOW_DAYS)) continue;
    const sim = merchant ? merchantSimilarity(merchant, t.merchant_name) : 0;
    const reasons: MatchReason[] = ['amount', days === 0 ? 'same_day' : 'near_date'];
    if (sim >= MERCHANT_SIMILAR) reasons.push('merchant');
    const score = Math.round((0.6 * (1 - days / (MATCH_WINDOW_DAYS + 1)) + 0.4 * sim) * 100) / 100;
    candidates.push({ transaction_id: t.id, score, days, merchant: sim, reasons });
  }
  candidates.sort((a, b) => b.score - a.score || a.days - b.days || (a.transaction_id < b.transaction_id ? -1 : 1));
  const [best, ...others] = candidates;
  const exact =
    !!best &&
    best.days === 0 &&
    (others.length === 0 ||
      (best.merchant >= MERCHANT_SIMILAR && others.every((o) => !(o.days === 0 && o.merchant >= MERCHANT_SIMILAR))));
  return { candidates, exact };
}
