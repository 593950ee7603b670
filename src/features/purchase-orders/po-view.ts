import type { ItemReceipt, ItemReceiptLine, PurchaseOrder, PurchaseOrderLine, PurchaseOrderStatus } from '../../../schema/entities/purchase-order.ts';
import { checkItemReceipt } from '../../../schema/procurement-rules.ts';
import type { PillTone } from '../../components/status-pill.tsx';

/**
 * Issue 28, the purchase orders' words and figures, pure (tested in po-view.test.ts): status
 * chips, "3 of 5 received", the list's search and status filter, and the "Receive items" form
 * (quantities as typed → the `itemReceipt.create` lines, checked with the server's own
 * `checkItemReceipt`, each refusal under its line).
 */
export const PO_STATUS_LABELS: Readonly<Record<PurchaseOrderStatus, string>> = {
  OPEN: 'Open',
  PARTIALLY_RECEIVED: 'Partially received',
  RECEIVED: 'Received',
  CLOSED: 'Closed',
};

export const PO_STATUS_TONES: Readonly<Record<PurchaseOrderStatus, PillTone>> = {
  OPEN: 'info',
  PARTIALLY_RECEIVED: 'warn',
  RECEIVED: 'ok',
  CLOSED: 'neutral',
};

type Lines = Pick<PurchaseOrder, 'lines'>;

/** Units received and ordered over every line. */
export function receivedUnits(po: Lines): { received: number; ordered: number } {
  let received = 0;
  let ordered = 0;
  for (const l of po.lines) {
    received += Math.min(l.received_quantity, l.quantity);
    ordered += l.quantity;
  }
  return { received, ordered };
}

/** "3 of 5 received". */
export function receivedText(po: Lines): string {
  const { received, ordered } = receivedUnits(po);
  return `${received} of ${ordered} received`;
}

/** "No bills", "1 bill", "3 bills". */
export const billsText = (n: number) => (n === 0 ? 'No bills' : `${n} ${n === 1 ? 'bill' : 'bills'}`);

/** What is still to arrive on a line. */
export const leftToReceive = (l: Pick<PurchaseOrderLine, 'quantity' | 'received_quantity'>) => Math.max(0, l.quantity - l.received_quantity);

export const lineTotal = (l: Pick<PurchaseOrderLine, 'quantity' | 'unit_price'>) => l.quantity * l.unit_price;

/** Anything left to receive on a PO that is not closed. */
export const canReceive = (po: Pick<PurchaseOrder, 'status' | 'lines'>) => po.status !== 'CLOSED' && po.lines.some((l) => leftToReceive(l) > 0);

export interface PoListQuery {
  q?: string | undefined;
  status?: PurchaseOrderStatus | undefined;
}

/**
 * The list: POs whose number or vendor name holds the search (case-insensitive) and in the status
 * asked, newest first.
 */
export function filterPurchaseOrders<P extends Pick<PurchaseOrder, 'po_number' | 'vendor_id' | 'status' | 'created_at'>>(
  pos: readonly P[], vendorName: (id: string) => string, query: PoListQuery,
): P[] {
  const q = query.q?.trim().toLowerCase() ?? '';
  return pos
    .filter((po) => (!query.status || po.status === query.status)
      && (q === '' || po.po_number.toLowerCase().includes(q) || vendorName(po.vendor_id).toLowerCase().includes(q)))
    .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : a.po_number < b.po_number ? 1 : -1));
}

// ---------------------------------------------------------------- receive items

/** The form's quantities as typed, by PO line id (only lines with something left to arrive). */
export type ReceiveValues = Record<string, string>;

/** Each line still to arrive starts at what is left (the usual case: everything came). */
export function receiveDefaults(po: Lines): ReceiveValues {
  return Object.fromEntries(po.lines.filter((l) => leftToReceive(l) > 0).map((l) => [l.id, String(leftToReceive(l))]));
}

export type ReceiveResult =
  | { ok: true; lines: ItemReceiptLine[] }
  | { ok: false; message: string; errors: Record<string, string> };

/**
 * The receipt's lines from the typed quantities: whole numbers from 0 to what is left (a blank or
 * 0 line is left out), at least one line above 0, then the server's `checkItemReceipt` over the
 * whole (a closed PO, a line over what is left), its words under the line it names.
 */
export function receiptLines(po: Pick<PurchaseOrder, 'status' | 'lines'>, values: ReceiveValues): ReceiveResult {
  const errors: Record<string, string> = {};
  const lines: ItemReceiptLine[] = [];
  for (const line of po.lines) {
    const typed = (values[line.id] ?? '').trim();
    if (typed === '') continue;
    if (!/^\d+$/.test(typed)) {
      errors[line.id] = 'Enter a whole number of items.';
      continue;
    }
    const quantity = Number(typed);
    const left = leftToReceive(line);
    if (quantity > left) errors[line.id] = left === 0 ? 'Everything ordered on this line has arrived.' : `At most ${left}: only ${left} of ${line.quantity} ordered ${left === 1 ? 'is' : 'are'} still to arrive.`;
    else if (quantity > 0) lines.push({ po_line_id: line.id, quantity });
  }
  if (Object.keys(errors).length > 0) return { ok: false, message: 'Check the quantities marked below.', errors };
  if (lines.length === 0) return { ok: false, message: 'Enter how many arrived on at least one line.', errors: {} };
  const check = checkItemReceipt(po, lines);
  if (!check.ok) {
    const named = po.lines.find((l) => check.message.startsWith(`"${l.description}"`));
    return { ok: false, message: check.message, errors: named ? { [named.id]: check.message } : {} };
  }
  return { ok: true, lines };
}

/** A `datetime-local` input's value for `now`, in the person's time zone ("2026-11-29T12:30"). */
export function localDateTimeValue(now: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}T${p(now.getHours())}:${p(now.getMinutes())}`;
}

/** A `datetime-local` value as an ISO instant, or null when it is not a time or lies in the future. */
export function receivedAtIso(local: string, now: Date): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(local)) return null;
  const at = new Date(local);
  if (Number.isNaN(at.getTime()) || at.getTime() > now.getTime() + 60_000) return null;
  return at.toISOString();
}

/** "3 × Laptop stand, 2 × USB-C dock" (a line no longer on the PO: "a removed line"). */
export function receiptLinesText(po: Lines, receipt: Pick<ItemReceipt, 'lines'>): string {
  return receipt.lines
    .map((r) => `${r.quantity} × ${po.lines.find((l) => l.id === r.po_line_id)?.description ?? 'a removed line'}`)
    .join(', ');
}

/** Receipts newest first (the PO keeps them oldest first). */
export const receiptsNewestFirst = (receipts: readonly ItemReceipt[]) =>
  [...receipts].sort((a, b) => (a.received_at < b.received_at ? 1 : a.received_at > b.received_at ? -1 : 0));
