import { formatCount, formatMoney } from '../../lib/format.ts';

export interface PayRefusalsProps<B> {
  /** The selected bills the server would refuse for their three-way match, each with the match's reasons. */
  refused: readonly { bill: B; reason: string }[];
  vendorName(id: string): string;
}

/**
 * Issue 28, in the bulk "Pay now" confirmation: the selected bills that do not match their
 * purchase order (MISMATCHED), which the server refuses to pay (PROCUREMENT_7013), named with
 * their reasons before anything is sent. They are left out; the confirmation continues with the rest.
 */
export function PayRefusals<B extends { id: string; vendor_id: string; invoice_number: string; currency: string; amount: number }>({
  refused, vendorName,
}: PayRefusalsProps<B>) {
  if (refused.length === 0) return null;
  const n = refused.length;
  return (
    <div className="notice notice-error bill-pay-refused" role="note" data-testid="bill-pay-refused">
      <strong>
        {n === 1 ? '1 bill does not match its purchase order' : `${formatCount(n)} bills do not match their purchase orders`}
        {' '}and would be refused: {n === 1 ? 'it is' : 'they are'} left out.
      </strong>
      <ul aria-label="Not paid: purchase order mismatch">
        {refused.map(({ bill, reason }) => (
          <li key={bill.id}>
            <span className="bill-pay-vendor">{vendorName(bill.vendor_id) || 'Vendor'} · {bill.invoice_number} · {formatMoney(bill.amount, bill.currency)}</span>
            <span className="bill-pay-reason">{reason}</span>
          </li>
        ))}
      </ul>
      <p className="bill-pay-refused-next">Open a bill to see its match: fix the bill, receive what is missing, or have an admin override the match.</p>
    </div>
  );
}
