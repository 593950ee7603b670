import type { Vendor } from '../../../schema/entities/vendor.ts';
import { Facts, type Fact } from '../../components/facts.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { formatDay, formatLocalDateTime } from '../../lib/format.ts';
import { approvingSendsText, PAYEE_CHANGE_LABELS, whenPaid } from '../../lib/payment-approval-labels.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';
import type { ApprovalView, BillRow } from './approval-rows.ts';
import { BillDetails } from './bill-details.tsx';

/** "Checking •••• 6789 · routing •••• 0021", or why there is none. */
const bankWords = (v: Vendor | undefined) => {
  const bank = v?.bank_account;
  if (!bank) return 'No bank account on file';
  const type = bank.account_type === 'CHECKING' ? 'Checking' : 'Savings';
  return `${type} •••• ${bank.last_four} · routing •••• ${bank.routing_last_four}${bank.verified_at ? '' : ' (not verified)'}`;
};

/**
 * Issue 28, vendor-payment policy: a bill's payment as its approver reads it. First what approving
 * does ("Approving sends $125.00 to Acme Co now, by ACH"), who asked and where the money goes,
 * then the bill itself.
 */
export function VendorPaymentDetails({ bill, reference, client, version }: { bill: BillRow; reference: ReferenceView; client: DataClient; version: number }) {
  const vendor = reference.data.vendors.find((v) => v.id === bill.vendor_id);
  const asked = bill.payment_approval;
  const name = vendor?.name ?? 'the vendor';
  const rows: Fact[] = asked ? [
    ['Paid', whenPaid(asked)],
    ['Asked by', reference.names.user(asked.requested_by) || '—'],
    ['Asked', <time key="a" dateTime={asked.requested_at}>{formatLocalDateTime(asked.requested_at)}</time>],
    ['Paid to', `${name} · ${bankWords(vendor)}`],
  ] : [];
  return (
    <>
      {asked?.status === 'PENDING' ? (
        <div className="notice" data-testid="approving-sends"><strong>{approvingSendsText(bill.amount, bill.currency, name, asked)}</strong></div>
      ) : (
        <p className="muted">This payment is no longer waiting for approval{asked?.reason ? `: not approved (${asked.reason})` : ''}.</p>
      )}
      <Facts rows={rows} />
      <BillDetails bill={bill} reference={reference} client={client} version={version} />
    </>
  );
}

/**
 * Issue 28, payee policy: a vendor's new payee details as the approver reads them: what changed
 * (a new vendor, a new bank account), the account it would be paid to, who made the change, and
 * that none of its bills is paid until this is approved.
 */
export function PayeeDetails({ vendorId, approval, reference }: { vendorId: string; approval: ApprovalView; reference: ReferenceView }) {
  const vendor = reference.data.vendors.find((v) => v.id === vendorId);
  if (!vendor) return <p className="muted">This vendor has not reached this device yet.</p>;
  const hold = vendor.payee_approval;
  const address = vendor.address ? [vendor.address.line1, vendor.address.city, vendor.address.state, vendor.address.country].filter(Boolean).join(', ') : '—';
  const rows: Fact[] = [
    ['Vendor', vendor.name],
    ['What changed', hold ? PAYEE_CHANGE_LABELS[hold.change] : '—'],
    ['Bank account', bankWords(vendor)],
    ['Email', vendor.email ?? '—'],
    ['Address', address],
    ['Changed by', reference.names.user(approval.user_id) || '—'],
    ['Changed', <time key="c" dateTime={approval.created_at}>{formatDay(approval.created_at)}</time>],
  ];
  return (
    <>
      {hold?.status === 'PENDING' && (
        <div className="notice" data-testid="payee-hold">
          <strong>Approving lets {vendor.name} be paid{vendor.bank_account ? ` to the account ending ${vendor.bank_account.last_four}` : ''}.</strong>{' '}
          Until then none of its bills can be paid.
        </div>
      )}
      <Facts rows={rows} />
    </>
  );
}
