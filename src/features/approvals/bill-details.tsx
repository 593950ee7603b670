import { BillInvoice } from '../../components/bill-invoice.tsx';
import { Facts, syncFact, type Fact } from '../../components/facts.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { SyncMark } from '../../components/sync-mark.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { BILL_STATUS_LABELS, BILL_STATUS_TONES } from '../../lib/bill-labels.ts';
import { formatDay, formatLocalDateTime, formatMoney } from '../../lib/format.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';
import type { BillRow } from './approval-rows.ts';
import { DuplicateMark } from '../../components/bill-duplicate-mark.tsx';

/**
 * A bill as its approver reads it: what is owed to whom and when, line by line, who sent it, and
 * the invoice document itself (the server lets whoever the bill's chain names read it).
 */
export function BillDetails({ bill, reference, client, version }: { bill: BillRow; reference: ReferenceView; client: DataClient; version: number }) {
  const vendor = reference.data.vendors.find((v) => v.id === bill.vendor_id)?.name;
  const rows: Fact[] = [
    ['Vendor', vendor ?? 'Not on this device yet'],
    ['Invoice', bill.invoice_number],
    ['Invoice date', formatDay(bill.invoice_date)],
    ['Due', formatDay(bill.due_date)],
    ['Memo', bill.memo ?? '—'],
    ['Submitted by', reference.names.user(bill.created_by) || '—'],
    ['Submitted', bill.submitted_at ? <time key="s" dateTime={bill.submitted_at}>{formatLocalDateTime(bill.submitted_at)}</time> : '—'],
    syncFact(bill),
  ];
  return (
    <>
      <div className="drawer-amount">{formatMoney(bill.amount, bill.currency)}</div>
      <div className="marks">
        <StatusPill tone={BILL_STATUS_TONES[bill.status]}>{BILL_STATUS_LABELS[bill.status]}</StatusPill>
        <SyncMark row={bill} />
      </div>
      <DuplicateMark bill={bill} reference={reference} />
      <Facts rows={rows} />
      <section aria-labelledby={`${bill.id}-lines`}>
        <h3 id={`${bill.id}-lines`} className="claim-section-title">Line items</h3>
        <table className="bill-lines">
          <thead>
            <tr>
              <th scope="col">Description</th>
              <th scope="col">GL account</th>
              <th scope="col" className="num">Amount</th>
            </tr>
          </thead>
          <tbody>
            {bill.line_items.map((line) => (
              <tr key={line.id}>
                <td>{line.description}</td>
                <td>{reference.names.glAccount(line.gl_account_id) || '—'}</td>
                <td className="num">{formatMoney(line.amount, bill.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section aria-labelledby={`${bill.id}-invoice`}>
        <h3 id={`${bill.id}-invoice`} className="claim-section-title">Invoice document</h3>
        {bill.invoice_file_id ? (
          <BillInvoice fileId={bill.invoice_file_id} invoiceNumber={bill.invoice_number} client={client} version={version} />
        ) : (
          <p className="muted">No invoice document is attached to this bill.</p>
        )}
      </section>
    </>
  );
}
