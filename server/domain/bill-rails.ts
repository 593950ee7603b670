import { randomUUID } from 'node:crypto';
import { chooseRail, FIRST_CHECK_NUMBER, railFee, type PaymentRail, type RailVendor } from '../../schema/payment-rails.ts';
import type { PayeeApproval, VendorAddress } from '../../schema/entities/vendor.ts';
import { ApiError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';

/**
 * Issue 30, bill payment rails (schema/payment-rails.ts holds the rules): the server half. Which
 * rail an attempt takes (the one asked for, or the vendor's default; refused naming the vendor and
 * the field to fix), and the rail's own columns of the attempt row: a check's number from the
 * business's counter, a wire's UETR and fee.
 */

/**
 * The bill's vendor as the rails read it, share-locked so its bank account, address and payee
 * hold cannot change under the payment.
 */
export async function railVendor(tx: Queryable, businessId: string, vendorId: string): Promise<RailVendor | null> {
  const [vendor] = await tx.query<{ name: string; has_account: boolean; verified_at: string | null; address: VendorAddress | null; payee_approval: PayeeApproval | null }>(
    `SELECT name, bank_account_type IS NOT NULL AS has_account, ll_iso(bank_verified_at) AS verified_at, address, payee_approval
       FROM vendors WHERE business_id = $1 AND id = $2 FOR SHARE`,
    [businessId, vendorId],
  );
  if (!vendor) return null;
  return {
    name: vendor.name, address: vendor.address, payee_approval: vendor.payee_approval,
    bank_account: vendor.has_account ? { verified_at: vendor.verified_at } : null,
  };
}

/**
 * The rail one attempt for the bill takes: `asked`, else the vendor's default (ACH with a bank
 * account, else a check to a US address). Refused BILL_PAY_7101 (or 7102, the payee hold) with
 * the field to fix named in `errors`.
 */
export async function resolveRail(
  tx: Queryable, businessId: string, bill: { vendor_id: string; currency: string }, asked?: PaymentRail | null,
): Promise<PaymentRail> {
  const chosen = chooseRail(await railVendor(tx, businessId, bill.vendor_id), bill.currency, asked);
  if (!chosen.ok) throw new ApiError(chosen.code, chosen.message, { [chosen.field]: chosen.message });
  return chosen.rail;
}

/** The rail a scheduled (or approval-waiting) bill was given, if any (bills.payment_rail). */
export async function storedRail(tx: Queryable, billId: string): Promise<PaymentRail | null> {
  const [row] = await tx.query<{ payment_rail: PaymentRail | null }>('SELECT payment_rail FROM bills WHERE id = $1', [billId]);
  return row?.payment_rail ?? null;
}

/** Remembers the rail a bill will be sent on (schedule, approval), or forgets it (null). */
export async function rememberRail(tx: Queryable, billId: string, rail: PaymentRail | null): Promise<void> {
  await tx.query('UPDATE bills SET payment_rail = $2 WHERE id = $1', [billId, rail]);
}

/**
 * The business's next check number: its counter row taken and raised in one statement, so two
 * payments racing for a number queue on the row (the second gets the next one) and a number is
 * never written twice (bill_payments_check_number holds underneath).
 */
export async function nextCheckNumber(tx: Queryable, businessId: string): Promise<number> {
  const [row] = await tx.query<{ last_number: number }>(
    `INSERT INTO check_number_counters (business_id, last_number) VALUES ($1, $2)
     ON CONFLICT (business_id) DO UPDATE SET last_number = check_number_counters.last_number + 1
     RETURNING last_number`,
    [businessId, FIRST_CHECK_NUMBER],
  );
  return Number(row!.last_number);
}

/** The attempt row's rail columns. */
export type RailColumns = { rail: PaymentRail; check_number: number | null; uetr: string | null; wire_fee: number | null; fee: number };

export async function railColumns(tx: Queryable, businessId: string, rail: PaymentRail, currency: string): Promise<RailColumns> {
  const fee = railFee(rail, currency);
  return {
    rail, fee,
    check_number: rail === 'CHECK' ? await nextCheckNumber(tx, businessId) : null,
    uetr: rail === 'WIRE' ? randomUUID() : null,
    wire_fee: rail === 'WIRE' ? fee : null,
  };
}
