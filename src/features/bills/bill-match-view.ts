import { matchReasonsText, type MatchStatus, type PoMatch } from '../../../schema/bill-match.ts';
import type { Bill } from '../../../schema/entities/bill.ts';
import type { PurchaseOrder } from '../../../schema/entities/purchase-order.ts';
import type { PillTone } from '../../components/status-pill.tsx';

/**
 * Issue 28, the bill drawer's three-way match in words, pure (tested in bill-match-view.test.ts):
 * the status chip, each bill line against its PO line with the reasons the server gave, and why a
 * mismatched bill cannot be paid.
 */
export const MATCH_LABELS: Readonly<Record<MatchStatus, string>> = { MATCHED: 'Matched', MISMATCHED: 'Mismatched', OVERRIDDEN: 'Overridden' };
export const MATCH_TONES: Readonly<Record<MatchStatus, PillTone>> = { MATCHED: 'ok', MISMATCHED: 'danger', OVERRIDDEN: 'warn' };

export interface MatchLineView {
  id: string;
  /** "Line 2 · Laptop stand". */
  label: string;
  /** The PO line's description, or null when the bill line names none. */
  poLine: string | null;
  /** "5 × $45.00" when the bill line carries both. */
  billed: string | null;
  matched: boolean;
  reasons: string[];
}

type MatchedBill = Pick<Bill, 'line_items' | 'po_match'>;

/** Each bill line with its match (a line the match does not name — a credit line — is left out). */
export function matchLines(bill: MatchedBill, po: Pick<PurchaseOrder, 'lines'> | undefined, money: (minor: number) => string): MatchLineView[] {
  const m = bill.po_match;
  if (!m) return [];
  const byLine = new Map(m.lines.map((l) => [l.line_id, l]));
  return bill.line_items.flatMap((line, i) => {
    const match = byLine.get(line.id);
    if (!match) return [];
    const poLine = line.po_line_id ? (po?.lines.find((l) => l.id === line.po_line_id)?.description ?? 'A line not on this device') : null;
    const billed = line.quantity !== null && line.unit_price !== null ? `${line.quantity} × ${money(line.unit_price)}` : null;
    return [{
      id: line.id,
      label: `Line ${i + 1}${line.description ? ` · ${line.description}` : ''}`,
      poLine,
      billed,
      matched: match.matched,
      reasons: match.reasons.map((r) => r.text),
    }];
  });
}

/**
 * Why Pay now is held back: a MISMATCHED bill (the server refuses it, PROCUREMENT_7013) with its
 * first reasons; null when the match lets it be paid (none, MATCHED or OVERRIDDEN).
 */
export function matchPayBlock(m: PoMatch | null): string | null {
  if (!m || m.status !== 'MISMATCHED') return null;
  const reasons = matchReasonsText(m);
  const shown = reasons.slice(0, 2).join(' ');
  const more = reasons.length > 2 ? ` (${reasons.length - 2} more below)` : '';
  return `This bill does not match its purchase order, so it cannot be paid: ${shown}${more} Fix the bill, receive what is missing, or have an admin override the match.`;
}

/** "Overridden by Alex Kim on Nov 29, 2026: “Price agreed by phone”". */
export function overrideText(m: PoMatch | null, userName: (id: string) => string, when: (iso: string) => string): string | null {
  if (!m?.override) return null;
  return `Overridden by ${userName(m.override.by) || 'an admin'} on ${when(m.override.at)}: “${m.override.reason}”`;
}
