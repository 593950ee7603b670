import { inflateSync } from 'node:zlib';
import { randomUUID } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { itemReceiptSchema, purchaseOrderSchema, type PurchaseOrder } from '../../schema/entities/purchase-order.ts';
import { DEFAULT_MATCH_TOLERANCES } from '../../schema/bill-match.ts';
import { useTestApp } from '../test-app.ts';
import { testDatabases } from '../test-db.ts';
import { makeBusiness, refusal, request, signIn, type Fixture, type FixtureRole } from '../test-fixtures.ts';
import { insertPurchaseOrder, insertVendor, type InsertedPo } from './purchase-orders-test-kit.ts';

/**
 * Issue 28, purchase orders and item receipts on the server: who sees and lists POs (`bill_pay`),
 * closing, the PDF read back by an independent reader, partial receipts and every refusal
 * (7010 beyond ordered, 7011 closed, 7012 another PO's line), a client id's repeat, deletes with
 * quantities and status following, receipt documents, tolerances, the PO re-stamped when a bill
 * naming it changes (migration 047), bad input, and another business's ids on every route.
 */
const POS = '/v1/auth/purchase-order-spend-requests/purchase-orders';
const SETTINGS = '/v1/auth/purchase-order-spend-requests/settings';
const RECEIPTS = '/v1/auth/item-receipts';
const DELETE_RECEIPT = '/v1/auth/spend-requests/item-receipts';
const PDF_BYTES = '%PDF-1.7\n% packing slip\n';

describe.each(await testDatabases())('purchase orders and item receipts on %s', (kind) => {
  const clock = Date.parse('2026-11-20T12:00:00Z');
  const t = useTestApp(kind, { now: () => clock });
  let a: Fixture;
  let b: Fixture;
  const tokens = {} as Record<FixtureRole, string>;
  let bOwner: string;
  let bPo: InsertedPo;
  let bReceipt: string;

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 0 });
    b = await makeBusiness(t.db, { transactions: 0 });
    for (const role of ['admin', 'bookkeeper', 'employee', 'outsider', 'manager'] as const) tokens[role] = await signIn(t.app, a.email(role));
    bOwner = await signIn(t.app, b.email('owner'));
    bPo = await insertPurchaseOrder(t.db, b);
    const res = await receive(bOwner, bPo, [[0, 1]]);
    expect(res.status, res.text).toBe(201);
    bReceipt = res.body.item_receipt.id;
  });

  const getPo = async (id: string, token = tokens.bookkeeper): Promise<PurchaseOrder> => {
    const res = await request(t.app, 'GET', `${POS}/${id}`, { token });
    expect(res.status, res.text).toBe(200);
    return purchaseOrderSchema.parse(res.body);
  };
  function receive(token: string, po: InsertedPo, lines: [number, number][], extra: Record<string, unknown> = {}) {
    return request(t.app, 'POST', RECEIPTS, {
      token,
      body: { purchase_order_id: po.id, lines: lines.map(([i, quantity]) => ({ po_line_id: po.lineIds[i], quantity })), received_at: '2026-11-20T09:30:00Z', ...extra },
    });
  }

  it('lists POs by the bill_pay rule, filtered by status and vendor, paged', async () => {
    const own = await insertPurchaseOrder(t.db, a, { requester: 'employee' });
    const other = await insertPurchaseOrder(t.db, a, { requester: 'manager', vendorId: own.vendorId });
    const ids = async (token: string, query = '') => {
      const res = await request(t.app, 'GET', `${POS}?page_size=100${query}`, { token });
      expect(res.status, res.text).toBe(200);
      return (res.body.data as PurchaseOrder[]).map((p) => purchaseOrderSchema.parse(p).id);
    };
    expect(await ids(tokens.bookkeeper)).toEqual(expect.arrayContaining([own.id, other.id]));
    expect(await ids(tokens.employee)).toContain(own.id);
    expect(await ids(tokens.employee)).not.toContain(other.id);
    expect(await ids(tokens.outsider)).toEqual([]);
    expect((await ids(tokens.bookkeeper, `&vendor_id=${own.vendorId}`)).sort()).toEqual([own.id, other.id].sort());
    expect(await ids(tokens.bookkeeper, '&status=CLOSED')).not.toContain(own.id);
    const first = await request(t.app, 'GET', `${POS}?page_size=1&include_count=true`, { token: tokens.bookkeeper });
    expect(first.body.data).toHaveLength(1);
    expect(first.body.total_count).toBeGreaterThanOrEqual(2);
    const second = await request(t.app, 'GET', `${POS}?page_size=1&start=${first.body.page.next}`, { token: tokens.bookkeeper });
    expect(second.body.data[0].po_number > first.body.data[0].po_number).toBe(true);
    // The requester reads their own PO; someone else's is 404 to them, as to an outsider.
    expect((await getPo(own.id, tokens.employee)).po_number).toBe(own.poNumber);
    expect(refusal(await request(t.app, 'GET', `${POS}/${other.id}`, { token: tokens.employee }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'GET', `${POS}/${own.id}`, { token: tokens.outsider }))).toEqual([404, 'REQUEST_7004']);
  });

  it('receives 3 of 5 then 2 (PARTIALLY_RECEIVED → RECEIVED), re-stamping the PO each time', async () => {
    const po = await insertPurchaseOrder(t.db, a);
    const before = await getPo(po.id);
    expect(before.status).toBe('OPEN');
    const first = await receive(tokens.employee, po, [[0, 3]]);
    expect(first.status, first.text).toBe(201);
    expect(itemReceiptSchema.parse(first.body.item_receipt)).toMatchObject({ purchase_order_id: po.id, lines: [{ po_line_id: po.lineIds[0], quantity: 3 }], received_by: a.users.employee });
    expect(first.body.purchase_order).toMatchObject({ status: 'PARTIALLY_RECEIVED', lines: [{ received_quantity: 3, quantity: 5 }] });
    expect(first.body.change_seq).toBeGreaterThan(before.change_seq);
    expect(first.body.purchase_order.change_seq).toBe(first.body.change_seq);
    const second = await receive(tokens.bookkeeper, po, [[0, 2]]);
    expect(second.status, second.text).toBe(201);
    expect(second.body.purchase_order).toMatchObject({ status: 'RECEIVED', lines: [{ received_quantity: 5 }] });
    expect(second.body.change_seq).toBeGreaterThan(first.body.change_seq);
    const after = await getPo(po.id);
    // Oldest first by created_at, then id: the test's clock stands still, so the ids decide here.
    expect(after.receipts.map((r) => r.id)).toEqual([first.body.item_receipt.id, second.body.item_receipt.id].sort());
    // Nothing is left to arrive: one more is beyond what was ordered.
    const beyond = await receive(tokens.bookkeeper, po, [[0, 1]]);
    expect(refusal(beyond)).toEqual([409, 'PROCUREMENT_7010']);
    expect(beyond.body.error_v2.message).toContain('only 0 of 5');
  });

  it('refuses beyond ordered (7010), another PO\'s line or a line twice (7012), a closed PO (7011), changing nothing', async () => {
    const po = await insertPurchaseOrder(t.db, a, { lines: [{ description: 'Chair', quantity: 4, unit_price: 9_900 }, { description: 'Lamp', quantity: 2, unit_price: 2_500 }] });
    const other = await insertPurchaseOrder(t.db, a);
    expect(refusal(await receive(tokens.bookkeeper, po, [[0, 5]]))).toEqual([409, 'PROCUREMENT_7010']);
    expect(refusal(await receive(tokens.bookkeeper, po, [[0, 1], [1, 3]]))).toEqual([409, 'PROCUREMENT_7010']);
    const foreign = await request(t.app, 'POST', RECEIPTS, {
      token: tokens.bookkeeper,
      body: { purchase_order_id: po.id, lines: [{ po_line_id: other.lineIds[0], quantity: 1 }], received_at: '2026-11-20T09:30:00Z' },
    });
    expect(refusal(foreign)).toEqual([422, 'PROCUREMENT_7012']);
    expect(refusal(await receive(tokens.bookkeeper, po, [[0, 1], [0, 1]]))).toEqual([422, 'PROCUREMENT_7012']);
    expect((await getPo(po.id)).lines.map((l) => l.received_quantity)).toEqual([0, 0]);
    expect((await getPo(po.id)).receipts).toEqual([]);

    // Closing: bill managers only (403 before any lookup), once (409 again), then nothing is received.
    expect(refusal(await request(t.app, 'POST', `${POS}/${po.id}/close`, { token: tokens.employee }))).toEqual([403, 'FORBIDDEN_7003']);
    const closed = await request(t.app, 'POST', `${POS}/${po.id}/close`, { token: tokens.bookkeeper });
    expect(closed.status, closed.text).toBe(200);
    expect(closed.body).toMatchObject({ status: 'CLOSED', closed_at: '2026-11-20T12:00:00.000Z' });
    const again = await request(t.app, 'POST', `${POS}/${po.id}/close`, { token: tokens.bookkeeper });
    expect(refusal(again)).toEqual([409, 'PROCUREMENT_7011']);
    expect(refusal(await receive(tokens.bookkeeper, po, [[0, 1]]))).toEqual([409, 'PROCUREMENT_7011']);
    expect((await request(t.app, 'GET', `${POS}?status=CLOSED&page_size=100`, { token: tokens.bookkeeper })).body.data.map((p: PurchaseOrder) => p.id)).toContain(po.id);
  });

  it('answers a repeated client id with the stored receipt, and refuses the id to anyone else', async () => {
    const po = await insertPurchaseOrder(t.db, a);
    const id = randomUUID();
    const first = await receive(tokens.employee, po, [[0, 5]], { id });
    expect(first.status, first.text).toBe(201);
    const repeat = await receive(tokens.employee, po, [[0, 5]], { id });
    expect(repeat.status, repeat.text).toBe(200);
    expect(repeat.body.item_receipt).toEqual(first.body.item_receipt);
    expect(repeat.body.purchase_order.lines[0].received_quantity).toBe(5);
    const stolen = await receive(tokens.bookkeeper, po, [[0, 1]], { id });
    expect(refusal(stolen)).toEqual([422, 'REQUEST_7001']);
    expect(stolen.body.error_v2.errors).toEqual({ id: 'id is already used by another item receipt' });
  });

  it('deletes a receipt: a tombstone, quantities and status follow; a closed PO\'s receipts stay', async () => {
    const po = await insertPurchaseOrder(t.db, a);
    const r1 = (await receive(tokens.employee, po, [[0, 3]])).body;
    const r2 = (await receive(tokens.employee, po, [[0, 2]])).body;
    expect(r2.purchase_order.status).toBe('RECEIVED');
    const del = await request(t.app, 'DELETE', `${DELETE_RECEIPT}/${r2.item_receipt.id}`, { token: tokens.employee });
    expect(del.status, del.text).toBe(200);
    expect(del.body.purchase_order).toMatchObject({ status: 'PARTIALLY_RECEIVED', lines: [{ received_quantity: 3 }] });
    expect(del.body.purchase_order.receipts.map((r: { id: string }) => r.id)).toEqual([r1.item_receipt.id]);
    expect(del.body.change_seq).toBeGreaterThan(r2.change_seq);
    expect(refusal(await request(t.app, 'DELETE', `${DELETE_RECEIPT}/${r2.item_receipt.id}`, { token: tokens.employee }))).toEqual([404, 'REQUEST_7004']);
    const list = await request(t.app, 'GET', `${RECEIPTS}?purchase_order_id=${po.id}`, { token: tokens.employee });
    expect(list.body.data.map((r: { id: string }) => r.id)).toEqual([r1.item_receipt.id]);
    const last = await request(t.app, 'DELETE', `${DELETE_RECEIPT}/${r1.item_receipt.id}`, { token: tokens.bookkeeper });
    expect(last.body.purchase_order).toMatchObject({ status: 'OPEN', lines: [{ received_quantity: 0 }] });

    const closedPo = await insertPurchaseOrder(t.db, a);
    const kept = (await receive(tokens.bookkeeper, closedPo, [[0, 1]])).body.item_receipt.id;
    await request(t.app, 'POST', `${POS}/${closedPo.id}/close`, { token: tokens.bookkeeper });
    expect(refusal(await request(t.app, 'DELETE', `${DELETE_RECEIPT}/${kept}`, { token: tokens.bookkeeper }))).toEqual([409, 'PROCUREMENT_7011']);
    // Someone who may not see the PO cannot touch its receipts either.
    expect(refusal(await request(t.app, 'DELETE', `${DELETE_RECEIPT}/${r1.item_receipt.id}`, { token: tokens.outsider }))).toEqual([404, 'REQUEST_7004']);
  });

  it('lists receipts of the visible POs, paged, and 404s an invisible PO', async () => {
    const po = await insertPurchaseOrder(t.db, a, { requester: 'manager', lines: [{ description: 'Cable', quantity: 10, unit_price: 500 }] });
    for (let i = 0; i < 3; i++) expect((await receive(tokens.bookkeeper, po, [[0, 1]])).status).toBe(201);
    const one = await request(t.app, 'GET', `${RECEIPTS}?purchase_order_id=${po.id}&page_size=2&include_count=true`, { token: tokens.bookkeeper });
    expect(one.body.total_count).toBe(3);
    expect(one.body.data).toHaveLength(2);
    const two = await request(t.app, 'GET', `${RECEIPTS}?purchase_order_id=${po.id}&page_size=2&start=${one.body.page.next}`, { token: tokens.bookkeeper });
    expect(two.body.data).toHaveLength(1);
    expect(two.body.page.next).toBeNull();
    expect(refusal(await request(t.app, 'GET', `${RECEIPTS}?purchase_order_id=${po.id}`, { token: tokens.employee }))).toEqual([404, 'REQUEST_7004']);
    const mine = await request(t.app, 'GET', `${RECEIPTS}?page_size=100`, { token: tokens.employee });
    expect(mine.body.data.every((r: { purchase_order_id: string }) => r.purchase_order_id !== po.id)).toBe(true);
    expect(refusal(await request(t.app, 'GET', `${RECEIPTS}?start=bogus`, { token: tokens.bookkeeper }))).toEqual([422, 'REQUEST_7001']);
  });

  it('keeps packing slips on a receipt: upload, read, delete, the PO doc following', async () => {
    const po = await insertPurchaseOrder(t.db, a);
    const receipt = (await receive(tokens.employee, po, [[0, 1]])).body;
    const path = `${RECEIPTS}/${receipt.item_receipt.id}/documents`;
    const up = await request(t.app, 'POST', path, { token: tokens.employee, rawBody: PDF_BYTES, headers: { 'content-type': 'application/pdf' } });
    expect(up.status, up.text).toBe(201);
    expect(up.body).toMatchObject({ content_type: 'application/pdf', size: PDF_BYTES.length });
    const withDoc = await getPo(po.id);
    expect(withDoc.receipts[0]!.document_ids).toEqual([up.body.id]);
    expect(withDoc.change_seq).toBeGreaterThan(receipt.change_seq);
    const file = await request(t.app, 'GET', `${path}/${up.body.id}`, { token: tokens.employee });
    expect(file.status).toBe(200);
    expect(file.text).toBe(PDF_BYTES);
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="item-receipt-document-${up.body.id}.pdf"`);
    expect(refusal(await request(t.app, 'GET', `${path}/${up.body.id}`, { token: tokens.outsider }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'POST', path, { token: tokens.employee, rawBody: '<html>x</html>', headers: { 'content-type': 'application/pdf' } }))[0]).toBe(422);
    const del = await request(t.app, 'DELETE', `${DELETE_RECEIPT}/${receipt.item_receipt.id}/documents/${up.body.id}`, { token: tokens.employee });
    expect(del.status, del.text).toBe(200);
    expect(del.body.purchase_order.receipts[0].document_ids).toEqual([]);
    expect(refusal(await request(t.app, 'GET', `${path}/${up.body.id}`, { token: tokens.employee }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'DELETE', `${DELETE_RECEIPT}/${receipt.item_receipt.id}/documents/${up.body.id}`, { token: tokens.employee }))).toEqual([404, 'REQUEST_7004']);
  });

  it('writes the PO as a PDF that an independent reader opens: header, xref offsets, the text', async () => {
    const vendorId = await insertVendor(t.db, a.businessId, 'Société Générale Supplies');
    const po = await insertPurchaseOrder(t.db, a, {
      vendorId, currency: 'EUR',
      lines: [{ description: 'Ergonomic chair', quantity: 3, unit_price: 129_950 }, { description: 'Monitor arm', quantity: 2, unit_price: 8_900 }],
    });
    const res = await t.app.request(`${POS}/${po.id}/pdf`, { headers: { 'RAMP-ID-TOKEN': tokens.employee } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${po.poNumber}.pdf"`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
    const raw = Buffer.from(bytes).toString('latin1');
    expect(raw.startsWith('%PDF-1.')).toBe(true);
    expect(raw.trimEnd().endsWith('%%EOF')).toBe(true);

    // The cross-reference table, read by hand: startxref points at it, every in-use entry at its object.
    const startxref = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(raw)![1]);
    expect(raw.slice(startxref, startxref + 4)).toBe('xref');
    const [, first, count] = /^xref\s+(\d+) (\d+)\s/.exec(raw.slice(startxref))!.map(Number) as [number, number, number];
    const entries = raw.slice(startxref).split(/\r?\n/).slice(2, 2 + count);
    expect(entries).toHaveLength(count);
    let inUse = 0;
    entries.forEach((e, i) => {
      const [offset, , type] = e.trim().split(' ');
      if (type !== 'n') return;
      inUse++;
      expect(raw.slice(Number(offset)).startsWith(`${first + i} 0 obj`)).toBe(true);
    });
    expect(inUse).toBeGreaterThan(5);

    // The page text: its content streams inflated, the shown strings decoded (hex or literal).
    const shown: string[] = [];
    for (const m of raw.matchAll(/stream\r?\n/g)) {
      const start = m.index! + m[0].length;
      const end = raw.indexOf('endstream', start);
      let body: string;
      try {
        body = inflateSync(Buffer.from(raw.slice(start, end).replace(/\r?\n$/, ''), 'latin1')).toString('latin1');
      } catch {
        continue;
      }
      for (const t of body.matchAll(/<([0-9A-Fa-f]*)> Tj/g)) shown.push(Buffer.from(t[1]!, 'hex').toString('latin1'));
      for (const t of body.matchAll(/\(((?:\\.|[^\\)])*)\) Tj/g)) shown.push(t[1]!);
    }
    const all = shown.join('\n');
    for (const s of [po.poNumber, 'PURCHASE ORDER', 'Société Générale Supplies', '500 Market Street', 'San Francisco, CA, 94105', 'Ergonomic chair',
      '1,299.50 EUR', '3,898.50 EUR', '178.00 EUR', 'Total', '4,076.50 EUR']) {
      expect(all).toContain(s);
    }
    expect(all).toContain(`Fixture ${a.businessId.slice(0, 8)}`);

    // And pdf-lib's own parser takes it: one page, the PO number in the title.
    const parsed = await PDFDocument.load(bytes);
    expect(parsed.getPageCount()).toBe(1);
    expect(parsed.getTitle()).toContain(po.poNumber);
  });

  it('flows a long PO onto more pages', async () => {
    const lines = Array.from({ length: 60 }, (_, i) => ({ description: `Part ${i + 1} ${'x'.repeat(i)}`, quantity: 1 + i, unit_price: 100 }));
    const po = await insertPurchaseOrder(t.db, a, { lines });
    const res = await t.app.request(`${POS}/${po.id}/pdf`, { headers: { 'RAMP-ID-TOKEN': tokens.bookkeeper } });
    const parsed = await PDFDocument.load(new Uint8Array(await res.arrayBuffer()));
    expect(parsed.getPageCount()).toBeGreaterThan(1);
  });

  it('reads tolerances as a bill manager (defaults when never saved) and saves them as an admin', async () => {
    expect((await request(t.app, 'GET', SETTINGS, { token: tokens.bookkeeper })).body).toEqual(DEFAULT_MATCH_TOLERANCES);
    expect(refusal(await request(t.app, 'GET', SETTINGS, { token: tokens.employee }))).toEqual([403, 'FORBIDDEN_7003']);
    const body = { price_tolerance_percent: 5.5, quantity_tolerance_percent: 10 };
    expect(refusal(await request(t.app, 'PUT', SETTINGS, { token: tokens.bookkeeper, body }))).toEqual([403, 'FORBIDDEN_7003']);
    const put = await request(t.app, 'PUT', SETTINGS, { token: tokens.admin, body });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toEqual(body);
    expect((await request(t.app, 'GET', SETTINGS, { token: tokens.bookkeeper })).body).toEqual(body);
    expect((await request(t.app, 'GET', SETTINGS, { token: bOwner })).body).toEqual(DEFAULT_MATCH_TOLERANCES);
    for (const bad of [{ price_tolerance_percent: 101 }, { price_tolerance_percent: -1 }, { price_tolerance_percent: '2' }, { quantity_tolerance_percent: 1, extra: 1 }]) {
      expect(refusal(await request(t.app, 'PUT', SETTINGS, { token: tokens.admin, body: bad }))).toEqual([422, 'REQUEST_7001']);
    }
  });

  it('re-stamps the PO when a bill naming it, or its lines, change (migration 047)', async () => {
    const po = await insertPurchaseOrder(t.db, a);
    const bill = await request(t.app, 'POST', '/v1/auth/bill-pay', {
      token: tokens.admin,
      body: { vendor_id: po.vendorId, invoice_number: `INV-${po.poNumber}`, invoice_date: '2026-11-18', due_date: '2026-12-18', currency: 'USD', line_items: [{ description: 'Desks', amount: 225_000 }] },
    });
    expect(bill.status, bill.text).toBe(200);
    const seqOf = async () => (await getPo(po.id)).change_seq;
    const s0 = await seqOf();
    await t.db.query('UPDATE bills SET purchase_order_id = $2 WHERE id = $1', [bill.body.id, po.id]);
    const named = await getPo(po.id);
    expect(named.bill_ids).toEqual([bill.body.id]);
    expect(named.change_seq).toBeGreaterThan(s0);
    await t.db.query('UPDATE bill_line_items SET po_line_id = $2, quantity = 5, unit_price = 45000 WHERE bill_id = $1', [bill.body.id, po.lineIds[0]]);
    const billed = await getPo(po.id);
    expect(billed.lines[0]!.billed_quantity).toBe(5);
    expect(billed.change_seq).toBeGreaterThan(named.change_seq);
    // A write the doc does not read (the match outcome) leaves the PO's seq alone.
    await t.db.query(`UPDATE bills SET po_match = '{}'::jsonb WHERE id = $1`, [bill.body.id]);
    expect(await seqOf()).toBe(billed.change_seq);
    const del = await request(t.app, 'DELETE', `/v1/auth/bill-pay/${bill.body.id}`, { token: tokens.admin });
    expect(del.status, del.text).toBe(200);
    const gone = await getPo(po.id);
    expect(gone.bill_ids).toEqual([]);
    expect(gone.lines[0]!.billed_quantity).toBe(0);
    expect(gone.change_seq).toBeGreaterThan(billed.change_seq);
  });

  it('answers bad input with 422 and a field', async () => {
    const po = await insertPurchaseOrder(t.db, a);
    const line = po.lineIds[0];
    const bodies: unknown[] = [
      {},
      { purchase_order_id: po.id, lines: [], received_at: '2026-11-20T09:30:00Z' },
      { purchase_order_id: po.id, lines: [{ po_line_id: line, quantity: 0 }], received_at: '2026-11-20T09:30:00Z' },
      { purchase_order_id: po.id, lines: [{ po_line_id: line, quantity: 1.5 }], received_at: '2026-11-20T09:30:00Z' },
      { purchase_order_id: po.id, lines: [{ po_line_id: line, quantity: -1 }], received_at: '2026-11-20T09:30:00Z' },
      { purchase_order_id: po.id, lines: [{ po_line_id: 'nope', quantity: 1 }], received_at: '2026-11-20T09:30:00Z' },
      { purchase_order_id: po.id, lines: [{ po_line_id: line, quantity: 1 }], received_at: 'yesterday' },
      { purchase_order_id: po.id, lines: [{ po_line_id: line, quantity: 1 }], received_at: '2026-11-25T09:30:00Z' },
      { purchase_order_id: po.id, lines: [{ po_line_id: line, quantity: 1 }], received_at: '2026-11-20T09:30:00Z', extra: true },
    ];
    for (const body of bodies) {
      const res = await request(t.app, 'POST', RECEIPTS, { token: tokens.bookkeeper, body });
      expect(refusal(res), JSON.stringify(body)).toEqual([422, 'REQUEST_7001']);
      expect(Object.keys(res.body.error_v2.errors ?? {}).length, JSON.stringify(body)).toBeGreaterThan(0);
    }
    expect(refusal(await request(t.app, 'GET', `${POS}/not-a-uuid`, { token: tokens.bookkeeper }))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await request(t.app, 'GET', `${POS}?status=LOST`, { token: tokens.bookkeeper }))).toEqual([422, 'REQUEST_7001']);
    expect((await getPo(po.id)).receipts).toEqual([]);
  });

  it('answers another business\'s PO and receipt ids with 404 on every route, changing nothing', async () => {
    const docId = randomUUID();
    const before = await request(t.app, 'GET', `${POS}/${bPo.id}`, { token: bOwner });
    const probes: [string, string, Record<string, unknown>?][] = [
      ['GET', `${POS}/${bPo.id}`],
      ['POST', `${POS}/${bPo.id}/close`],
      ['GET', `${POS}/${bPo.id}/pdf`],
      ['GET', `${RECEIPTS}?purchase_order_id=${bPo.id}`],
      ['POST', RECEIPTS, { purchase_order_id: bPo.id, lines: [{ po_line_id: bPo.lineIds[0], quantity: 1 }], received_at: '2026-11-20T09:30:00Z' }],
      ['DELETE', `${DELETE_RECEIPT}/${bReceipt}`],
      ['GET', `${RECEIPTS}/${bReceipt}/documents/${docId}`],
      ['DELETE', `${DELETE_RECEIPT}/${bReceipt}/documents/${docId}`],
    ];
    for (const role of ['admin', 'bookkeeper', 'employee'] as const) {
      for (const [method, path, body] of probes) {
        const res = await request(t.app, method, path, { token: tokens[role], body });
        // Closing is a bill manager's: anyone else is refused before any lookup, whatever the id.
        const expected = role === 'employee' && path.endsWith('/close') ? [403, 'FORBIDDEN_7003'] : [404, 'REQUEST_7004'];
        expect(refusal(res), `${role} ${method} ${path}`).toEqual(expected);
      }
      const up = await request(t.app, 'POST', `${RECEIPTS}/${bReceipt}/documents`, { token: tokens[role], rawBody: PDF_BYTES, headers: { 'content-type': 'application/pdf' } });
      expect(refusal(up)).toEqual([404, 'REQUEST_7004']);
    }
    // A's own receipt against B's line: the line is not on A's PO.
    const mine = await insertPurchaseOrder(t.db, a);
    const cross = await request(t.app, 'POST', RECEIPTS, {
      token: tokens.bookkeeper, body: { purchase_order_id: mine.id, lines: [{ po_line_id: bPo.lineIds[0], quantity: 1 }], received_at: '2026-11-20T09:30:00Z' },
    });
    expect(refusal(cross)).toEqual([422, 'PROCUREMENT_7012']);
    const after = await request(t.app, 'GET', `${POS}/${bPo.id}`, { token: bOwner });
    expect(after.body).toEqual(before.body);
    const list = await request(t.app, 'GET', `${POS}?page_size=100`, { token: tokens.admin });
    expect(list.body.data.map((p: PurchaseOrder) => p.id)).not.toContain(bPo.id);
  });
});
