import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { billSchema } from '../../../schema/entities/bill.ts';
import { PaymentApprovalMark, PaymentApprovalNotice } from './payment-approval.tsx';

/** Issue 28, vendor-payment policy: the payer's notice in the bill drawer and the list's mark, on the server renderer. */
const ID = (n: number) => `0b7e3f36-5c1d-4a53-9d55-${String(n).padStart(12, '0')}`;
const AT = '2026-11-29T10:00:00.000Z';
const asked = { status: 'PENDING', method: 'SCHEDULE', pay_on: '2027-01-15', requested_by: ID(3), requested_at: AT } as const;
const bill = (over: Record<string, unknown> = {}) => billSchema.parse({
  id: ID(5), vendor_id: ID(8), invoice_number: 'INV-77', invoice_date: '2026-11-01', due_date: '2026-12-01', currency: 'USD', amount: 90_000,
  status: 'APPROVED', created_by: ID(3), created_at: AT, business_id: ID(9), change_seq: 1, updated_at: AT,
  line_items: [{ id: ID(6), description: 'Paper', amount: 90_000 }], payment_approval: asked, ...over,
});
const render = renderToStaticMarkup;

describe('a payment waiting for approval on the bill', () => {
  it('the payer sees the ask on the bill, then the refusal with its reason; nothing without one', () => {
    expect(render(<PaymentApprovalNotice bill={bill()} userName={() => 'Ada Admin'} />)).toContain('Payment waiting for approval:');
    expect(render(<PaymentApprovalMark bill={bill()} />)).toContain('Payment waiting for approval');
    const refused = bill({ payment_approval: { ...asked, status: 'REJECTED', reason: 'Wrong month', decided_by: ID(4) } });
    const html = render(<PaymentApprovalNotice bill={refused} userName={(id) => (id === ID(4) ? 'Bo Bookkeeper' : '')} />);
    expect(html).toContain('was not approved: Wrong month.');
    expect(html).toContain('by Bo Bookkeeper');
    expect(render(<PaymentApprovalNotice bill={bill({ payment_approval: null })} userName={() => ''} />)).toBe('');
  });
});
