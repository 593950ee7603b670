import { describe, expect, it } from 'vitest';
import { approvingSendsText, paymentApprovalMark, paymentApprovalNoticeText } from './payment-approval-labels.ts';

describe('vendor-payment approval words (issue 28)', () => {
  const now = { status: 'PENDING', method: 'PAY_NOW', pay_on: '2026-11-29', reason: null } as const;
  const later = { status: 'PENDING', method: 'SCHEDULE', pay_on: '2027-01-15', reason: null } as const;

  it.each([
    [null, null],
    [now, { text: 'Payment waiting for approval', tone: 'info' }],
    [{ ...later, status: 'REJECTED', reason: 'Wrong month' } as const, { text: 'Payment not approved', tone: 'danger' }],
  ])('marks %j in the list as %j', (asked, mark) => {
    expect(paymentApprovalMark(asked)).toEqual(mark);
  });

  it('tells the approver what approving does: the amount, the vendor and when', () => {
    expect(approvingSendsText(12_500, 'USD', 'Acme Co', now)).toBe('Approving sends $125.00 to Acme Co now, by ACH.');
    expect(approvingSendsText(12_500, 'USD', 'Acme Co', later)).toMatch(/^Approving schedules \$125\.00 to Acme Co for Jan 15, 2027\.$/);
  });

  it('tells the payer what waits, or why it was refused and what to do', () => {
    expect(paymentApprovalNoticeText(now, 900, 'USD', 'Ada Admin')).toBe('Ada Admin asked to pay $9.00 as soon as it is approved. Nothing is sent until the approvers approve the payment.');
    expect(paymentApprovalNoticeText({ ...later, status: 'REJECTED', reason: 'Wrong month' }, 900, 'USD', ''))
      .toBe('The payment of $9.00 was not approved: Wrong month. The bill stays approved: pay it again to ask for approval again.');
  });
});
