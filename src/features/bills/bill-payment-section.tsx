import { useEffect, useState } from 'react';
import { nextPaymentAttempt } from '../../../schema/bill-rules.ts';
import type { BillPaymentRow } from '../../../workers/api.ts';
import { Facts, type Fact } from '../../components/facts.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { formatDay, formatLocalDateTime, formatMoney } from '../../lib/format.ts';
import { PaymentDocuments } from './payment-documents.tsx';
import { attemptRailText } from './pay-rails.ts';
import { failureText } from './run-bill-call.ts';
import type { BillView } from './use-bills.ts';

/**
 * The bill drawer's payments section (moved out of bill-drawer.tsx with issue 30): the attempts
 * (each with its rail: a check's number and images, a wire's MT103), a failure, a manual payment,
 * reconciliation. The attempts list is a direct call (online only).
 */
const PAYMENT_WORDS: Record<BillPaymentRow['status'], string> = { PENDING: 'Sent, not settled', SETTLED: 'Settled', FAILED: 'Failed', REVERSED: 'Reversed' };

/** "Sent, not settled (settles Dec 1)": an attempt's state with its settlement day when known. */
function paymentWords(p: BillPaymentRow): string {
  if (p.status === 'PENDING' && p.settles_on) return `${PAYMENT_WORDS.PENDING} (settles ${formatDay(p.settles_on)})`;
  return PAYMENT_WORDS[p.status];
}

/** Attempts, failure, a manual payment, reconciliation; the attempts list is a direct call (online only). */
export function BillPayment({ bill, client, online, version, vendor }: { bill: BillView; client: DataClient; online: boolean; version: number; vendor: string }) {
  const [payments, setPayments] = useState<BillPaymentRow[] | string | null>(null);
  const attempts = bill.payment_attempt;
  useEffect(() => {
    if (attempts === 0 || !online) return;
    let live = true;
    void client.billPayments(bill.id).then((r) => live && setPayments(r.ok ? r.payments : failureText(r)));
    return () => {
      live = false;
    };
  }, [client, bill.id, attempts, online, version]);

  const rows: Fact[] = [['Attempts', attempts === 0 ? 'None yet' : String(attempts)]];
  if (bill.paid_at) rows.push(['Paid', <span key="p">{formatLocalDateTime(bill.paid_at)}{bill.paid_manually ? ' (marked as paid: paid outside Ledgerline)' : ''}</span>]);
  if (bill.reconciled_at) rows.push(['Reconciled', formatLocalDateTime(bill.reconciled_at)]);
  if (bill.payment_failure_reason) rows.push(['Last failure', bill.payment_failure_reason]);
  if (bill.status === 'PAYMENT_FAILED') rows.push(['Next attempt', `#${nextPaymentAttempt(bill)}`]);
  return (
    <section aria-labelledby={`${bill.id}-payment`}>
      <h3 id={`${bill.id}-payment`} className="claim-section-title">Payment</h3>
      <Facts rows={rows} />
      {attempts > 0 && !online && <p className="muted">The payment attempts’ details need a connection.</p>}
      {typeof payments === 'string' && <p className="muted">{payments}</p>}
      {Array.isArray(payments) && payments.length > 0 && (
        <ul className="bill-payments">
          {payments.map((p) => (
            <li key={p.id}>
              Attempt {p.attempt}: {formatMoney(p.amount, bill.currency)}{p.rail === 'ACH' ? '' : ` · ${attemptRailText(p, bill.currency)}`} · {paymentWords(p)} · <time dateTime={p.created_at}>{formatLocalDateTime(p.created_at)}</time>
              <PaymentDocuments payment={p} currency={bill.currency} vendor={vendor} client={client} online={online} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}


/**
 * The settlement day of the bill's payment on its way (PENDING), read online: a check settles
 * later than ACH's two days and a wire the same day (issue 30), which the bill's doc does not say.
 * Null until read, offline, or when nothing is on its way.
 */
export function useLiveSettlement(client: DataClient, billId: string, attempt: number, enabled: boolean): string | null {
  const [day, setDay] = useState<string | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    void client.billPayments(billId).then((r) => {
      if (live && r.ok) setDay(r.payments.find((p) => p.status === 'PENDING')?.settles_on ?? null);
    });
    return () => {
      live = false;
    };
  }, [client, billId, attempt, enabled]);
  return enabled ? day : null;
}
