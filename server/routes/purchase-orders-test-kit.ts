/**
 * Test support for purchase orders (issue 28): a PO as the approval of a PRODUCT_OR_SERVICE spend
 * request leaves it (its FULFILLED request, a vendor, numbered lines), inserted through SQL with
 * seqs from the business counter, so the PO tests need no approval flow.
 */
import { randomUUID } from 'node:crypto';
import { formatPoNumber } from '../../schema/entities/purchase-order.ts';
import type { VendorAddress } from '../../schema/entities/vendor.ts';
import { allocateSeqs } from '../db/change-seq.ts';
import type { Queryable } from '../db/db.ts';
import type { Fixture, FixtureRole } from '../test-fixtures.ts';

export type PoLineInput = { description: string; quantity: number; unit_price: number };
export type InsertedPo = { id: string; poNumber: string; vendorId: string; requestId: string; lineIds: string[] };

export const VENDOR_ADDRESS: VendorAddress = {
  line1: '500 Market Street', line2: 'Suite 12', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US',
};

export async function insertVendor(db: Queryable, businessId: string, name: string, address: VendorAddress | null = VENDOR_ADDRESS): Promise<string> {
  const id = randomUUID();
  const seq = (await allocateSeqs(db, businessId, 1))!.last;
  await db.query(
    'INSERT INTO vendors (id, business_id, name, email, address, change_seq) VALUES ($1, $2, $3, $4, $5::jsonb, $6)',
    [id, businessId, name, 'orders@vendor.example', address ? JSON.stringify(address) : null, seq],
  );
  return id;
}

/** A PO of `f` requested by `requester` (default employee), numbered next in the business. */
export async function insertPurchaseOrder(
  db: Queryable, f: Fixture,
  opts: { requester?: FixtureRole; lines?: PoLineInput[]; currency?: string; vendorId?: string; vendorName?: string } = {},
): Promise<InsertedPo> {
  const lines = opts.lines ?? [{ description: 'Standing desk', quantity: 5, unit_price: 45_000 }];
  const currency = opts.currency ?? 'USD';
  const userId = f.users[opts.requester ?? 'employee'];
  const vendorId = opts.vendorId ?? await insertVendor(db, f.businessId, opts.vendorName ?? `Vendor ${randomUUID().slice(0, 8)}`);
  const [{ last_number: n }] = await db.query<{ last_number: number }>(
    `INSERT INTO purchase_order_counters (business_id, last_number) VALUES ($1, 1)
     ON CONFLICT (business_id) DO UPDATE SET last_number = purchase_order_counters.last_number + 1 RETURNING last_number`,
    [f.businessId],
  ) as [{ last_number: number }];
  const seqs = (await allocateSeqs(db, f.businessId, 2))!;
  const id = randomUUID();
  const requestId = randomUUID();
  const poNumber = formatPoNumber(Number(n));
  const amount = lines.reduce((s, l) => s + l.quantity * l.unit_price, 0);
  const requestLines = lines.map((l) => ({ id: randomUUID(), ...l }));
  await db.query(
    `INSERT INTO spend_requests (id, business_id, user_id, requested_by, type, status, amount, currency, description, vendor_id,
       line_items, submitted_at, decided_at, fulfilled_at, change_seq)
     VALUES ($1, $2, $3, $3, 'PRODUCT_OR_SERVICE', 'FULFILLED', $4, $5, 'Office furniture', $6, $7::jsonb, now(), now(), now(), $8)`,
    [requestId, f.businessId, userId, Math.max(amount, 1), currency, vendorId, JSON.stringify(requestLines), seqs.first],
  );
  await db.query(
    `INSERT INTO purchase_orders (id, business_id, po_number, spend_request_id, vendor_id, currency, status, created_by, change_seq)
     VALUES ($1, $2, $3, $4, $5, $6, 'OPEN', $7, $8)`,
    [id, f.businessId, poNumber, requestId, vendorId, currency, userId, seqs.last],
  );
  // The request names its PO once the PO exists (the FK is deferred only inside a transaction).
  await db.query('UPDATE spend_requests SET purchase_order_id = $2 WHERE id = $1', [requestId, id]);
  for (const [i, l] of requestLines.entries()) {
    await db.query(
      'INSERT INTO purchase_order_lines (id, purchase_order_id, position, description, quantity, unit_price) VALUES ($1, $2, $3, $4, $5, $6)',
      [l.id, id, i, l.description, l.quantity, l.unit_price],
    );
  }
  return { id, poNumber, vendorId, requestId, lineIds: requestLines.map((l) => l.id) };
}
