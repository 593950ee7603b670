import { describe, expect, it } from 'vitest';
import {
  billPoLineErrors, DEFAULT_MATCH_TOLERANCES, keepOverride, matchBill, matchReasonsText, poMatchSchema, sameMatch,
  type MatchBill, type MatchBillLine, type MatchPoLine, type MatchPurchaseOrder, type MatchTolerances, type PoMatch,
} from './bill-match.ts';

const AT = '2026-11-29T12:00:00.000Z';
const VENDOR = '00000000-0000-4000-8000-0000000000aa';
const PO_LINE = '00000000-0000-4000-8000-000000000101';
const PO_LINE_2 = '00000000-0000-4000-8000-000000000102';
const lineId = (n: number) => `00000000-0000-4000-8000-00000000020${n}`;

const poLine = (o: Partial<MatchPoLine> = {}): MatchPoLine => ({
  id: PO_LINE, description: 'Widgets', quantity: 5, unit_price: 1_000, received_quantity: 5, billed_elsewhere: 0, ...o,
});
const po = (o: Partial<MatchPurchaseOrder> = {}): MatchPurchaseOrder => ({
  po_number: 'PO-000123', vendor_id: VENDOR, currency: 'USD', lines: [poLine()], ...o,
});
const billLine = (o: Partial<MatchBillLine> = {}, n = 1): MatchBillLine => {
  const quantity = o.quantity === undefined ? 5 : o.quantity;
  const unit = o.unit_price === undefined ? 1_000 : o.unit_price;
  return { id: lineId(n), po_line_id: PO_LINE, quantity, unit_price: unit, amount: (quantity ?? 0) * (unit ?? 0), ...o };
};
const bill = (o: Partial<MatchBill> = {}): MatchBill => ({ vendor_id: VENDOR, currency: 'USD', line_items: [billLine()], ...o });
const tol = (o: Partial<MatchTolerances> = {}): MatchTolerances => ({ ...DEFAULT_MATCH_TOLERANCES, ...o });

const match = (b: MatchBill, p: MatchPurchaseOrder = po(), t: MatchTolerances = tol()) => matchBill(b, p, t, AT);
/** The reasons of the first line, as `CODE: text`. */
const lineReasons = (m: PoMatch, i = 0) => m.lines[i]!.reasons.map((r) => `${r.code}: ${r.text}`);

describe('matchBill: a bill that matches', () => {
  it('is MATCHED with every line matched and no reasons', () => {
    const m = match(bill());
    expect(m).toEqual({
      status: 'MATCHED', reasons: [], override: null, checked_at: AT,
      lines: [{ line_id: lineId(1), po_line_id: PO_LINE, matched: true, reasons: [] }],
    });
    expect(poMatchSchema.parse(m)).toEqual(m);
  });
  it('a partial bill for what was received matches', () => {
    expect(match(bill({ line_items: [billLine({ quantity: 3 })] }), po({ lines: [poLine({ received_quantity: 3 })] })).status).toBe('MATCHED');
  });
  it('credit lines and free lines need no PO line', () => {
    const m = match(bill({
      line_items: [billLine(), billLine({ po_line_id: null, quantity: null, unit_price: null, amount: -500, vendor_credit_id: VENDOR }, 2),
        billLine({ po_line_id: null, quantity: null, unit_price: null, amount: 0 }, 3)],
    }));
    expect(m.status).toBe('MATCHED');
  });
});

describe('matchBill: bill-level reasons', () => {
  it.each([
    ['VENDOR_MISMATCH', bill({ vendor_id: '00000000-0000-4000-8000-0000000000bb' }), "The bill's vendor is not PO-000123's vendor"],
    ['CURRENCY_MISMATCH', bill({ currency: 'EUR' }), 'Billed in EUR; PO-000123 is in USD'],
  ] as const)('%s', (code, b, text) => {
    const m = match(b);
    expect(m.status).toBe('MISMATCHED');
    expect(m.reasons).toEqual([{ code, text }]);
    expect(m.lines[0]!.matched).toBe(true);
  });
  it('prices are not compared across currencies (the currency is the reason)', () => {
    const m = match(bill({ currency: 'EUR', line_items: [billLine({ unit_price: 5_000 })] }));
    expect(m.lines[0]!.reasons).toEqual([]);
  });
});

describe('matchBill: line reasons', () => {
  it.each<[string, MatchBill, MatchPurchaseOrder, MatchTolerances, string[]]>([
    ['a charge naming no PO line', bill({ line_items: [billLine({ po_line_id: null })] }), po(), tol(), ['LINE_NOT_ON_PO: Not on PO-000123']],
    ['a PO line of another PO', bill({ line_items: [billLine({ po_line_id: PO_LINE_2 })] }), po(), tol(),
      ['LINE_NOT_ON_PO: Names a line that is not on PO-000123']],
    ['a PO line without quantity', bill({ line_items: [billLine({ quantity: null, amount: 100 })] }), po(), tol(),
      ['LINE_NOT_ON_PO: Names "Widgets" on PO-000123 without a quantity and unit price']],
    ['5 billed, 3 received', bill(), po({ lines: [poLine({ received_quantity: 3 })] }), tol(),
      ['QUANTITY_OVER_RECEIVED: Billed 5, received 3']],
    ['nothing received yet', bill({ line_items: [billLine({ quantity: 1 })] }), po({ lines: [poLine({ received_quantity: 0 })] }), tol(),
      ['QUANTITY_OVER_RECEIVED: Billed 1, received 0']],
    ['6 billed, 5 ordered (and received)', bill({ line_items: [billLine({ quantity: 6 })] }), po(), tol(),
      ['QUANTITY_OVER_ORDERED: Billed 6, ordered 5', 'QUANTITY_OVER_RECEIVED: Billed 6, received 5']],
    ['other bills count', bill({ line_items: [billLine({ quantity: 3 })] }), po({ lines: [poLine({ billed_elsewhere: 3 })] }), tol(),
      ['QUANTITY_OVER_ORDERED: Billed 6 in all (3 here, 3 on other bills), ordered 5',
        'QUANTITY_OVER_RECEIVED: Billed 6 in all (3 here, 3 on other bills), received 5']],
    ['price 4 % above', bill({ line_items: [billLine({ unit_price: 1_040 })] }), po(), tol(),
      ["PRICE_MISMATCH: Unit price $10.40 is 4.0 % above the PO's $10.00"]],
    ['price 2.5 % below', bill({ line_items: [billLine({ unit_price: 975 })] }), po(), tol(),
      ["PRICE_MISMATCH: Unit price $9.75 is 2.5 % below the PO's $10.00"]],
    ['a price on a free PO line', bill({ line_items: [billLine({ unit_price: 100 })] }), po({ lines: [poLine({ unit_price: 0 })] }), tol(),
      ["PRICE_MISMATCH: Unit price $1.00; the PO's is $0.00"]],
    ['in a zero-decimal currency', bill({ currency: 'JPY', line_items: [billLine({ unit_price: 1_100 })] }), po({ currency: 'JPY' }), tol(),
      ["PRICE_MISMATCH: Unit price ¥1,100 is 10.0 % above the PO's ¥1,000"]],
  ])('%s', (_name, b, p, t, expected) => {
    const m = match(b, p, t);
    expect(m.status).toBe('MISMATCHED');
    expect(m.lines[0]!.matched).toBe(false);
    expect(lineReasons(m)).toEqual(expected);
  });

  it('two bill lines billing one PO line are summed, and both carry the reason', () => {
    const m = match(bill({ line_items: [billLine({ quantity: 2 }), billLine({ quantity: 2 }, 2)] }), po({ lines: [poLine({ received_quantity: 3 })] }));
    expect(lineReasons(m, 0)).toEqual(['QUANTITY_OVER_RECEIVED: Billed 4, received 3']);
    expect(lineReasons(m, 1)).toEqual(['QUANTITY_OVER_RECEIVED: Billed 4, received 3']);
  });

  it('only the line that differs is unmatched', () => {
    const m = match(
      bill({ line_items: [billLine(), billLine({ po_line_id: PO_LINE_2, quantity: 1, unit_price: 2_000 }, 2)] }),
      po({ lines: [poLine(), poLine({ id: PO_LINE_2, unit_price: 2_000, received_quantity: 0 })] }),
    );
    expect(m.lines.map((l) => l.matched)).toEqual([true, false]);
    expect(matchReasonsText(m)).toEqual(['Line 2: Billed 1, received 0.']);
  });
});

describe('matchBill: tolerance edges', () => {
  it.each<[string, number, MatchTolerances, boolean]>([
    ['exactly +2 % passes', 1_020, tol(), true],
    ['exactly −2 % passes', 980, tol(), true],
    ['one cent beyond +2 % fails', 1_021, tol(), false],
    ['one cent beyond −2 % fails', 979, tol(), false],
    ['0 % tolerance: exact only', 1_001, tol({ price_tolerance_percent: 0 }), false],
    ['0 % tolerance: the same price', 1_000, tol({ price_tolerance_percent: 0 }), true],
    ['2.5 %: 10.25 passes', 1_025, tol({ price_tolerance_percent: 2.5 }), true],
    ['100 %: double passes', 2_000, tol({ price_tolerance_percent: 100 }), true],
    ['100 %: free passes', 0, tol({ price_tolerance_percent: 100 }), true],
  ])('price: %s', (_name, unitPrice, t, matched) => {
    expect(match(bill({ line_items: [billLine({ unit_price: unitPrice })] }), po(), t).status).toBe(matched ? 'MATCHED' : 'MISMATCHED');
  });

  it('price at 0.1 % on a large price is compared exactly (no floating point slack)', () => {
    const p = po({ lines: [poLine({ unit_price: 1_000_000 })] });
    const t = tol({ price_tolerance_percent: 0.1 });
    expect(match(bill({ line_items: [billLine({ unit_price: 1_001_000 })] }), p, t).status).toBe('MATCHED');
    expect(match(bill({ line_items: [billLine({ unit_price: 1_001_001 })] }), p, t).status).toBe('MISMATCHED');
  });

  it('a difference just past the tolerance is written with enough decimals not to read as the tolerance', () => {
    const m = match(bill({ line_items: [billLine({ unit_price: 102_010 })] }), po({ lines: [poLine({ unit_price: 100_000 })] }));
    expect(lineReasons(m)).toEqual(["PRICE_MISMATCH: Unit price $1,020.10 is 2.01 % above the PO's $1,000.00"]);
    const tiny = match(bill({ line_items: [billLine({ unit_price: 1_020_010 })] }), po({ lines: [poLine({ unit_price: 1_000_000 })] }));
    expect(lineReasons(tiny)).toEqual(["PRICE_MISMATCH: Unit price $10,200.10 is 2.001 % above the PO's $10,000.00"]);
    const below = match(bill({ line_items: [billLine({ unit_price: 979_990 })] }), po({ lines: [poLine({ unit_price: 1_000_000 })] }));
    expect(lineReasons(below)).toEqual(["PRICE_MISMATCH: Unit price $9,799.90 is 2.001 % below the PO's $10,000.00"]);
  });

  it.each<[string, number, number, number, boolean]>([
    ['10 % of 10: 11 passes', 10, 11, 10, true],
    ['10 % of 10: 12 fails', 10, 12, 10, false],
    ['10 % of 5: 5.5 allowed, 6 fails', 5, 6, 10, false],
    ['20 % of 5: 6 passes', 5, 6, 20, true],
    ['0 %: one over fails', 5, 6, 0, false],
  ])('quantity over ordered: %s', (_name, ordered, billed, percent, ok) => {
    const m = match(bill({ line_items: [billLine({ quantity: billed })] }), po({ lines: [poLine({ quantity: ordered, received_quantity: ordered })] }),
      tol({ quantity_tolerance_percent: percent }));
    expect(m.lines[0]!.reasons.some((r) => r.code === 'QUANTITY_OVER_ORDERED')).toBe(!ok);
  });

  it('the quantity tolerance names the allowed figure', () => {
    const m = match(bill({ line_items: [billLine({ quantity: 6 })] }), po(), tol({ quantity_tolerance_percent: 10 }));
    expect(lineReasons(m)[0]).toBe('QUANTITY_OVER_ORDERED: Billed 6, ordered 5 (up to 5.5 with the 10 % tolerance)');
  });

  it('the quantity tolerance also allows billing that much beyond what was received', () => {
    const p = po({ lines: [poLine({ quantity: 10, received_quantity: 10 })] });
    expect(match(bill({ line_items: [billLine({ quantity: 11 })] }), p, tol({ quantity_tolerance_percent: 10 })).status).toBe('MATCHED');
  });
});

describe('keepOverride', () => {
  const mismatched = match(bill(), po({ lines: [poLine({ received_quantity: 3 })] }));
  const overridden: PoMatch = { ...mismatched, status: 'OVERRIDDEN', override: { by: VENDOR, reason: 'Paid on delivery', at: AT } };

  it('keeps an override while the reasons are the ones it overrode', () => {
    expect(keepOverride(mismatched, overridden)).toEqual({ ...mismatched, status: 'OVERRIDDEN', override: overridden.override });
  });
  it('keeps it when fewer of them remain', () => {
    const two = match(bill({ currency: 'EUR' }), po({ lines: [poLine({ received_quantity: 3 })] }));
    const fewer = match(bill(), po({ lines: [poLine({ received_quantity: 3 })] }));
    expect(keepOverride(fewer, { ...two, status: 'OVERRIDDEN', override: overridden.override }).status).toBe('OVERRIDDEN');
  });
  it('reopens it for a new reason', () => {
    const worse = match(bill(), po({ lines: [poLine({ received_quantity: 2 })] }));
    expect(keepOverride(worse, overridden)).toEqual(worse);
  });
  it('a bill that now matches is MATCHED, the override gone', () => {
    const fresh = match(bill());
    expect(keepOverride(fresh, overridden)).toEqual(fresh);
  });
  it('leaves a mismatch with no override as it is', () => {
    expect(keepOverride(mismatched, null)).toBe(mismatched);
    expect(keepOverride(mismatched, mismatched)).toBe(mismatched);
  });
});

describe('sameMatch', () => {
  it('ignores when it was checked', () => {
    const a = match(bill());
    expect(sameMatch(a, { ...a, checked_at: '2027-01-01T00:00:00.000Z' })).toBe(true);
    expect(sameMatch(a, match(bill({ currency: 'EUR' })))).toBe(false);
    expect(sameMatch(null, null)).toBe(true);
    const reordered = JSON.parse(JSON.stringify({ checked_at: a.checked_at, override: null, lines: a.lines, reasons: [], status: a.status })) as PoMatch;
    expect(sameMatch(a, reordered)).toBe(true);
    expect(sameMatch(a, null)).toBe(false);
  });
});

describe('billPoLineErrors', () => {
  it.each<[string, Parameters<typeof billPoLineErrors>[0][number], Record<string, string>]>([
    ['a PO line with quantity and price', { amount: 5_000, po_line_id: PO_LINE, quantity: 5, unit_price: 1_000 }, {}],
    ['a plain line', { amount: 5_000, po_line_id: null, quantity: null, unit_price: null }, {}],
    ['a PO line without them', { amount: 5_000, po_line_id: PO_LINE, quantity: null, unit_price: null },
      { 'line_items.0.quantity': 'Line 1: give both the quantity and the unit price billed for the purchase order line.' }],
    ['a quantity without a price', { amount: 5_000, po_line_id: null, quantity: 5, unit_price: null },
      { 'line_items.0.quantity': 'Line 1: give both the quantity and the unit price billed.' }],
    ['an amount that is not the product', { amount: 5_001, po_line_id: PO_LINE, quantity: 5, unit_price: 1_000 },
      { 'line_items.0.amount': 'Line 1: the amount must be the quantity × the unit price (5 × $10.00 = $50.00).' }],
  ])('%s', (_name, line, errors) => {
    expect(billPoLineErrors([line], 'USD')).toEqual(errors);
  });
});

describe('matchBill: fast', () => {
  it('matches a 500-line bill against a 100-line PO in well under a millisecond per line', () => {
    const lines = Array.from({ length: 100 }, (_, i) => poLine({ id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, quantity: 1_000, received_quantity: 1_000 }));
    const b = bill({ line_items: Array.from({ length: 500 }, (_, i) => billLine({ po_line_id: lines[i % 100]!.id, quantity: 1 }, i)) });
    const started = performance.now();
    const m = match(b, po({ lines }));
    expect(m.status).toBe('MATCHED');
    expect(performance.now() - started).toBeLessThan(250);
  });
});
