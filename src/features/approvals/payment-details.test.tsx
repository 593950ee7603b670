import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { billSchema } from '../../../schema/entities/bill.ts';
import { vendorSchema } from '../../../schema/entities/vendor.ts';
import { createAppStore } from '../../data-access/app-state.ts';
import { DataProvider } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { buildReferenceView, EMPTY_REFERENCE } from '../../lib/reference-data.ts';
import type { ApprovalView, BillRow } from './approval-rows.ts';
import { PayeeDetails, VendorPaymentDetails } from './payment-details.tsx';

/**
 * Issue 28 in the UI, on the server renderer: what the approver of a vendor payment reads ("Approving
 * sends …", who asked, the account) and a payee change (what changed, the masked account).
 */
const ID = (n: number) => `0b7e3f36-5c1d-4a53-9d55-${String(n).padStart(12, '0')}`;
const AT = '2026-11-29T10:00:00.000Z';
const vendor = vendorSchema.parse({
  id: ID(8), name: 'Acme Supplies', email: 'ap@acme.test', phone: null, address: null, default_gl_account_id: null, default_department_id: null,
  bank_account: { last_four: '6789', routing_last_four: '0021', account_type: 'CHECKING', verified_at: AT }, status: 'ACTIVE',
  payee_approval: { status: 'PENDING', change: 'BANK_ACCOUNT', requested_by: ID(3), requested_at: AT },
  business_id: ID(9), change_seq: 1, updated_at: AT,
});
const reference = buildReferenceView({ ...EMPTY_REFERENCE, vendors: [vendor] });
const asked = { status: 'PENDING', method: 'SCHEDULE', pay_on: '2027-01-15', requested_by: ID(3), requested_at: AT } as const;
const bill = (over: Record<string, unknown> = {}): BillRow => ({
  ...billSchema.parse({
    id: ID(5), vendor_id: ID(8), invoice_number: 'INV-77', invoice_date: '2026-11-01', due_date: '2026-12-01', currency: 'USD', amount: 90_000,
    status: 'APPROVED', created_by: ID(3), created_at: AT, business_id: ID(9), change_seq: 1, updated_at: AT,
    line_items: [{ id: ID(6), description: 'Paper', amount: 90_000 }], payment_approval: asked, ...over,
  }),
  pending: null,
  failure: null,
});
const approval: ApprovalView = {
  id: ID(1), business_id: ID(9), object_type: 'payee', object_id: ID(8), user_id: ID(3), approver_id: null, status: 'PENDING', reason: null,
  decided_by: null, decided_at: null, created_at: AT, change_seq: 1, updated_at: AT, deleted: false, pending: null, failure: null,
};

function render(node: React.ReactNode) {
  return renderToStaticMarkup(<DataProvider client={{} as DataClient} store={createAppStore(true)}>{node}</DataProvider>);
}

describe('vendor-payment and payee approvals in the inbox', () => {
  it('the approver reads what approving sends, to whom and when, and the account it goes to', () => {
    const html = render(<VendorPaymentDetails bill={bill()} reference={reference} client={{} as DataClient} version={0} />);
    expect(html).toContain('Approving schedules $900.00 to Acme Supplies for Jan 15, 2027.');
    expect(html).toContain('Checking •••• 6789 · routing •••• 0021');
    expect(html).toContain('INV-77');
  });

  it('a payee change says what changed and that the vendor is not paid until approved', () => {
    const html = render(<PayeeDetails vendorId={ID(8)} approval={approval} reference={reference} />);
    expect(html).toContain('New bank account');
    expect(html).toContain('Approving lets Acme Supplies be paid to the account ending 6789.');
    expect(html).toContain('Until then none of its bills can be paid.');
    expect(render(<PayeeDetails vendorId={ID(99)} approval={approval} reference={reference} />)).toContain('has not reached this device yet');
  });
});
