import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { PoMatch } from '../../../schema/bill-match.ts';
import { billSchema } from '../../../schema/entities/bill.ts';
import { createAppStore } from '../../data-access/app-state.ts';
import { DataProvider } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { buildReferenceView, EMPTY_REFERENCE } from '../../lib/reference-data.ts';
import { BillMatch } from './bill-match.tsx';
import type { BillView } from './use-bills.ts';

/** The drawer's match section on the server renderer: colour class, words per line, the override. */
const ID = '0b7e3f36-5c1d-4a53-9d55-7a2f6c1e0a11';
const LINE = '0b7e3f36-5c1d-4a53-9d55-000000000001';
const PO = '0b7e3f36-5c1d-4a53-9d55-0000000000f0';
const PO_LINE = '0b7e3f36-5c1d-4a53-9d55-0000000000f1';

function bill(m: PoMatch | null, purchaseOrderId: string | null = PO): BillView {
  return {
    ...billSchema.parse({
      id: ID, vendor_id: ID, invoice_number: 'INV-7', invoice_date: '2026-11-01', due_date: '2026-12-01', currency: 'USD', amount: 22_500,
      status: 'APPROVED', created_by: ID, created_at: '2026-11-01T10:00:00.000Z', business_id: ID, change_seq: 1, updated_at: '2026-11-01T10:00:00.000Z',
      line_items: [{ id: LINE, description: 'Laptop stand', amount: 22_500, po_line_id: PO_LINE, quantity: 5, unit_price: 4_500 }],
      purchase_order_id: purchaseOrderId, po_match: m,
    }),
    pending: null,
    failure: null,
  };
}

const mismatch: PoMatch = {
  status: 'MISMATCHED', reasons: [], override: null, checked_at: '2026-11-29T10:00:00.000Z',
  lines: [{ line_id: LINE, po_line_id: PO_LINE, matched: false, reasons: [{ code: 'QUANTITY_OVER_RECEIVED', text: 'Billed 5, received 3' }] }],
};

function render(b: BillView) {
  const client = {} as DataClient;
  return renderToStaticMarkup(
    <DataProvider client={client} store={createAppStore(true)}>
      <BillMatch bill={b} reference={buildReferenceView(EMPTY_REFERENCE)} client={client} online />
    </DataProvider>,
  );
}

describe('BillMatch', () => {
  it('shows nothing for a bill naming no purchase order', () => expect(render(bill(null, null))).toBe(''));

  it('shows a mismatch in red with each line’s reason', () => {
    const html = render(bill(mismatch));
    expect(html).toContain('bill-match-mismatched');
    expect(html).toContain('Mismatched');
    expect(html).toContain('Line 1 · Laptop stand');
    expect(html).toContain('billed 5 × $45.00');
    expect(html).toContain('Billed 5, received 3');
    // Not an admin: no override offered.
    expect(html).not.toContain('Override match');
  });

  it('shows an override in amber with its reason', () => {
    const html = render(bill({ ...mismatch, status: 'OVERRIDDEN', override: { by: ID, reason: 'Agreed with the vendor', at: '2026-11-29T11:00:00.000Z' } }));
    expect(html).toContain('bill-match-overridden');
    expect(html).toContain('“Agreed with the vendor”');
  });

  it('says when the server has not checked the bill yet', () => {
    expect(render(bill(null))).toContain('Not checked yet');
  });
});
