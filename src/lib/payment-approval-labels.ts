import type { BillPaymentApproval } from '../../schema/entities/bill.ts';
import { formatDay, formatMoney } from './format.ts';

/**
 * Issue 28, the vendor-payment policy in words: a bill's payment waiting for approval (or refused
 * by it) as the bill list, its drawer and the approver's inbox say it. Pure, so it is tested.
 */
type Asked = Pick<BillPaymentApproval, 'status' | 'method' | 'pay_on' | 'reason'>;

/** The list's short mark beside the status; null when nothing waits or was refused. */
export function paymentApprovalMark(asked: Asked | null | undefined): { text: string; tone: 'info' | 'danger' } | null {
  if (!asked) return null;
  return asked.status === 'PENDING' ? { text: 'Payment waiting for approval', tone: 'info' } : { text: 'Payment not approved', tone: 'danger' };
}

/** When the money goes if approved: "now" (on approval) or "on Jan 15, 2099". */
export const whenPaid = (asked: Pick<Asked, 'method' | 'pay_on'>) => (asked.method === 'PAY_NOW' ? 'as soon as it is approved' : `on ${formatDay(asked.pay_on)}`);

/** The approver's question: "Approving sends $125.00 to Acme Co as soon as it is approved." */
export function approvingSendsText(amount: number, currency: string, vendor: string, asked: Pick<Asked, 'method' | 'pay_on'>): string {
  return asked.method === 'PAY_NOW'
    ? `Approving sends ${formatMoney(amount, currency)} to ${vendor} now, by ACH.`
    : `Approving schedules ${formatMoney(amount, currency)} to ${vendor} for ${formatDay(asked.pay_on)}.`;
}

/** The payer's view in the bill drawer: what waits, or why it was refused and what to do. */
export function paymentApprovalNoticeText(asked: Asked, amount: number, currency: string, asker: string): string {
  const money = formatMoney(amount, currency);
  if (asked.status === 'PENDING') {
    return `${asker || 'Someone'} asked to pay ${money} ${whenPaid(asked)}. Nothing is sent until the approvers approve the payment.`;
  }
  const why = asked.reason ? `: ${asked.reason.replace(/[.!?]?$/, '.')}` : '.';
  return `The payment of ${money} was not approved${why} The bill stays approved: pay it again to ask for approval again.`;
}

/** Issue 28, payee policy: what changed on a vendor, as the inbox and the vendor page name it. */
export const PAYEE_CHANGE_LABELS = { NEW_VENDOR: 'New vendor', BANK_ACCOUNT: 'New bank account' } as const;
