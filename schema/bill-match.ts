import { z } from 'zod';
import { uuid, isoDateTime } from './entities/common.ts';
import { formatMoney, isKnownCurrency } from './money.ts';

/**
 * Issue 28, three-way match, the wire part: a bill that names its purchase order
 * (`purchase_order_id`, and per line `po_line_id`) is compared with the PO (ordered quantity and
 * unit price) and what was received (item receipts), within the business's tolerances
 * (`matchTolerancesSchema`: price ±2 %, quantity exact by default). The outcome is stored on the
 * bill (`po_match`) whenever the bill, its PO or its receipts change, so the bill drawer shows it
 * per line offline and pay-now refuses a MISMATCHED bill (PROCUREMENT_7013) until it matches or an
 * admin overrides it with a reason (audited; OVERRIDDEN keeps the reasons it overrode).
 *
 * The pure comparison (`matchBill`) lives beside this schema; the server stores its result.
 */
export const MATCH_REASON_CODES = [
  /** The bill line bills more units than the PO line ordered (beyond the quantity tolerance). */
  'QUANTITY_OVER_ORDERED',
  /** The bill line bills more units than have been received so far. */
  'QUANTITY_OVER_RECEIVED',
  /** The bill line's unit price differs from the PO's beyond the price tolerance. */
  'PRICE_MISMATCH',
  /** The bill line names no PO line while the bill names a PO (an unmatched charge). */
  'LINE_NOT_ON_PO',
  /** The bill's currency differs from the PO's. */
  'CURRENCY_MISMATCH',
  /** The bill's vendor is not the PO's. */
  'VENDOR_MISMATCH',
] as const;
export const matchReasonCodeSchema = z.enum(MATCH_REASON_CODES);
export type MatchReasonCode = z.infer<typeof matchReasonCodeSchema>;

/** One reason, with the figures in words ("Billed 5, received 3"). */
export const matchReasonSchema = z.object({ code: matchReasonCodeSchema, text: z.string() });
export type MatchReason = z.infer<typeof matchReasonSchema>;

export const lineMatchSchema = z.object({
  /** The bill line. */
  line_id: uuid,
  po_line_id: uuid.nullable(),
  matched: z.boolean(),
  reasons: z.array(matchReasonSchema),
});
export type LineMatch = z.infer<typeof lineMatchSchema>;

export const MATCH_STATUSES = ['MATCHED', 'MISMATCHED', 'OVERRIDDEN'] as const;
export const matchStatusSchema = z.enum(MATCH_STATUSES);
export type MatchStatus = z.infer<typeof matchStatusSchema>;

/** The bill's `po_match` (null when the bill names no PO). */
export const poMatchSchema = z.object({
  status: matchStatusSchema,
  /** Bill-level reasons (currency, vendor). */
  reasons: z.array(matchReasonSchema),
  lines: z.array(lineMatchSchema),
  /** Set when an admin overrode a mismatch. */
  override: z.object({ by: uuid, reason: z.string().min(1).max(1000), at: isoDateTime }).nullable(),
  checked_at: isoDateTime,
});
export type PoMatch = z.infer<typeof poMatchSchema>;

/** Per business (`GET/PUT /v1/auth/purchase-order-spend-requests/settings`). */
export const matchTolerancesSchema = z.object({
  /** A bill's unit price may differ from the PO's by this percentage either way (default 2). */
  price_tolerance_percent: z.number().min(0).max(100).default(2),
  /** A bill may bill this percentage more units than ordered (default 0: exact). */
  quantity_tolerance_percent: z.number().min(0).max(100).default(0),
});
export type MatchTolerances = z.infer<typeof matchTolerancesSchema>;
export const DEFAULT_MATCH_TOLERANCES: MatchTolerances = { price_tolerance_percent: 2, quantity_tolerance_percent: 0 };

// --- The comparison (pure) -------------------------------------------------------------------------

/** What the match reads of a bill line (schema/entities/bill.ts `BillLineItem`). */
export type MatchBillLine = {
  id: string;
  amount: number;
  po_line_id: string | null;
  quantity: number | null;
  unit_price: number | null;
  vendor_credit_id?: string | null;
};
/** What the match reads of the bill. */
export type MatchBill = { vendor_id: string; currency: string; line_items: readonly MatchBillLine[] };

/** What the match reads of a PO line, with the units other live bills bill against it. */
export type MatchPoLine = {
  id: string;
  description: string;
  quantity: number;
  unit_price: number;
  received_quantity: number;
  /** Units on the PO's other live bills (not deleted, not canceled) for this line; this bill's own are not counted. */
  billed_elsewhere: number;
};
/** What the match reads of the PO (schema/entities/purchase-order.ts). */
export type MatchPurchaseOrder = { po_number: string; vendor_id: string; currency: string; lines: readonly MatchPoLine[] };

/**
 * A tolerance percentage as hundredths of a percent (2 → 200, 2.5 → 250, 0.125 → 13): the
 * comparisons are then exact integer arithmetic (10 × 1.1 is 11.000000000000002 in floating point,
 * and a bill for 11 must not fail by that). Tolerances finer than 0.01 % are rounded.
 */
const basisPoints = (percent: number) => Math.round(percent * 100);

/** A quantity with at most two decimals (an allowed quantity under a tolerance: 5.5). */
const fewDecimals = (n: number) => String(Number(n.toFixed(2)));

/**
 * The difference as a percentage with one decimal ("4.0"), or more (up to four) when one
 * decimal would round it onto the tolerance or inside it: a refusal never reads "2.0 % above"
 * against a 2 % tolerance.
 */
function percentText(percent: number, tolerancePercent: number): string {
  for (let d = 1; d < 4; d++) {
    const s = percent.toFixed(d);
    if (Number(s) > tolerancePercent) return s;
  }
  return percent.toFixed(4);
}

/** "Billed 5" or "Billed 7 in all (5 here, 2 on other bills)": the total a limit is compared with. */
function billedText(here: number, elsewhere: number): string {
  return elsewhere === 0 ? `Billed ${here}` : `Billed ${here + elsewhere} in all (${here} here, ${elsewhere} on other bills)`;
}

type Reason = MatchReason;
const reason = (code: MatchReasonCode, text: string): Reason => ({ code, text });

function quantityReasons(here: number, line: MatchPoLine, qtyBp: number, qtyPercent: number): Reason[] {
  const out: Reason[] = [];
  const total = here + line.billed_elsewhere;
  const billed = billedText(here, line.billed_elsewhere);
  // total > ordered × (1 + tolerance), in hundredths of a percent.
  if (total * 10_000 > line.quantity * (10_000 + qtyBp)) {
    const allowed = qtyBp === 0 ? '' : ` (up to ${fewDecimals((line.quantity * (10_000 + qtyBp)) / 10_000)} with the ${fewDecimals(qtyPercent)} % tolerance)`;
    out.push(reason('QUANTITY_OVER_ORDERED', `${billed}, ordered ${line.quantity}${allowed}`));
  }
  // The same tolerance allows billing that much more than received: receipts never exceed what
  // was ordered, so a tolerance over the order would otherwise always fail here.
  if (total * 10_000 > line.received_quantity * (10_000 + qtyBp)) {
    out.push(reason('QUANTITY_OVER_RECEIVED', `${billed}, received ${line.received_quantity}`));
  }
  return out;
}

function priceReason(unitPrice: number, line: MatchPoLine, currency: string, priceBp: number, pricePercent: number): Reason | null {
  const diff = unitPrice - line.unit_price;
  // |bill − PO| > PO × tolerance, in hundredths of a percent.
  if (Math.abs(diff) * 10_000 <= line.unit_price * priceBp) return null;
  const billed = formatMoney(unitPrice, currency);
  const ordered = formatMoney(line.unit_price, currency);
  if (line.unit_price === 0) return reason('PRICE_MISMATCH', `Unit price ${billed}; the PO's is ${ordered}`);
  const percent = (Math.abs(diff) * 100) / line.unit_price;
  return reason('PRICE_MISMATCH', `Unit price ${billed} is ${percentText(percent, pricePercent)} % ${diff > 0 ? 'above' : 'below'} the PO's ${ordered}`);
}

/** A line that bills nothing (a vendor credit taken off, a free item) is no charge to match. */
const isCharge = (l: MatchBillLine) => l.amount > 0 && !l.vendor_credit_id;

/**
 * Compares a bill with its purchase order and what was received (issue 28 three-way match), within
 * the business's tolerances. Pure and linear in the lines. Bill-level: the vendor and currency must
 * be the PO's. Per bill line: a charge must name a PO line (LINE_NOT_ON_PO); the units billed for a
 * PO line, on this bill and the PO's other live bills together, may exceed neither what was ordered
 * nor what was received by more than the quantity tolerance (QUANTITY_OVER_ORDERED,
 * QUANTITY_OVER_RECEIVED); the unit price may differ from the PO's by the price tolerance either
 * way (PRICE_MISMATCH; not compared when the currencies differ: the bill-level reason says why).
 * `at` is `checked_at`. The result carries no override: the store keeps an admin's (bill-match-store.ts).
 */
export function matchBill(bill: MatchBill, po: MatchPurchaseOrder, tolerances: MatchTolerances, at: string): PoMatch {
  const reasons: Reason[] = [];
  if (bill.vendor_id !== po.vendor_id) reasons.push(reason('VENDOR_MISMATCH', `The bill's vendor is not ${po.po_number}'s vendor`));
  const sameCurrency = bill.currency === po.currency;
  if (!sameCurrency) reasons.push(reason('CURRENCY_MISMATCH', `Billed in ${bill.currency}; ${po.po_number} is in ${po.currency}`));
  const poLines = new Map(po.lines.map((l) => [l.id, l]));
  // This bill's units per PO line (two bill lines may bill one PO line).
  const here = new Map<string, number>();
  for (const l of bill.line_items) {
    if (l.po_line_id && l.quantity !== null) here.set(l.po_line_id, (here.get(l.po_line_id) ?? 0) + l.quantity);
  }
  const qtyBp = basisPoints(tolerances.quantity_tolerance_percent);
  const priceBp = basisPoints(tolerances.price_tolerance_percent);
  const lines = bill.line_items.map((l): LineMatch => {
    const lineReasons = lineMatchReasons(l, poLines, here, po, {
      qtyBp, priceBp, tolerances, currency: sameCurrency ? po.currency : null,
    });
    return { line_id: l.id, po_line_id: l.po_line_id, matched: lineReasons.length === 0, reasons: lineReasons };
  });
  const matched = reasons.length === 0 && lines.every((l) => l.matched);
  return { status: matched ? 'MATCHED' : 'MISMATCHED', reasons, lines, override: null, checked_at: at };
}

type LineContext = { qtyBp: number; priceBp: number; tolerances: MatchTolerances; currency: string | null };

function lineMatchReasons(
  l: MatchBillLine, poLines: ReadonlyMap<string, MatchPoLine>, here: ReadonlyMap<string, number>, po: MatchPurchaseOrder, c: LineContext,
): Reason[] {
  if (!l.po_line_id) return isCharge(l) ? [reason('LINE_NOT_ON_PO', `Not on ${po.po_number}`)] : [];
  const line = poLines.get(l.po_line_id);
  if (!line) return [reason('LINE_NOT_ON_PO', `Names a line that is not on ${po.po_number}`)];
  if (l.quantity === null || l.unit_price === null) {
    return [reason('LINE_NOT_ON_PO', `Names "${line.description}" on ${po.po_number} without a quantity and unit price`)];
  }
  const out = quantityReasons(here.get(line.id) ?? 0, line, c.qtyBp, c.tolerances.quantity_tolerance_percent);
  const price = c.currency === null ? null : priceReason(l.unit_price, line, c.currency, c.priceBp, c.tolerances.price_tolerance_percent);
  if (price) out.push(price);
  return out;
}

/**
 * The match after a fresh comparison, given the stored one: an admin's override stands while
 * every reason now found is one it overrode (same line, code and words), so the bill stays
 * payable; a reason it did not see reopens the bill as MISMATCHED (override dropped); a bill that
 * now matches is MATCHED. `checked_at` is the fresh one.
 */
export function keepOverride(fresh: PoMatch, stored: PoMatch | null): PoMatch {
  if (fresh.status === 'MATCHED' || stored?.status !== 'OVERRIDDEN' || !stored.override) return fresh;
  const seen = new Set(reasonKeys(stored));
  return reasonKeys(fresh).every((k) => seen.has(k)) ? { ...fresh, status: 'OVERRIDDEN', override: stored.override } : fresh;
}

/** Each reason of a match as `line|code|text` (the bill-level ones under line ""). */
function reasonKeys(m: PoMatch): string[] {
  return [
    ...m.reasons.map((r) => `|${r.code}|${r.text}`),
    ...m.lines.flatMap((l) => l.reasons.map((r) => `${l.line_id}|${r.code}|${r.text}`)),
  ];
}

/** JSON with every object's keys sorted: a match read back from jsonb has its keys in jsonb's order, not ours. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** Whether two matches say the same (checked_at aside): the store writes, and stamps a seq, only when they do not. */
export function sameMatch(a: PoMatch | null, b: PoMatch | null): boolean {
  if (a === null || b === null) return a === b;
  return canonical({ ...a, checked_at: '' }) === canonical({ ...b, checked_at: '' });
}

/** Every reason of a match in one sentence each, bill-level first ("Line 2: Billed 5, received 3"). */
export function matchReasonsText(m: PoMatch): string[] {
  return [
    ...m.reasons.map((r) => `${r.text}.`),
    ...m.lines.flatMap((l, i) => l.reasons.map((r) => `Line ${i + 1}: ${r.text}.`)),
  ];
}

/**
 * The line rules a bill naming a PO adds (field errors by field, validateBill's style): a line
 * naming a PO line gives its quantity and unit price, a quantity and unit price come together,
 * and the amount is their product. Whether the PO line is the PO's is the server's check
 * (PROCUREMENT_7012).
 */
export type PoLineFields = { amount: number; po_line_id?: string | null; quantity?: number | null; unit_price?: number | null };
export function billPoLineErrors(lines: readonly PoLineFields[], currency: string): Record<string, string> {
  const errors: Record<string, string> = {};
  lines.forEach((l, i) => {
    const q = l.quantity ?? null;
    const p = l.unit_price ?? null;
    if ((l.po_line_id && (q === null || p === null)) || ((q === null) !== (p === null))) {
      errors[`line_items.${i}.quantity`] = `Line ${i + 1}: give both the quantity and the unit price billed${l.po_line_id ? ' for the purchase order line' : ''}.`;
    } else if (q !== null && p !== null && q * p !== l.amount) {
      const money = (n: number) => (isKnownCurrency(currency) ? formatMoney(n, currency) : String(n));
      errors[`line_items.${i}.amount`] = `Line ${i + 1}: the amount must be the quantity × the unit price (${q} × ${money(p)} = ${money(q * p)}).`;
    }
  });
  return errors;
}
