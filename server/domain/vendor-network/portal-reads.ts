import { z } from 'zod';
import type { NetworkPayer } from '../../../schema/entities/network-vendor.ts';
import type { PortalPayment } from '../../../schema/entities/portal-payment.ts';
import { railArrival, type PaymentRail } from '../../../schema/payment-rails.ts';
import { decodeCursor, encodeCursor } from '../../core/cursor.ts';
import type { Queryable } from '../../db/db.ts';

/**
 * What the vendor portal reads (issue 31): its payers and their bills to it. Every query starts
 * from `network_vendor_links` of the caller's network vendor (ACTIVE), so another vendor's bills
 * and payments are never reachable, whatever ids a caller sends.
 */
export async function listPayers(db: Queryable, networkVendorId: string): Promise<NetworkPayer[]> {
  return db.query<NetworkPayer>(
    `SELECT l.business_id::text, b.name AS business_name, l.vendor_id::text, l.status, ll_iso(l.joined_at) AS joined_at, l.verified_fields
       FROM network_vendor_links l JOIN businesses b ON b.id = l.business_id
      WHERE l.network_vendor_id = $1 ORDER BY lower(b.name), l.vendor_id`,
    [networkVendorId],
  );
}

const STATUS_FILTER: Record<string, string[]> = {
  UNPAID: ['PENDING_APPROVAL', 'APPROVED'], SCHEDULED: ['SCHEDULED'], PAID: ['PAID', 'RECONCILED'], FAILED: ['PAYMENT_FAILED'],
};
/** Drafts, rejected and canceled bills are the payer's own business: never shown to the vendor. */
const SHOWN = ['PENDING_APPROVAL', 'APPROVED', 'SCHEDULED', 'PAID', 'RECONCILED', 'PAYMENT_FAILED'];
const SORT = 'portal-payments:due-desc';

type Row = Omit<PortalPayment, 'amount' | 'expected_settlement_date'> & {
  amount: number; currency: string; bill_rail: PaymentRail | null; sent_day: string | null;
};

export type PaymentQuery = { page_size: number; start?: string | undefined; business_id?: string | undefined; status?: string | undefined };

/** Newest due first (keyset on due date, bill id); `expected_settlement_date` from `railArrival`. */
export async function listPortalPayments(db: Queryable, networkVendorId: string, q: PaymentQuery) {
  const after = q.start ? decodeCursor(q.start, SORT, z.tuple([z.string(), z.string()])) : null;
  const rows = await db.query<Row>(
    `SELECT bl.id::text AS bill_id, bl.business_id::text, b.name AS payer_name, bl.invoice_number, bl.amount, bl.currency,
            bl.due_date::text AS due_date, bl.status AS bill_status, p.status AS payment_status, coalesce(p.rail, bl.payment_rail) AS rail,
            bl.payment_rail AS bill_rail, bl.payment_date::text AS payment_date, (p.created_at AT TIME ZONE 'UTC')::date::text AS sent_day,
            ll_iso(bl.paid_at) AS paid_at
       FROM network_vendor_links l
       JOIN bills bl ON bl.vendor_id = l.vendor_id AND bl.business_id = l.business_id AND NOT bl.deleted
       JOIN businesses b ON b.id = bl.business_id
       LEFT JOIN LATERAL (SELECT bp.status, bp.rail, bp.created_at FROM bill_payments bp WHERE bp.bill_id = bl.id ORDER BY bp.attempt DESC LIMIT 1) p ON true
      WHERE l.network_vendor_id = $1 AND l.status = 'ACTIVE' AND bl.status = ANY($2::text[])
        AND ($3::uuid IS NULL OR bl.business_id = $3) AND ($4::text[] IS NULL OR bl.status = ANY($4::text[]))
        AND ($5::date IS NULL OR (bl.due_date, bl.id) < ($5::date, $6::uuid))
      ORDER BY bl.due_date DESC, bl.id DESC LIMIT $7`,
    [networkVendorId, SHOWN, q.business_id ?? null, q.status ? STATUS_FILTER[q.status] : null, after?.[0] ?? null, after?.[1] ?? null, q.page_size + 1],
  );
  const page = rows.slice(0, q.page_size);
  const last = page.at(-1);
  return {
    data: page.map(toPayment),
    page: { next: rows.length > q.page_size && last ? encodeCursor(SORT, [last.due_date, last.bill_id]) : null },
  };
}

function expected(r: Row): string | null {
  if (r.payment_status === 'PENDING' || r.payment_status === 'SETTLED') return r.sent_day && railArrival(r.rail ?? 'ACH', r.sent_day).latest;
  if (r.bill_status === 'SCHEDULED' && r.payment_date) return railArrival(r.bill_rail ?? 'ACH', r.payment_date).latest;
  return null;
}

function toPayment(r: Row): PortalPayment {
  return {
    bill_id: r.bill_id, business_id: r.business_id, payer_name: r.payer_name, invoice_number: r.invoice_number,
    amount: { amount: Number(r.amount), currency: r.currency }, due_date: r.due_date, bill_status: r.bill_status,
    payment_status: r.payment_status, rail: r.rail, payment_date: r.payment_date, expected_settlement_date: expected(r), paid_at: r.paid_at,
  };
}
