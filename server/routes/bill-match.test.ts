import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { billSchema, type Bill } from '../../schema/entities/bill.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { type Fixture, type FixtureRole, makeBusiness, makeVendor, refusal, request, signIn } from '../test-fixtures.ts';
import { storeBankAccount } from '../domain/vendors.ts';
import { refreshBillMatches } from '../domain/procurement/bill-match-store.ts';

/**
 * Issue 28, three-way match through the API: a bill naming its PO is matched against the PO and
 * its receipts (receipts are written here in SQL, then the match refreshed as the item-receipt
 * path does), pay-now refuses a MISMATCHED bill with its reasons, pays once it matches; prices
 * within and outside the tolerance; the admin's override (audited), refused to an AP clerk and
 * across businesses; a bill line naming another PO's line.
 */
const BILLS = '/v1/auth/bill-pay';

describe.each(await testDatabases())('three-way match on %s', (kind) => {
  const t = useTestApp(kind, { now: () => Date.parse('2026-11-20T12:00:00Z') });
  let a: Fixture;
  let b: Fixture;
  const tokens = {} as Record<FixtureRole, string>;
  let bToken: string;
  let vendor: string;

  /** A PO of `vendor` with one line (5 × $10.00 by default), as an approved request's fulfilment writes it. */
  const makePo = async (o: { quantity?: number; unitPrice?: number; business?: Fixture; vendorId?: string } = {}) => {
    const biz = o.business ?? a;
    const vendorId = o.vendorId ?? vendor;
    const requestId = randomUUID();
    const poId = randomUUID();
    const lineId = randomUUID();
    const quantity = o.quantity ?? 5;
    const unitPrice = o.unitPrice ?? 1_000;
    await t.db.query(
      `INSERT INTO spend_requests (id, business_id, user_id, requested_by, type, status, amount, currency, description, vendor_id, change_seq, fulfilled_at)
       VALUES ($1, $2, $3, $3, 'PRODUCT_OR_SERVICE', 'FULFILLED', $4, 'USD', 'Widgets', $5, 1, now())`,
      [requestId, biz.businessId, biz.users.employee, quantity * unitPrice, vendorId],
    );
    const [{ n }] = await t.db.query<{ n: number }>('SELECT count(*)::int + 1 AS n FROM purchase_orders WHERE business_id = $1', [biz.businessId]) as [{ n: number }];
    await t.db.query(
      `INSERT INTO purchase_orders (id, business_id, po_number, spend_request_id, vendor_id, currency, status, created_by, change_seq)
       VALUES ($1, $2, $3, $4, $5, 'USD', 'OPEN', $6, 1)`,
      [poId, biz.businessId, `PO-${String(n).padStart(6, '0')}`, requestId, vendorId, biz.users.employee],
    );
    await t.db.query(
      `INSERT INTO purchase_order_lines (id, purchase_order_id, position, description, quantity, unit_price) VALUES ($1, $2, 0, 'Widgets', $3, $4)`,
      [lineId, poId, quantity, unitPrice],
    );
    return { poId, lineId, poNumber: `PO-${String(n).padStart(6, '0')}` };
  };

  /** Records a receipt of `quantity` units of the line and refreshes the PO's bills (the item-receipt path's hook). */
  const receive = async (po: { poId: string; lineId: string }, quantity: number, biz: Fixture = a) => {
    const id = randomUUID();
    await t.db.transaction(async (tx) => {
      await tx.query(`INSERT INTO item_receipts (id, business_id, purchase_order_id, received_at, received_by) VALUES ($1, $2, $3, now(), $4)`,
        [id, biz.businessId, po.poId, biz.users.admin]);
      await tx.query('INSERT INTO item_receipt_lines (item_receipt_id, po_line_id, quantity) VALUES ($1, $2, $3)', [id, po.lineId, quantity]);
      await tx.query('UPDATE purchase_order_lines SET received_quantity = received_quantity + $2 WHERE id = $1', [po.lineId, quantity]);
      await refreshBillMatches(tx, biz.businessId, po.poId);
    });
  };

  const billBody = (po: { poId: string; lineId: string }, quantity: number, unitPrice = 1_000) => ({
    vendor_id: vendor, invoice_number: `INV-${randomUUID().slice(0, 8)}`, invoice_date: '2026-11-01', due_date: '2026-11-30',
    currency: 'USD', purchase_order_id: po.poId,
    line_items: [{ description: 'Widgets', amount: quantity * unitPrice, po_line_id: po.lineId, quantity, unit_price: unitPrice }],
  });
  const createBill = async (body: Record<string, unknown>) => {
    const res = await request(t.app, 'POST', BILLS, { token: tokens.admin, body });
    expect(res.status, res.text).toBe(200);
    return billSchema.parse(res.body);
  };
  const approved = async (body: Record<string, unknown>) => {
    const bill = await createBill(body);
    await t.db.query(`UPDATE bills SET status = 'APPROVED' WHERE id = $1`, [bill.id]);
    return bill;
  };
  const payNow = (id: string, role: FixtureRole = 'admin') =>
    request<{ results: { id: string; ok: boolean; bill?: Bill; error_v2?: { error_code: string; message: string } }[] }>(
      t.app, 'POST', `${BILLS}/bulk-actions/pay-now`, { token: tokens[role], body: { bill_ids: [id] } });
  const getBill = async (id: string) => billSchema.parse((await request(t.app, 'GET', `${BILLS}/${id}`, { token: tokens.admin })).body);

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 0 });
    b = await makeBusiness(t.db, { transactions: 0 });
    await t.db.query(`UPDATE spend_users SET user_permissions = '["AP_ACCESS"]' WHERE id = $1`, [a.users.teammate]);
    for (const role of ['admin', 'teammate'] as const) tokens[role] = await signIn(t.app, a.email(role));
    bToken = await signIn(t.app, b.email('owner'));
    vendor = await makeVendor(t.app, tokens.admin, 'Widget Works');
    await storeBankAccount(t.db, vendor, { routing_number: '021000021', account_number: '4401927731', account_type: 'CHECKING' });
  });

  it('a bill for 5 when 3 arrived is refused pay-now with the reason; after 2 more it matches and pays once', async () => {
    const po = await makePo();
    await receive(po, 3);
    const bill = await approved(billBody(po, 5));
    expect(bill.purchase_order_id).toBe(po.poId);
    expect(bill.line_items[0]).toMatchObject({ po_line_id: po.lineId, quantity: 5, unit_price: 1_000, amount: 5_000 });
    expect(bill.po_match?.status).toBe('MISMATCHED');
    expect(bill.po_match?.lines[0]?.reasons).toEqual([{ code: 'QUANTITY_OVER_RECEIVED', text: 'Billed 5, received 3' }]);

    const refused = await payNow(bill.id);
    expect(refused.status, refused.text).toBe(200);
    expect(refused.body.results[0]).toMatchObject({ id: bill.id, ok: false, error_v2: { error_code: 'PROCUREMENT_7013' } });
    expect(refused.body.results[0]!.error_v2!.message).toContain('Line 1: Billed 5, received 3.');
    const schedule = await request(t.app, 'PATCH', `${BILLS}/bulk-actions/payment-date`, {
      token: tokens.admin, body: { bill_ids: [bill.id], payment_date: '2026-11-25' },
    });
    expect(schedule.body.results[0]).toMatchObject({ ok: false, error_v2: { error_code: 'PROCUREMENT_7013' } });
    expect((await getBill(bill.id)).status).toBe('APPROVED');

    const before = (await getBill(bill.id)).change_seq;
    await receive(po, 2);
    const matched = await getBill(bill.id);
    expect(matched.po_match?.status).toBe('MATCHED');
    expect(matched.change_seq).toBeGreaterThan(before);

    const paid = await payNow(bill.id);
    expect(paid.body.results[0]).toMatchObject({ ok: true, bill: { status: 'SCHEDULED' } });
    const again = await payNow(bill.id);
    expect(again.body.results[0]!.ok).toBe(false);
    const attempts = await t.db.query('SELECT 1 FROM bill_payments WHERE bill_id = $1', [bill.id]);
    expect(attempts).toHaveLength(1);
  });

  it('receipts recorded and deleted through their routes re-check the PO\'s bills (the item-receipt hook)', async () => {
    const po = await makePo();
    const bill = await approved(billBody(po, 5));
    expect(bill.po_match?.status).toBe('MISMATCHED');
    const created = await request<{ item_receipt: { id: string } }>(t.app, 'POST', '/v1/auth/item-receipts', {
      token: tokens.admin, body: { purchase_order_id: po.poId, lines: [{ po_line_id: po.lineId, quantity: 5 }], received_at: '2026-11-20T10:00:00Z' },
    });
    expect(created.status, created.text).toBe(201);
    expect((await getBill(bill.id)).po_match?.status).toBe('MATCHED');
    const deleted = await request(t.app, 'DELETE', `/v1/auth/spend-requests/item-receipts/${created.body.item_receipt.id}`, { token: tokens.admin });
    expect(deleted.status, deleted.text).toBeLessThan(300);
    const after = await getBill(bill.id);
    expect(after.po_match?.status).toBe('MISMATCHED');
    expect(after.po_match?.lines[0]?.reasons).toEqual([{ code: 'QUANTITY_OVER_RECEIVED', text: 'Billed 5, received 0' }]);
  });

  it('a receipt that changes nothing for a bill leaves it unstamped', async () => {
    const po = await makePo({ quantity: 10 });
    await receive(po, 5);
    const bill = await createBill(billBody(po, 2));
    expect(bill.po_match?.status).toBe('MATCHED');
    await receive(po, 1);
    expect((await getBill(bill.id)).change_seq).toBe(bill.change_seq);
  });

  it('prices within the tolerance match; outside it the reason names both prices', async () => {
    const po = await makePo();
    await receive(po, 5);
    const within = await createBill(billBody(po, 1, 1_020));
    expect(within.po_match?.status).toBe('MATCHED');
    const outside = await createBill(billBody(po, 1, 1_040));
    expect(outside.po_match?.lines[0]?.reasons).toEqual([{ code: 'PRICE_MISMATCH', text: "Unit price $10.40 is 4.0 % above the PO's $10.00" }]);
    await t.db.query(`INSERT INTO match_tolerances (business_id, price_tolerance_percent, quantity_tolerance_percent) VALUES ($1, 5, 0)`, [a.businessId]);
    try {
      await t.db.transaction((tx) => refreshBillMatches(tx, a.businessId, po.poId));
      expect((await getBill(outside.id)).po_match?.status).toBe('MATCHED');
    } finally {
      await t.db.query('DELETE FROM match_tolerances WHERE business_id = $1', [a.businessId]);
    }
  });

  it('the admin overrides a mismatch with a reason (audited); an AP clerk is refused 403; another business\'s admin gets 404', async () => {
    const po = await makePo();
    const bill = await approved(billBody(po, 5));
    expect(bill.po_match?.status).toBe('MISMATCHED');
    const path = `${BILLS}/${bill.id}/po-match/override`;

    const clerk = await request(t.app, 'POST', path, { token: tokens.teammate, body: { reason: 'Paid on delivery' } });
    expect(refusal(clerk)).toEqual([403, 'PROCUREMENT_7014']);
    const foreign = await request(t.app, 'POST', path, { token: bToken, body: { reason: 'Paid on delivery' } });
    expect(refusal(foreign)).toEqual([404, 'REQUEST_7004']);
    const blank = await request(t.app, 'POST', path, { token: tokens.admin, body: { reason: '  ' } });
    expect(blank.status).toBe(422);

    const res = await request(t.app, 'POST', path, { token: tokens.admin, body: { reason: 'Paid on delivery' } });
    expect(res.status, res.text).toBe(200);
    const overridden = billSchema.parse(res.body);
    expect(overridden.po_match).toMatchObject({ status: 'OVERRIDDEN', override: { by: a.users.admin, reason: 'Paid on delivery' } });
    expect(overridden.change_seq).toBeGreaterThan(bill.change_seq);
    const [audit] = await t.db.query<{ status: number; detail: { po_match_override: { bill_id: string; reason: string; overridden: string[] } } }>(
      `SELECT status, detail FROM audit_log WHERE call_id = 'bills.poMatch.override' AND business_id = $1 AND status = 200 ORDER BY id DESC LIMIT 1`,
      [a.businessId],
    );
    expect(audit?.detail.po_match_override).toEqual({ bill_id: bill.id, reason: 'Paid on delivery', overridden: ['Line 1: Billed 5, received 0.'] });

    const twice = await request(t.app, 'POST', path, { token: tokens.admin, body: { reason: 'Again' } });
    expect(refusal(twice)).toEqual([422, 'REQUEST_7001']);

    // The same reason, fewer units missing: the figures changed, so the override no longer covers it.
    await receive(po, 4);
    expect((await getBill(bill.id)).po_match?.status).toBe('MISMATCHED');
    const again = await request(t.app, 'POST', path, { token: tokens.admin, body: { reason: 'One more to come' } });
    expect(again.status, again.text).toBe(200);
    const paid = await payNow(bill.id);
    expect(paid.body.results[0]).toMatchObject({ ok: true });
  });

  it('refuses a bill line naming another PO\'s line (422), a closed PO and another vendor\'s PO', async () => {
    const po = await makePo();
    const other = await makePo();
    const wrongLine = await request(t.app, 'POST', BILLS, { token: tokens.admin, body: { ...billBody(po, 1), line_items: billBody(other, 1).line_items } });
    expect(refusal(wrongLine)).toEqual([422, 'PROCUREMENT_7012']);
    expect(wrongLine.text).toContain(`Line 1 names a line that is not on ${po.poNumber}.`);

    const otherVendor = await makeVendor(t.app, tokens.admin, 'Gadget Co');
    const vendorsPo = await makePo({ vendorId: otherVendor });
    const notTheirs = await request(t.app, 'POST', BILLS, { token: tokens.admin, body: billBody(vendorsPo, 1) });
    expect(refusal(notTheirs)).toEqual([422, 'REQUEST_7001']);
    expect(notTheirs.body.error_v2.errors.purchase_order_id).toMatch(/not from this bill's vendor/);

    await t.db.query(`UPDATE purchase_orders SET status = 'CLOSED', closed_at = now() WHERE id = $1`, [other.poId]);
    const closed = await request(t.app, 'POST', BILLS, { token: tokens.admin, body: billBody(other, 1) });
    expect(refusal(closed)).toEqual([422, 'REQUEST_7001']);
    expect(closed.text).toContain('is closed');

    const noUnits = await request(t.app, 'POST', BILLS, {
      token: tokens.admin, body: { ...billBody(po, 1), line_items: [{ description: 'Widgets', amount: 1_000, po_line_id: po.lineId }] },
    });
    expect(refusal(noUnits)).toEqual([422, 'REQUEST_7001']);

    const foreignPo = await makePo({ business: b, vendorId: await makeVendor(t.app, bToken, 'Foreign Co') });
    const foreign = await request(t.app, 'POST', BILLS, { token: tokens.admin, body: billBody(foreignPo, 1) });
    expect(refusal(foreign)).toEqual([404, 'REQUEST_7004']);
  });
});
