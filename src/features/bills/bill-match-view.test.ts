import { describe, expect, it } from 'vitest';
import type { PoMatch } from '../../../schema/bill-match.ts';
import { matchLines, matchPayBlock, overrideText } from './bill-match-view.ts';

const L1 = '11111111-1111-4111-8111-111111111111';
const L2 = '22222222-2222-4222-8222-222222222222';
const P1 = '33333333-3333-4333-8333-333333333333';
const ADMIN = '44444444-4444-4444-8444-444444444444';

const line = (id: string, over: Record<string, unknown> = {}) => ({
  id, description: 'Laptop stand', amount: 22_500, gl_account_id: null, department_id: null, location_id: null, tracking: {},
  vendor_credit_id: null, po_line_id: P1, quantity: 5, unit_price: 4_500, ...over,
});

function match(over: Partial<PoMatch> = {}): PoMatch {
  return {
    status: 'MISMATCHED', reasons: [],
    lines: [
      { line_id: L1, po_line_id: P1, matched: false, reasons: [{ code: 'QUANTITY_OVER_RECEIVED', text: 'Billed 5, received 3' }] },
      { line_id: L2, po_line_id: null, matched: false, reasons: [{ code: 'LINE_NOT_ON_PO', text: 'This line names no line of PO-000123' }] },
    ],
    override: null, checked_at: '2026-11-29T10:00:00Z', ...over,
  };
}

const money = (n: number) => `$${(n / 100).toFixed(2)}`;

describe('matchLines', () => {
  it('puts each bill line beside its PO line with the server’s reasons', () => {
    const bill = { line_items: [line(L1), line(L2, { description: 'Shipping', po_line_id: null, quantity: null, unit_price: null, amount: 1_000 })], po_match: match() };
    expect(matchLines(bill, { lines: [{ id: P1, description: 'Laptop stand (PO)', quantity: 5, unit_price: 4_500, received_quantity: 3, billed_quantity: 5 }] }, money)).toEqual([
      { id: L1, label: 'Line 1 · Laptop stand', poLine: 'Laptop stand (PO)', billed: '5 × $45.00', matched: false, reasons: ['Billed 5, received 3'] },
      { id: L2, label: 'Line 2 · Shipping', poLine: null, billed: null, matched: false, reasons: ['This line names no line of PO-000123'] },
    ]);
  });

  it('says when the PO is not on this device, and shows nothing without a match', () => {
    expect(matchLines({ line_items: [line(L1)], po_match: match() }, undefined, money)[0]?.poLine).toBe('A line not on this device');
    expect(matchLines({ line_items: [line(L1)], po_match: null }, undefined, money)).toEqual([]);
  });
});

describe('matchPayBlock', () => {
  it.each([
    [null, null],
    [match({ status: 'MATCHED', lines: [] }), null],
    [match({ status: 'OVERRIDDEN', override: { by: ADMIN, reason: 'Agreed', at: '2026-11-29T11:00:00Z' } }), null],
  ])('lets a bill be paid (%#)', (m, expected) => expect(matchPayBlock(m)).toBe(expected));

  it('names the reasons of a mismatch', () => {
    expect(matchPayBlock(match())).toBe('This bill does not match its purchase order, so it cannot be paid: Line 1: Billed 5, received 3. Line 2: This line names no line of PO-000123. Fix the bill, receive what is missing, or have an admin override the match.');
  });

  it('counts the reasons it leaves out', () => {
    const m = match({ reasons: [{ code: 'VENDOR_MISMATCH', text: 'The bill’s vendor is not PO-000123’s vendor' }] });
    expect(matchPayBlock(m)).toContain('(1 more below)');
  });
});

describe('overrideText', () => {
  it('names who overrode, when and why', () => {
    const m = match({ status: 'OVERRIDDEN', override: { by: ADMIN, reason: 'Price agreed by phone', at: '2026-11-29T11:00:00Z' } });
    expect(overrideText(m, () => 'Alex Kim', () => 'Nov 29, 2026')).toBe('Overridden by Alex Kim on Nov 29, 2026: “Price agreed by phone”');
    expect(overrideText(match(), () => '', () => '')).toBeNull();
  });
});
