import { isSanctionsFlagged } from '../../schema/identity-rules.ts';
import { ApiError } from '../core/errors.ts';

export const SANCTIONS_BLOCK_MESSAGE =
  'Money movement is blocked while this account is under sanctions review. Contact support for help.';
export const PAYROLL_CURRENCY_MESSAGE = 'Payroll reimbursement needs a payroll currency on this user.';

/** §4: MANUAL_REVIEW, MANUAL_REVIEW_IN_PROGRESS and FAILED_MANUAL_CHECK block money movement. */
export function assertMoneyMovementAllowed(identity: { ofac_status: string | null }): void {
  if (isSanctionsFlagged(identity.ofac_status)) throw new ApiError('FORBIDDEN_7003', SANCTIONS_BLOCK_MESSAGE);
}

/** Payroll reimbursement is only possible for a user with a payroll currency. */
export function assertPayrollReimbursementEligible(user: { payroll_currency: string | null }): void {
  if (!user.payroll_currency) throw new ApiError('REQUEST_7001', PAYROLL_CURRENCY_MESSAGE);
}

/** Account and tax numbers leave the server as their last four digits only. */
export const last4 = (digits: string) => digits.replace(/\D/g, '').slice(-4);
