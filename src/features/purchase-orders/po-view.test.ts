import { describe, expect, it } from 'vitest';
import { purchaseOrderSchema, type PurchaseOrder, type PurchaseOrderLine } from '../../../schema/entities/purchase-order.ts';
import {
  billsText, canReceive, filterPurchaseOrders, localDateTimeValue, receiptLines, receiptLinesText, receivedAtIso, receivedText,
  receiveDefaults, receiptsNewestFirst,
} from './po-view.ts';

const LINE_A = '11111111-1111-4111-8111-111111111111';
const LINE_B = '22222222-2222-4222-8222-222222222222';

function line(over: Partial<PurchaseOrderLine> = {}): PurchaseOrderLine {
  return { id: LINE_A, description: 'Laptop stand', quantity: 5, unit_price: 4_500, received_quantity: 0, billed_quantity: 0, ...over };
}

/** A PO through the entity's schema, so a fixture the schema refuses fails here first. */
function po(over: Partial<PurchaseOrder> = {}): PurchaseOrder {
  return purchaseOrderSchema.parse({
    id: '33333333-3333-4333-8333-333333333333', po_number: 'PO-000123', spend_request_id: '44444444-4444-4444-8444-444444444444',
    vendor_id: '55555555-5555-4555-8555-555555555555', currency: 'USD', amount: 22_500, lines: [line()], status: 'OPEN', receipts: [], bill_ids: [],
    created_by: '66666666-6666-4666-8666-666666666666', closed_at: null, created_at: '2026-11-01T10:00:00Z', change_seq: 1, deleted: false,
    business_id: '88888888-8888-4888-8888-888888888888', updated_at: '2026-11-01T10:00:00Z',
    ...over,
  });
}

describe('receivedText and billsText', () => {
  it.each([
    [[line()], '0 of 5 received'],
    [[line({ received_quantity: 3 })], '3 of 5 received'],
    [[line({ received_quantity: 3 }), line({ id: LINE_B, quantity: 2, received_quantity: 2 })], '5 of 7 received'],
  ])('counts units over the lines (%#)', (lines, text) => expect(receivedText({ lines })).toBe(text));

  it.each([[0, 'No bills'], [1, '1 bill'], [4, '4 bills']])('%i → %s', (n, text) => expect(billsText(n)).toBe(text));
});

describe('filterPurchaseOrders', () => {
  const vendors: Record<string, string> = { '55555555-5555-4555-8555-555555555555': 'Acme Office', '77777777-7777-4777-8777-777777777777': 'Globex' };
  const name = (id: string) => vendors[id] ?? '';
  const list = [
    po({ id: '33333333-3333-4333-8333-333333333331', po_number: 'PO-000001', created_at: '2026-11-01T10:00:00Z' }),
    po({ id: '33333333-3333-4333-8333-333333333332', po_number: 'PO-000002', vendor_id: '77777777-7777-4777-8777-777777777777', status: 'RECEIVED', created_at: '2026-11-03T10:00:00Z' }),
    po({ id: '33333333-3333-4333-8333-333333333333', po_number: 'PO-000003', status: 'CLOSED', created_at: '2026-11-02T10:00:00Z' }),
  ];
  it.each([
    [{}, ['PO-000002', 'PO-000003', 'PO-000001']],
    [{ q: 'po-000001' }, ['PO-000001']],
    [{ q: 'glob' }, ['PO-000002']],
    [{ q: 'acme', status: 'CLOSED' as const }, ['PO-000003']],
    [{ q: 'nothing' }, []],
  ])('%j', (query, numbers) => expect(filterPurchaseOrders(list, name, query).map((p) => p.po_number)).toEqual(numbers));
});

describe('receive items', () => {
  const two = po({ lines: [line({ received_quantity: 3 }), line({ id: LINE_B, description: 'USB-C dock', quantity: 2, received_quantity: 2 })], status: 'PARTIALLY_RECEIVED' });

  it('starts each line still to arrive at what is left, leaving out lines that have all arrived', () => {
    expect(receiveDefaults(two)).toEqual({ [LINE_A]: '2' });
  });

  it('sends the lines above zero', () => {
    expect(receiptLines(two, { [LINE_A]: '2' })).toEqual({ ok: true, lines: [{ po_line_id: LINE_A, quantity: 2 }] });
    expect(receiptLines(po(), { [LINE_A]: ' 1 ' })).toEqual({ ok: true, lines: [{ po_line_id: LINE_A, quantity: 1 }] });
  });

  it.each([
    [{ [LINE_A]: '3' }, LINE_A, 'At most 2: only 2 of 5 ordered are still to arrive.'],
    [{ [LINE_A]: '1.5' }, LINE_A, 'Enter a whole number of items.'],
    [{ [LINE_A]: '-1' }, LINE_A, 'Enter a whole number of items.'],
    [{ [LINE_B]: '1' }, LINE_B, 'Everything ordered on this line has arrived.'],
  ])('refuses %j under its line', (values, lineId, message) => {
    const r = receiptLines(two, values);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[lineId]).toBe(message);
  });

  it('asks for at least one line', () => {
    expect(receiptLines(two, { [LINE_A]: '0' })).toEqual({ ok: false, message: 'Enter how many arrived on at least one line.', errors: {} });
  });

  it('refuses a closed PO in the server’s words', () => {
    const r = receiptLines(po({ status: 'CLOSED' }), { [LINE_A]: '1' });
    expect(r).toMatchObject({ ok: false, message: 'This purchase order is closed: nothing more can be received against it.' });
  });

  it('offers receiving only while something is left on an unclosed PO', () => {
    expect(canReceive(two)).toBe(true);
    expect(canReceive(po({ status: 'CLOSED' }))).toBe(false);
    expect(canReceive(po({ lines: [line({ received_quantity: 5 })], status: 'RECEIVED' }))).toBe(false);
  });
});

describe('received at', () => {
  const now = new Date(2026, 10, 29, 12, 30, 45);
  it('defaults to now, to the minute, in local time', () => expect(localDateTimeValue(now)).toBe('2026-11-29T12:30'));
  it('reads a local time as an instant', () => expect(receivedAtIso('2026-11-28T09:15', now)).toBe(new Date(2026, 10, 28, 9, 15).toISOString()));
  it.each(['', 'yesterday', '2026-11-30T09:00'])('refuses %j (not a time, or in the future)', (v) => expect(receivedAtIso(v, now)).toBeNull());
});

describe('receipts', () => {
  it('names each line received', () => {
    const p = po({ lines: [line(), line({ id: LINE_B, description: 'USB-C dock', quantity: 2 })] });
    expect(receiptLinesText(p, { lines: [{ po_line_id: LINE_A, quantity: 3 }, { po_line_id: LINE_B, quantity: 2 }] })).toBe('3 × Laptop stand, 2 × USB-C dock');
  });
  it('lists the newest first', () => {
    const r = (id: string, at: string) => ({ id, purchase_order_id: LINE_A, lines: [{ po_line_id: LINE_A, quantity: 1 }], received_at: at, received_by: LINE_B, document_ids: [], created_at: at });
    expect(receiptsNewestFirst([r('a', '2026-11-01T00:00:00Z'), r('b', '2026-11-05T00:00:00Z')]).map((x) => x.id)).toEqual(['b', 'a']);
  });
});
