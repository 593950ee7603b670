import type { ActingUser } from '../../core/actor.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { findVendor } from '../vendors.ts';

/**
 * `vendors.network.failureReminder` (issue 31): after a failed (or returned) payment to a network
 * vendor, the payer mails it to fix its bank details, once per failed payment: a repeat answers the
 * first reminder and mails nothing. A payment of another vendor or business is 404; a payment that
 * did not fail is 422 naming it.
 */
export type Reminder = { bill_payment_id: string; reminded_at: string; mail: { to: string; payer: string; vendor: string } | null };

export async function remindFailure(tx: Queryable, user: ActingUser, vendorId: string, paymentId: string): Promise<Reminder> {
  const vendor = await findVendor(tx, user.business_id, vendorId);
  const [link] = await tx.query<{ email: string; payer: string }>(
    `SELECT nv.email, b.name AS payer FROM network_vendor_links l JOIN network_vendors nv ON nv.id = l.network_vendor_id
       JOIN businesses b ON b.id = l.business_id WHERE l.vendor_id = $1 AND l.business_id = $2 AND l.status = 'ACTIVE'`,
    [vendorId, user.business_id],
  );
  if (!link) throw new ApiError('REQUEST_7004', 'This vendor is not in the vendor network.');
  const [payment] = await tx.query<{ status: string }>(
    `SELECT bp.status FROM bill_payments bp JOIN bills bl ON bl.id = bp.bill_id
      WHERE bp.id = $1 AND bl.vendor_id = $2 AND bp.business_id = $3`,
    [paymentId, vendorId, user.business_id],
  );
  if (!payment) throw new ApiError('REQUEST_7004', 'This payment was not found.');
  if (payment.status !== 'FAILED' && payment.status !== 'REVERSED') {
    throw new ApiError('REQUEST_7001', 'Only a failed payment can be reminded.', { bill_payment_id: 'Only a failed payment can be reminded.' });
  }
  const inserted = await tx.query<{ at: string }>(
    `INSERT INTO network_failure_reminders (bill_payment_id, business_id, vendor_id, reminded_by) VALUES ($1, $2, $3, $4)
     ON CONFLICT (bill_payment_id) DO NOTHING RETURNING ll_iso(reminded_at) AS at`,
    [paymentId, user.business_id, vendorId, user.id],
  );
  if (inserted[0]) return { bill_payment_id: paymentId, reminded_at: inserted[0].at, mail: { to: link.email, payer: link.payer, vendor: vendor.name } };
  const [first] = await tx.query<{ at: string }>('SELECT ll_iso(reminded_at) AS at FROM network_failure_reminders WHERE bill_payment_id = $1', [paymentId]);
  return { bill_payment_id: paymentId, reminded_at: first!.at, mail: null };
}
