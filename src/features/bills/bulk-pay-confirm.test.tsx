import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { PoMatch } from '../../../schema/bill-match.ts';
import { billSchema } from '../../../schema/entities/bill.ts';
import { createAppStore } from '../../data-access/app-state.ts';
import { DataProvider } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { bulkOffers } from './bill-actions.ts';
import { ConfirmBulk } from './bulk-bar.tsx';
import type { BillView } from './use-bills.ts';

/**
 * Issue 28, the bulk "Pay now" confirmation on the server renderer: a selected bill MISMATCHED with
 * its purchase order is named first with its reason, as refused and left out; the confirmation
 * goes on with the rest ("Pay the rest: $…"), or only closes when nothing else is left.
 */
const VENDOR = '0b7e3f36-5c1d-4a53-9d55-7a2f6c1e0a11';
const uuid = (n: number) => `0b7e3f36-5c1d-4a53-9d55-${String(n).padStart(12, '0')}`;

const mismatch: PoMatch = {
  status: 'MISMATCHED', reasons: [], override: null, checked_at: '2026-11-29T10:00:00.000Z',
  lines: [{ line_id: uuid(99), po_line_id: uuid(98), matched: false, reasons: [{ code: 'QUANTITY_OVER_RECEIVED', text: 'Billed 5, received 3' }] }],
};

function bill(n: number, amount: number, po_match: PoMatch | null): BillView {
  return {
    ...billSchema.parse({
      id: uuid(n), vendor_id: VENDOR, invoice_number: `INV-${n}`, invoice_date: '2026-11-01', due_date: '2026-12-01', currency: 'USD', amount,
      status: 'APPROVED', created_by: VENDOR, created_at: '2026-11-01T10:00:00.000Z', business_id: VENDOR, change_seq: 1, updated_at: '2026-11-01T10:00:00.000Z',
      line_items: [{ id: uuid(99), description: 'Laptop stand', amount }], po_match,
    }),
    pending: null,
    failure: null,
  };
}

const payable = { name: 'Acme Supplies', bank_account: { verified_at: '2026-01-01T00:00:00Z' } } as never;

function render(bills: BillView[], online = true) {
  const client = {} as DataClient;
  const offer = bulkOffers(bills, { online }).find((o) => o.action === 'pay-now')!;
  return renderToStaticMarkup(
    <DataProvider client={client} store={createAppStore(online)}>
      <ConfirmBulk offer={offer} bills={bills} online={online} vendorName={() => 'Acme Supplies'} vendorOf={() => payable}
        onClose={() => {}} onConfirm={async () => true} returnFocus={() => null} />
    </DataProvider>,
  );
}

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('bulk Pay now with a mismatched bill', () => {
  it('names the mismatched bill with its reason, left out, and continues with the rest', () => {
    const t = text(render([bill(1, 10_000, null), bill(2, 22_500, mismatch), bill(3, 5_000, null)]));
    expect(t).toContain('Pay the other 2 bills now?');
    expect(t).toContain('1 bill does not match its purchase order and would be refused: it is left out.');
    expect(t).toContain('Acme Supplies · INV-2 · $225.00');
    expect(t).toContain('Does not match its purchase order: Line 1: Billed 5, received 3.');
    expect(t).toContain('Pay the rest: $150.00');
    // The payments listed are only the rest.
    const payments = text(render([bill(1, 10_000, null), bill(2, 22_500, mismatch), bill(3, 5_000, null)]).split('aria-label="Payments"')[1]!);
    expect(payments).toContain('INV-1');
    expect(payments).toContain('INV-3');
    expect(payments).not.toContain('INV-2');
  });

  it('offline, queues only the rest', () => {
    const t = text(render([bill(1, 10_000, null), bill(2, 22_500, mismatch)], false));
    expect(t).toContain('Queue the other 1 bill for payment?');
    expect(t).toContain('Queue the rest: $100.00');
  });

  it('when every bill is mismatched, nothing is offered but Close, and it says why', () => {
    const t = text(render([bill(2, 22_500, mismatch), bill(4, 1_000, mismatch)]));
    expect(t).toContain('Nothing can be paid now');
    expect(t).toContain('none matches its purchase order, and the server refuses to pay a mismatched bill');
    expect(t).toContain('2 bills do not match their purchase orders and would be refused: they are left out.');
    expect(t).not.toMatch(/Pay \$|Pay the rest/);
    expect(t).toContain('Close');
  });

  it('with nothing mismatched it reads as before', () => {
    const t = text(render([bill(1, 10_000, null), bill(3, 5_000, null)]));
    expect(t).toContain('Pay 2 bills now?');
    expect(t).toContain('Pay $150.00');
    expect(t).not.toContain('purchase order');
  });
});
