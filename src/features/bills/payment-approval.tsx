import type { Bill } from '../../../schema/entities/bill.ts';
import { StatusPill } from '../../components/status-pill.tsx';
import { formatLocalDateTime } from '../../lib/format.ts';
import { paymentApprovalMark, paymentApprovalNoticeText } from '../../lib/payment-approval-labels.ts';

type WithAsk = Pick<Bill, 'id' | 'amount' | 'currency' | 'payment_approval'>;

/**
 * Issue 28: the bill's payment waiting for the vendor-payment policy's approval (who asked, for
 * how much, when it would go; nothing moves meanwhile), or refused by it with the reason.
 */
export function PaymentApprovalNotice({ bill, userName }: { bill: WithAsk; userName(id: string): string }) {
  const asked = bill.payment_approval;
  if (!asked) return null;
  const pending = asked.status === 'PENDING';
  return (
    <div className={pending ? 'notice' : 'notice notice-warn'} data-testid="bill-payment-approval">
      <strong>{pending ? 'Payment waiting for approval:' : 'Payment not approved:'}</strong>{' '}
      {paymentApprovalNoticeText(asked, bill.amount, bill.currency, userName(asked.requested_by))}{' '}
      <span className="muted">
        {pending ? 'Asked' : 'Decided'}{' '}
        {pending
          ? <time dateTime={asked.requested_at}>{formatLocalDateTime(asked.requested_at)}</time>
          : asked.decided_by ? `by ${userName(asked.decided_by) || 'an approver'}` : ''}
        .
      </span>
    </div>
  );
}

/** The list's mark beside the status (words, not colour alone). */
export function PaymentApprovalMark({ bill }: { bill: Pick<Bill, 'payment_approval'> }) {
  const mark = paymentApprovalMark(bill.payment_approval);
  return mark ? <StatusPill tone={mark.tone}>{mark.text}</StatusPill> : null;
}
