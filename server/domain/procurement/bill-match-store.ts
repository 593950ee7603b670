import {
  DEFAULT_MATCH_TOLERANCES, keepOverride, matchBill, matchReasonsText, sameMatch,
  type MatchBillLine, type MatchPoLine, type MatchPurchaseOrder, type MatchTolerances, type PoMatch,
} from '../../../schema/bill-match.ts';
import type { Bill, BillLineInput } from '../../../schema/entities/bill.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { writeMirrored } from '../collections.ts';

/**
 * Issue 28, the three-way match in storage: each live bill naming a purchase order carries its
 * match (`bills.po_match`, schema/bill-match.ts), recomputed whenever what it compares changes —
 * the bill (create, edit, cancel, delete: domain/bills.ts, bill-bulk.ts), the PO's receipts (the
 * item-receipt writes call `refreshBillMatches`) or the business's tolerances
 * (`refreshBusinessBillMatches`). A bill is written, with a new change seq, only when its match
 * changed, so a receipt that changes nothing for a bill does not send it to every mirror again.
 * Callers hold the business row (writeMirrored), so two writers never recompute one PO at once.
 */

/** The business's tolerances (absent: price ±2 %, quantity exact). */
export async function matchTolerances(db: Queryable, businessId: string): Promise<MatchTolerances> {
  const [row] = await db.query<{ price: number; quantity: number }>(
    `SELECT price_tolerance_percent::float8 AS price, quantity_tolerance_percent::float8 AS quantity
       FROM match_tolerances WHERE business_id = $1`,
    [businessId],
  );
  return row ? { price_tolerance_percent: Number(row.price), quantity_tolerance_percent: Number(row.quantity) } : DEFAULT_MATCH_TOLERANCES;
}

type PoRow = Omit<MatchPurchaseOrder, 'lines'> & { status: string; lines: Omit<MatchPoLine, 'billed_elsewhere'>[] };

/** The PO as the match reads it (another business's or a deleted one: null). */
async function purchaseOrderForMatch(db: Queryable, businessId: string, id: string, lock: boolean): Promise<PoRow | null> {
  const [po] = await db.query<PoRow>(
    `SELECT r.po_number, r.vendor_id::text, r.currency, r.status,
            (SELECT coalesce(jsonb_agg(jsonb_build_object('id', l.id, 'description', l.description, 'quantity', l.quantity,
                      'unit_price', l.unit_price, 'received_quantity', l.received_quantity) ORDER BY l.position), '[]'::jsonb)
               FROM purchase_order_lines l WHERE l.purchase_order_id = r.id) AS lines
       FROM purchase_orders r WHERE r.business_id = $1 AND r.id = $2 AND NOT r.deleted ${lock ? 'FOR SHARE' : ''}`,
    [businessId, id],
  );
  return po ?? null;
}

type BillRow = { id: string; vendor_id: string; currency: string; po_match: PoMatch | null; lines: MatchBillLine[] };

/** The live bills (not deleted, not canceled) naming the PO, locked in id order, with their lines. */
async function liveBillsOf(tx: Queryable, businessId: string, purchaseOrderId: string): Promise<BillRow[]> {
  return tx.query<BillRow>(
    `SELECT b.id::text, b.vendor_id::text, b.currency, b.po_match,
            (SELECT coalesce(jsonb_agg(jsonb_build_object('id', li.id, 'amount', li.amount, 'po_line_id', li.po_line_id,
                      'quantity', li.quantity, 'unit_price', li.unit_price, 'vendor_credit_id', li.vendor_credit_id)
                      ORDER BY li.position), '[]'::jsonb)
               FROM bill_line_items li WHERE li.bill_id = b.id) AS lines
       FROM bills b
      WHERE b.business_id = $1 AND b.purchase_order_id = $2 AND NOT b.deleted AND b.status <> 'CANCELED'
      ORDER BY b.id FOR UPDATE OF b`,
    [businessId, purchaseOrderId],
  );
}

/** Units per PO line on one bill. */
function unitsByPoLine(lines: readonly MatchBillLine[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const l of lines) if (l.po_line_id && l.quantity !== null) out.set(l.po_line_id, (out.get(l.po_line_id) ?? 0) + Number(l.quantity));
  return out;
}

/**
 * Recomputes and stores the match of every live bill naming the PO: one read of the PO, its
 * tolerances and its bills (the other bills' units per line come from the same read), then one
 * UPDATE per bill whose match changed, each with its own seq. An OVERRIDDEN match stays so while
 * its reasons are ones the admin overrode (`keepOverride`). Returns the ids of the bills written.
 */
export async function refreshBillMatches(tx: Queryable, businessId: string, purchaseOrderId: string, now = new Date()): Promise<string[]> {
  const po = await purchaseOrderForMatch(tx, businessId, purchaseOrderId, false);
  if (!po) return [];
  const bills = await liveBillsOf(tx, businessId, purchaseOrderId);
  if (bills.length === 0) return [];
  const tolerances = await matchTolerances(tx, businessId);
  const perBill = bills.map((b) => unitsByPoLine(b.lines.map(numericLine)));
  const total = new Map<string, number>();
  for (const units of perBill) for (const [line, n] of units) total.set(line, (total.get(line) ?? 0) + n);
  const at = now.toISOString();
  const changed: { id: string; match: PoMatch }[] = [];
  bills.forEach((b, i) => {
    const own = perBill[i]!;
    const lines = po.lines.map((l) => ({ ...numericPoLine(l), billed_elsewhere: (total.get(l.id) ?? 0) - (own.get(l.id) ?? 0) }));
    const fresh = matchBill({ vendor_id: b.vendor_id, currency: b.currency, line_items: b.lines.map(numericLine) }, { ...po, lines }, tolerances, at);
    const next = keepOverride(fresh, b.po_match);
    if (!sameMatch(b.po_match, next)) changed.push({ id: b.id, match: next });
  });
  if (changed.length === 0) return [];
  await writeMirrored(tx, businessId, changed.length, async ({ seqs }) => {
    for (const [i, c] of changed.entries()) {
      await tx.query('UPDATE bills SET po_match = $3::jsonb, change_seq = $4, updated_at = $5 WHERE business_id = $1 AND id = $2',
        [businessId, c.id, JSON.stringify(c.match), seqs.first + i, at]);
    }
  });
  return changed.map((c) => c.id);
}

/** bigint columns read through jsonb are numbers already; through a driver they may be strings. */
const numericLine = (l: MatchBillLine): MatchBillLine => ({
  ...l, amount: Number(l.amount), quantity: l.quantity === null ? null : Number(l.quantity), unit_price: l.unit_price === null ? null : Number(l.unit_price),
});
const numericPoLine = (l: Omit<MatchPoLine, 'billed_elsewhere'>) => ({
  ...l, quantity: Number(l.quantity), unit_price: Number(l.unit_price), received_quantity: Number(l.received_quantity),
});

/**
 * After the business's tolerances change: every PO with a live bill not yet paid is recomputed
 * (a paid bill's match no longer decides anything, but is recomputed with its PO all the same).
 */
export async function refreshBusinessBillMatches(tx: Queryable, businessId: string, now = new Date()): Promise<string[]> {
  const pos = await tx.query<{ id: string }>(
    `SELECT DISTINCT purchase_order_id::text AS id FROM bills
      WHERE business_id = $1 AND purchase_order_id IS NOT NULL AND NOT deleted
        AND status NOT IN ('CANCELED', 'PAID', 'RECONCILED') ORDER BY 1`,
    [businessId],
  );
  const written: string[] = [];
  for (const p of pos) written.push(...(await refreshBillMatches(tx, businessId, p.id, now)));
  return written;
}

/**
 * A bill write naming a PO (create, or a PATCH of the PO or the lines): the PO must be the
 * business's and live (404 otherwise), not CLOSED and of the bill's vendor (422), and each line's
 * `po_line_id` one of its lines (PROCUREMENT_7012, naming the line). A bill naming no PO may not
 * name PO lines either. The PO row is share-locked until the write commits (a close waits).
 */
export async function assertBillPurchaseOrder(
  tx: Queryable, businessId: string, bill: { vendor_id: string; purchase_order_id: string | null; line_items: readonly Pick<BillLineInput, 'po_line_id'>[] },
): Promise<void> {
  const named = bill.line_items.findIndex((l) => l.po_line_id);
  if (!bill.purchase_order_id) {
    if (named >= 0) throw new ApiError('PROCUREMENT_7012', `Line ${named + 1} names a purchase order line, but the bill names no purchase order.`);
    return;
  }
  const po = await purchaseOrderForMatch(tx, businessId, bill.purchase_order_id, true);
  if (!po) throw new ApiError('REQUEST_7004', 'This purchase order was not found.');
  if (po.status === 'CLOSED') {
    throw new ApiError('REQUEST_7001', `${po.po_number} is closed: nothing more can be billed against it.`, {
      purchase_order_id: `${po.po_number} is closed: nothing more can be billed against it.`,
    });
  }
  if (po.vendor_id !== bill.vendor_id) {
    const message = `${po.po_number} is not from this bill's vendor: a bill can only bill its own vendor's purchase order.`;
    throw new ApiError('REQUEST_7001', message, { purchase_order_id: message });
  }
  const ids = new Set(po.lines.map((l) => l.id));
  bill.line_items.forEach((l, i) => {
    if (l.po_line_id && !ids.has(l.po_line_id)) {
      throw new ApiError('PROCUREMENT_7012', `Line ${i + 1} names a line that is not on ${po.po_number}.`, {
        [`line_items.${i}.po_line_id`]: `This line is not on ${po.po_number}.`,
      });
    }
  });
}

/**
 * Stamps the PO with a new seq: its doc carries the live bills naming it and each line's billed
 * units (schema/entities/purchase-order.ts), so a bill written against it changes it too.
 */
export async function restampPurchaseOrders(tx: Queryable, businessId: string, ids: readonly (string | null | undefined)[], at: string): Promise<void> {
  const distinct = [...new Set(ids.filter((id): id is string => Boolean(id)))].sort();
  if (distinct.length === 0) return;
  await writeMirrored(tx, businessId, distinct.length, async ({ seqs }) => {
    await tx.query(
      `UPDATE purchase_orders p SET change_seq = $3 + array_position($2::uuid[], p.id) - 1, updated_at = $4
        WHERE p.business_id = $1 AND p.id = ANY($2::uuid[])`,
      [businessId, distinct, seqs.first, at],
    );
  });
}

/**
 * A bill write touched what the match of its PO (and its previous PO, if it moved) compares:
 * every live bill of those POs is recomputed and the POs stamped.
 */
export async function afterBillWrite(tx: Queryable, businessId: string, poIds: readonly (string | null | undefined)[], now: Date): Promise<void> {
  const distinct = [...new Set(poIds.filter((id): id is string => Boolean(id)))].sort();
  for (const id of distinct) await refreshBillMatches(tx, businessId, id, now);
  await restampPurchaseOrders(tx, businessId, distinct, now.toISOString());
}

/**
 * Pay-now, scheduling and retries refuse a bill whose match is MISMATCHED (PROCUREMENT_7013),
 * naming every reason; MATCHED and OVERRIDDEN bills, and bills naming no PO, pass.
 */
export function assertMatchAllowsPayment(bill: Pick<Bill, 'po_match'>): void {
  if (bill.po_match?.status !== 'MISMATCHED') return;
  throw new ApiError('PROCUREMENT_7013',
    `This bill does not match its purchase order: ${matchReasonsText(bill.po_match).join(' ')} Resolve the differences, or an admin can override the match with a reason.`);
}
