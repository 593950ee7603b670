import { duplicateInvoiceRefusal, findDuplicateInvoices } from '../../schema/bill-rules.ts';
import type { Bill } from '../../schema/entities/bill.ts';
import type { ActingUser } from '../core/actor.ts';
import { ApiError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';

/**
 * Issue 25: duplicates stop at the server. A bill whose vendor and invoice number
 * (`invoiceNumberKey`, schema/bill-rules.ts) another live bill of the business has — live: not
 * deleted and not CANCELED; DRAFT and REJECTED count, REJECTED is not final in BILL_MOVES — is
 * refused 422 BILL_PAY_DUPLICATE_INVOICE naming the other bill, unless the request carries
 * `confirm_duplicate: true`; then the bill records `duplicate_of` (the original: the oldest such bill
 * that is no duplicate itself) and who
 * confirmed and when.
 *
 * Race-safe: the check takes a transaction-scoped advisory lock per (business, vendor) before it
 * reads, and holds it to commit, so of two concurrent unconfirmed creates of one invoice the
 * second reads the first's committed row (READ COMMITTED: each statement sees what committed
 * before it) and is refused (`bills-duplicates.pg.test.ts`). A lock, not a unique index: the key
 * is computed in TypeScript (NFKC, Unicode letters), confirmed duplicates must be allowed, and a
 * vendor merge may bring two live bills of one invoice together.
 */

/** Transaction-scoped advisory locks of this check: (DUPLICATE_LOCK_CLASS, hashtext(business:vendor)). */
const DUPLICATE_LOCK_CLASS = 25;

export type DuplicateMark = { duplicate_of: string; confirmed_by: string; confirmed_at: string } | null;

type LiveBill = Pick<Bill, 'id' | 'vendor_id' | 'invoice_number' | 'status' | 'amount' | 'currency'> & { duplicate_of: string | null };

/**
 * The check for `bill` (its id: a new bill's, or the one being patched, which is not its own
 * duplicate) in `tx`: null when no other live bill has its invoice, the mark to store when one
 * has and `confirm` is true; refused otherwise. A bill confirmed as a duplicate of this one
 * (`duplicate_of` = its id) was entered knowing of it: it does not make this one a duplicate
 * again (submitting the original of a confirmed pair asks nothing).
 */
export async function checkDuplicateInvoice(
  tx: Queryable, user: ActingUser, bill: Pick<Bill, 'id' | 'vendor_id' | 'invoice_number'>, confirm: boolean, at: string,
): Promise<DuplicateMark> {
  const businessId = user.business_id;
  await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [DUPLICATE_LOCK_CLASS, `${businessId}:${bill.vendor_id}`]);
  const live = await tx.query<LiveBill>(
    `SELECT id::text, vendor_id::text, invoice_number, status, amount, currency, duplicate_of::text
       FROM bills WHERE business_id = $1 AND vendor_id = $2 AND id <> $3 AND NOT deleted AND status <> 'CANCELED'
      ORDER BY created_at, id`,
    [businessId, bill.vendor_id, bill.id],
  );
  // The original first (a bill that is no duplicate itself), then the oldest.
  const found = findDuplicateInvoices(bill, live).filter((b) => b.duplicate_of !== bill.id)
    .sort((x, y) => Number(x.duplicate_of !== null) - Number(y.duplicate_of !== null));
  const first = found[0];
  if (!first) return null;
  if (confirm) return { duplicate_of: first.id, confirmed_by: user.id, confirmed_at: at };
  const [vendor] = await tx.query<{ name: string }>('SELECT name FROM vendors WHERE id = $1', [bill.vendor_id]);
  const message = duplicateInvoiceRefusal({ ...first, amount: Number(first.amount) }, vendor?.name ?? 'this vendor', found.length - 1);
  throw new ApiError('BILL_PAY_DUPLICATE_INVOICE', message, { invoice_number: message });
}
