import type { Reimbursement } from './entities/reimbursement.ts';

/**
 * Possible duplicate claims (issue 9: "warn before submit, never silently drop"), one rule for the
 * server's `POST /v1/auth/reimbursements/duplicate` and the form's offline warning: the same
 * claimant, amount and claim date, a claim that is not canceled (it will never be paid), and a
 * similar merchant — equal once lower-cased with only letters and digits kept, one containing the
 * other, or either without a merchant (a mileage or per-diem claim). Pure; tested.
 */
export type DuplicateProbe = Pick<Reimbursement, 'user_id' | 'amount' | 'transaction_date' | 'merchant'> & { id: string | null };

/** A merchant as duplicates compare it: lower case, letters and digits only. */
export const normalizeMerchant = (merchant: string | null | undefined): string =>
  (merchant ?? '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

export function isPossibleDuplicate(probe: DuplicateProbe, claim: Pick<Reimbursement, 'id' | 'user_id' | 'amount' | 'transaction_date' | 'merchant' | 'status' | 'deleted'>): boolean {
  if (claim.deleted || claim.status === 'CANCELED' || claim.id === probe.id) return false;
  if (claim.user_id !== probe.user_id || claim.amount !== probe.amount || claim.transaction_date !== probe.transaction_date) return false;
  const a = normalizeMerchant(probe.merchant);
  const b = normalizeMerchant(claim.merchant);
  return a === '' || b === '' || a.includes(b) || b.includes(a);
}
