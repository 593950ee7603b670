import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { purchaseOrderSchema } from '../../../schema/entities/purchase-order.ts';
import { createAppStore } from '../../data-access/app-state.ts';
import { DataProvider } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { ReceiveDialog } from './receive-dialog.tsx';

/** "Receive items" on the server renderer: one input per line still to arrive, starting at what is left, never above it. */
const ID = '0b7e3f36-5c1d-4a53-9d55-7a2f6c1e0a11';
const po = purchaseOrderSchema.parse({
  id: ID, po_number: 'PO-000042', spend_request_id: ID, vendor_id: ID, currency: 'USD', amount: 31_500, status: 'PARTIALLY_RECEIVED',
  lines: [
    { id: '0b7e3f36-5c1d-4a53-9d55-000000000001', description: 'Laptop stand', quantity: 5, unit_price: 4_500, received_quantity: 3, billed_quantity: 0 },
    { id: '0b7e3f36-5c1d-4a53-9d55-000000000002', description: 'USB-C dock', quantity: 2, unit_price: 4_500, received_quantity: 2, billed_quantity: 0 },
  ],
  receipts: [], bill_ids: [], created_by: ID, closed_at: null, created_at: '2026-11-01T10:00:00.000Z',
  business_id: ID, change_seq: 1, updated_at: '2026-11-01T10:00:00.000Z', deleted: false,
});

function render(online: boolean) {
  const client = {} as DataClient;
  return renderToStaticMarkup(
    <DataProvider client={client} store={createAppStore(true)}>
      <ReceiveDialog po={po} client={client} online={online} onClose={() => {}} />
    </DataProvider>,
  );
}

describe('ReceiveDialog', () => {
  it('offers the lines still to arrive, each at what is left', () => {
    const html = render(true);
    expect(html).toContain('Receive items on PO-000042');
    expect(html).toMatch(/aria-label="Laptop stand: received now" value="2"|max="2"[^>]*value="2"/);
    expect(html).toContain('max="2"');
    expect(html).not.toContain('USB-C dock: received now');
    expect(html).toContain('type="datetime-local"');
    expect(html).toContain('Record receipt');
  });

  it('says offline that the receipt is kept here and sent once', () => {
    expect(render(false)).toContain('saved on this device and sent once');
  });
});
