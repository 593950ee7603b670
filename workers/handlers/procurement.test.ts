import { describe, expect, it } from 'vitest';
import { jsonResponse } from '../../sync/testing.ts';
import { signedInAdmin } from '../test-fixtures.ts';
import { methodAndPath, signedInWorker, type WorkerRequest } from '../testing/signed-in-worker.ts';
import { PROCUREMENT_OFFLINE } from './procurement.ts';

const { user: USER, business: BUSINESS } = signedInAdmin();
const id = (n: number) => `50000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const AT = '2026-11-29T12:00:00.000Z';
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

const calls = /^\/v1\/auth\/(spend-|purchase-order|item-receipts|bill-pay)/;
const worker = (route: (r: WorkerRequest) => Response | null) => signedInWorker({ calls, route, record: methodAndPath });

const stamp = { business_id: BUSINESS.id, change_seq: 4, updated_at: AT, deleted: false, created_at: AT };
const allocation = {
  ...stamp, id: id(1), name: 'Events', description: null, owner_id: USER.id, member_ids: [], limit: { amount: 100_000, currency: 'USD', interval: 'MONTHLY' },
  end_date: null, spent: 0, left: 100_000, card_ids: [], archived: false, created_by: USER.id,
};
const po = {
  ...stamp, id: id(2), po_number: 'PO-000001', spend_request_id: id(3), vendor_id: id(4), currency: 'USD', amount: 10_000,
  lines: [{ id: id(5), description: 'Chair', quantity: 5, unit_price: 2_000, received_quantity: 0, billed_quantity: 0 }],
  status: 'CLOSED', receipts: [], bill_ids: [], created_by: USER.id, closed_at: AT,
};
const intent = {
  id: id(6), card_id: id(7), user_id: USER.id, amount: { amount: 2_000, currency: 'USD' }, merchant_category: 'TRAVEL', description: null,
  status: 'ACTIVE', transaction_id: null, expires_at: AT, created_at: AT,
};
const document = { id: id(8), content_type: 'image/png', size: PNG.length, sha256: 'ab'.repeat(32), created_at: AT };

describe('procurement calls (online only)', () => {
  it('sends each call to its §7 path and answers what the UI takes', async () => {
    const { service, sent } = await worker((r) => {
      if (r.path.startsWith('/v1/auth/spend-allocation')) return jsonResponse(r.method === 'POST' ? 201 : 200, allocation);
      if (r.path.endsWith('/close')) return jsonResponse(200, po);
      if (r.path.endsWith('/pdf')) return new Response('%PDF-1.4', { status: 200, headers: { 'Content-Type': 'application/pdf' } });
      if (r.path === '/v1/auth/spend-intents' && r.method === 'GET') return jsonResponse(200, { data: [intent], page: { next: null } });
      if (r.path.includes('spend-intents')) return jsonResponse(r.method === 'POST' ? 201 : 200, intent);
      if (r.path.endsWith('/documents')) return jsonResponse(201, document);
      return null;
    });
    const created = await service.createSpendAllocation({ name: 'Events', limit: { amount: 100_000, currency: 'USD', interval: 'MONTHLY' } });
    expect(created).toMatchObject({ ok: true, allocation: { id: id(1), left: 100_000, change_seq: 4 } });
    expect(await service.addSpendAllocationUsers(id(1), [id(9)])).toMatchObject({ ok: true, allocation: { id: id(1) } });
    expect(await service.closePurchaseOrder(id(2))).toMatchObject({ ok: true, purchase_order: { status: 'CLOSED' } });
    const pdf = await service.purchaseOrderPdf(id(2));
    expect(pdf.ok && pdf.file.type).toBe('application/pdf');
    expect(await service.spendIntents(id(7))).toMatchObject({ ok: true, intents: [{ id: id(6) }] });
    expect(await service.cancelSpendIntent(id(6))).toMatchObject({ ok: true, intent: { status: 'ACTIVE' } });
    const upload = await service.uploadItemReceiptDocument(id(10), new Blob([PNG], { type: 'image/png' }));
    expect(upload).toMatchObject({ ok: true, document: { id: id(8) } });
    expect(sent).toEqual([
      'POST /v1/auth/spend-allocations',
      `PUT /v1/auth/spend-allocation/${id(1)}/add-users`,
      `POST /v1/auth/purchase-order-spend-requests/purchase-orders/${id(2)}/close`,
      `GET /v1/auth/purchase-order-spend-requests/purchase-orders/${id(2)}/pdf`,
      'GET /v1/auth/spend-intents',
      `DELETE /v1/auth/spend-requests/spend-intents/${id(6)}`,
      `POST /v1/auth/item-receipts/${id(10)}/documents`,
    ]);
  });

  it('refuses a document the server would refuse before sending it (type, markup)', async () => {
    const { service, sent } = await worker(() => jsonResponse(201, document));
    const text = await service.uploadSpendRequestDocument(id(3), new Blob(['hello'], { type: 'text/plain' }));
    expect(text).toMatchObject({ ok: false, error: { error_code: 'UPLOAD_7101' } });
    const html = await service.uploadSpendRequestDocument(id(3), new Blob(['<html><script>alert(1)</script></html>'], { type: 'application/pdf' }));
    expect(html).toMatchObject({ ok: false, error: { error_code: expect.stringMatching(/^UPLOAD_71/) } });
    expect(sent).toEqual([]);
  });

  it('refuses offline before sending anything (PROCUREMENT_OFFLINE)', async () => {
    const { service, sent } = await worker(() => jsonResponse(200, allocation));
    await service.setOnline(false);
    expect(await service.createSpendAllocation({ name: 'Events', limit: { amount: 1, currency: 'USD', interval: 'TOTAL' } })).toEqual(PROCUREMENT_OFFLINE);
    expect(await service.spendIntents()).toEqual(PROCUREMENT_OFFLINE);
    expect(await service.purchaseOrderPdf(id(2))).toEqual(PROCUREMENT_OFFLINE);
    expect(await service.uploadItemReceiptDocument(id(10), new Blob([PNG], { type: 'image/png' }))).toEqual(PROCUREMENT_OFFLINE);
    expect(await service.overrideBillMatch(id(11), 'Price agreed by phone')).toEqual(PROCUREMENT_OFFLINE);
    expect(sent).toEqual([]);
  });
});
