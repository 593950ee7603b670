import { z } from 'zod';
import { uuid, isoDateTime } from './entities/common.ts';

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
