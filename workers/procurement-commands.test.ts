import { describe, expect, it } from 'vitest';
import type { PurchaseOrder } from '../schema/entities/purchase-order.ts';
import type { SpendRequest } from '../schema/entities/spend-request.ts';
import { jsonResponse } from '../sync/testing.ts';
import type { ReferenceWhere } from './contracts/views.ts';
import type { MirrorRuntime } from './mirror-runtime.ts';
import { countMatching } from './reference-cache.ts';
import { testUuid } from './test-fixtures.ts';
import { feedChange, mirrorDevice, outboxOver, serverRows } from './testing/mirror-device.ts';

/**
 * Procurement in the worker (issue 28): a spend request made offline shows at once, waiting for
 * approval, survives a restart, and is sent once; "Receive items" on a purchase order (reference
 * data) moves its received quantities and status at once, refuses more than is left before
 * queueing, and is sent once, the receipt kept on the PO until the feed brings the server's PO.
 */
const ACTOR = { user_id: testUuid(2, 1), business_id: testUuid(0xb, 1) };
const REQUEST = testUuid(0xa, 1);
const PO = testUuid(0xc, 1);
const LINE = testUuid(0xc, 2);
const RECEIPT = testUuid(0xd, 1);
const AT = '2026-11-29T12:00:00.000Z';

const device = (name: string) => mirrorDevice(name, ACTOR);
const requests = async (rt: MirrorRuntime) => (await rt.query('spend_requests', { filter: {}, sort: 'created_desc', offset: 0, limit: 10 })).rows;
const pos = (rt: MirrorRuntime) => rt.referenceData().purchase_orders;

const budget = { id: REQUEST, type: 'GENERAL_EXPENSE', amount: { amount: 50_000, currency: 'USD' }, description: 'Conference budget' } as const;

const serverRequest = (over: Partial<SpendRequest> = {}): SpendRequest => ({
  id: REQUEST, user_id: ACTOR.user_id, requested_by: ACTOR.user_id, type: 'GENERAL_EXPENSE', status: 'PENDING_APPROVAL',
  amount: { amount: 50_000, currency: 'USD' }, interval: 'TOTAL', description: 'Conference budget', vendor_id: null, line_items: [],
  needed_by: null, spend_allocation_id: null, document_ids: [], approval_id: testUuid(0xe, 1), rejection_reason: null, card_id: null,
  purchase_order_id: null, submitted_at: AT, decided_at: null, fulfilled_at: null, canceled_at: null, created_at: AT,
  business_id: ACTOR.business_id, change_seq: 5, updated_at: AT, deleted: false, ...over,
});

const purchaseOrder = (received: number, over: Partial<PurchaseOrder> = {}): PurchaseOrder => ({
  id: PO, po_number: 'PO-000001', spend_request_id: REQUEST, vendor_id: testUuid(0xf, 1), currency: 'USD', amount: 10_000,
  lines: [{ id: LINE, description: 'Chair', quantity: 5, unit_price: 2_000, received_quantity: received, billed_quantity: 0 }],
  status: received === 0 ? 'OPEN' : received < 5 ? 'PARTIALLY_RECEIVED' : 'RECEIVED', receipts: [], bill_ids: [], created_by: ACTOR.user_id,
  closed_at: null, created_at: AT, business_id: ACTOR.business_id, change_seq: 7, updated_at: AT, deleted: false, ...over,
});

describe('a spend request made offline', () => {
  it('shows at once waiting for approval, survives a restart, and the outbox sends the create once', async () => {
    const open = device('request-offline');
    const rt = await open();
    const { result } = await rt.commands.run('spendRequest.create', budget);
    expect(result).toMatchObject({ ok: true, affected: 1 });
    expect(await requests(rt)).toEqual([expect.objectContaining({
      id: REQUEST, status: 'PENDING_APPROVAL', user_id: ACTOR.user_id, requested_by: ACTOR.user_id, amount: { amount: 50_000, currency: 'USD' }, pending: 'pending',
    })]);
    // A cancel of a request this device does not show is refused before it is queued.
    const unknown = await rt.commands.run('spendRequest.cancel', { spend_request_id: testUuid(0xa, 9) });
    expect(unknown.result).toMatchObject({ ok: false, error: { error_code: 'REQUEST_7004' } });
    await rt.close();

    const again = await open();
    expect(await requests(again)).toEqual([expect.objectContaining({ id: REQUEST, status: 'PENDING_APPROVAL', pending: 'pending' })]);
    const net = outboxOver(again, [jsonResponse(201, serverRequest())]);
    net.outbox.kick();
    await net.outbox.whenIdle();
    expect(net.transport.requests.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual(['POST /v1/auth/spend-requests']);
    expect(net.transport.requests[0]!.body).toEqual(budget);
    await expect.poll(async () => (await again.get('spend_requests', REQUEST))?.pending ?? null).toBeNull();
    expect(await again.get('spend_requests', REQUEST)).toMatchObject({ status: 'PENDING_APPROVAL', approval_id: testUuid(0xe, 1), change_seq: 5 });
    // Nothing is left to send: kicked again, no second create.
    net.outbox.kick();
    await net.outbox.whenIdle();
    expect(net.transport.requests).toHaveLength(1);
  });

  it('a cancel queued behind the create goes after it, and the request shows CANCELED meanwhile', async () => {
    const rt = await device('request-cancel')();
    await rt.commands.run('spendRequest.create', budget);
    const cancel = await rt.commands.run('spendRequest.cancel', { spend_request_id: REQUEST });
    expect(cancel.result).toMatchObject({ ok: true });
    expect(await rt.get('spend_requests', REQUEST)).toMatchObject({ status: 'CANCELED', pending: 'pending' });
    const canceled = serverRequest({ status: 'CANCELED', canceled_at: AT, change_seq: 6 });
    const net = outboxOver(rt, [jsonResponse(201, serverRequest()), jsonResponse(200, canceled)]);
    net.outbox.kick();
    await net.outbox.whenIdle();
    expect(net.transport.requests.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
      'POST /v1/auth/spend-requests', `POST /v1/auth/spend-requests/${REQUEST}/cancel`,
    ]);
    await expect.poll(async () => (await rt.get('spend_requests', REQUEST))?.change_seq).toBe(6);
    expect(await rt.get('spend_requests', REQUEST)).toMatchObject({ status: 'CANCELED', pending: null });
  });
});

describe('editing a draft offline (the Requests page’s "Edit draft")', () => {
  it('shows the edit at once, then the submit; the outbox sends the create, the edit and the submit in order, once each', async () => {
    const rt = await device('request-edit')();
    await rt.commands.run('spendRequest.create', { ...budget, submit: false });
    expect(await rt.get('spend_requests', REQUEST)).toMatchObject({ status: 'DRAFT', pending: 'pending' });
    const patch = { amount: { amount: 65_000, currency: 'USD' }, description: 'Conference budget and travel', interval: 'MONTHLY' } as const;
    expect((await rt.commands.run('spendRequest.update', { spend_request_id: REQUEST, patch })).result).toMatchObject({ ok: true });
    expect(await rt.get('spend_requests', REQUEST)).toMatchObject({
      status: 'DRAFT', amount: { amount: 65_000 }, description: 'Conference budget and travel', interval: 'MONTHLY', pending: 'pending',
    });
    expect((await rt.commands.run('spendRequest.update', { spend_request_id: REQUEST, patch: { submit: true } })).result).toMatchObject({ ok: true });
    expect(await rt.get('spend_requests', REQUEST)).toMatchObject({ status: 'PENDING_APPROVAL', amount: { amount: 65_000 } });

    const edited = { amount: { amount: 65_000, currency: 'USD' }, description: 'Conference budget and travel', interval: 'MONTHLY' as const };
    const net = outboxOver(rt, [
      jsonResponse(201, serverRequest({ status: 'DRAFT', approval_id: null, submitted_at: null })),
      jsonResponse(200, serverRequest({ ...edited, status: 'DRAFT', approval_id: null, submitted_at: null, change_seq: 6 })),
      jsonResponse(200, serverRequest({ ...edited, change_seq: 7 })),
    ]);
    net.outbox.kick();
    await net.outbox.whenIdle();
    expect(net.transport.requests.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
      'POST /v1/auth/spend-requests', `PATCH /v1/auth/spend-requests/${REQUEST}`, `PATCH /v1/auth/spend-requests/${REQUEST}`,
    ]);
    expect(net.transport.requests.slice(1).map((r) => r.body)).toEqual([patch, { submit: true }]);
    await expect.poll(async () => (await rt.get('spend_requests', REQUEST))?.change_seq).toBe(7);
    expect(await rt.get('spend_requests', REQUEST)).toMatchObject({ status: 'PENDING_APPROVAL', amount: { amount: 65_000 }, pending: null });
  });
});

describe('receiving items on a purchase order', () => {
  it('3 of 5 shows PARTIALLY_RECEIVED at once; more than is left is refused before queueing; sent once and kept until the feed brings the PO', async () => {
    const rt = await device('receive-items')();
    await serverRows(rt, [feedChange('purchase_orders', purchaseOrder(0))]);
    await expect.poll(() => pos(rt).length).toBe(1);
    const args = { id: RECEIPT, purchase_order_id: PO, lines: [{ po_line_id: LINE, quantity: 3 }], received_at: AT, received_by: ACTOR.user_id };
    expect((await rt.commands.run('itemReceipt.create', args)).result).toMatchObject({ ok: true });
    expect(pos(rt)[0]).toMatchObject({
      status: 'PARTIALLY_RECEIVED', lines: [{ received_quantity: 3 }], receipts: [{ id: RECEIPT, lines: [{ po_line_id: LINE, quantity: 3 }] }], pending: 'pending',
    });
    // 3 more would be 6 of 5: refused here, with the catalogue's words, and nothing queued.
    const over = await rt.commands.run('itemReceipt.create', { ...args, id: testUuid(0xd, 2) });
    expect(over.result).toMatchObject({ ok: false, error: { error_code: 'PROCUREMENT_7010', message: expect.stringMatching(/past the quantity ordered/) } });

    const serverPo = purchaseOrder(3, {
      change_seq: 8, receipts: [{ id: RECEIPT, purchase_order_id: PO, lines: [{ po_line_id: LINE, quantity: 3 }], received_at: AT, received_by: ACTOR.user_id, document_ids: [], created_at: AT }],
    });
    const net = outboxOver(rt, [jsonResponse(201, { item_receipt: serverPo.receipts[0], purchase_order: serverPo, change_seq: 8 })]);
    net.outbox.kick();
    await net.outbox.whenIdle();
    expect(net.transport.requests.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual(['POST /v1/auth/item-receipts']);
    expect(net.transport.requests[0]!.body).toEqual({ id: RECEIPT, purchase_order_id: PO, lines: [{ po_line_id: LINE, quantity: 3 }], received_at: AT });
    // Confirmed by seq: still shown received (no flicker back to OPEN) until the feed brings seq 8.
    await expect.poll(() => pos(rt)[0]?.pending ?? null).toBeNull();
    expect(pos(rt)[0]).toMatchObject({ status: 'PARTIALLY_RECEIVED', lines: [{ received_quantity: 3 }] });
    await serverRows(rt, [feedChange('purchase_orders', serverPo)]);
    await expect.poll(() => pos(rt)[0]?.change_seq).toBe(8);
    expect(pos(rt)[0]).toMatchObject({ status: 'PARTIALLY_RECEIVED', lines: [{ received_quantity: 3 }], receipts: [{ id: RECEIPT }] });
    expect(pos(rt)[0]!.receipts).toHaveLength(1);
    net.outbox.kick();
    await net.outbox.whenIdle();
    expect(net.transport.requests).toHaveLength(1);
  });

  it('a receipt the server refuses (a 409: the PO was closed meanwhile) rolls back and stays listed with the server’s words', async () => {
    const rt = await device('receive-refused')();
    await serverRows(rt, [feedChange('purchase_orders', purchaseOrder(0))]);
    await expect.poll(() => pos(rt).length).toBe(1);
    await rt.commands.run('itemReceipt.create', { id: RECEIPT, purchase_order_id: PO, lines: [{ po_line_id: LINE, quantity: 5 }], received_at: AT });
    expect(pos(rt)[0]).toMatchObject({ status: 'RECEIVED' });
    const net = outboxOver(rt, [jsonResponse(409, { error_v2: { error_code: 'PROCUREMENT_7011', message: 'This purchase order is closed: nothing more can be received against it.' } })]);
    net.outbox.kick();
    await net.outbox.whenIdle();
    await expect.poll(() => pos(rt)[0]?.pending).toBe('conflict');
    expect(pos(rt)[0]).toMatchObject({
      status: 'OPEN', lines: [{ received_quantity: 0 }], receipts: [], failure: { message: 'This purchase order is closed: nothing more can be received against it.' },
    });
  });
});

describe('referenceCount: the nav’s cheap "any budget / any PO" read', () => {
  const count = <K extends 'purchase_orders' | 'spend_allocations'>(rt: MirrorRuntime, kind: K, where?: ReferenceWhere<K>) =>
    countMatching(rt.referenceRows(kind), where as Record<string, unknown> | undefined);
  const allocation = (n: number, archived: boolean) => ({
    id: testUuid(0x5a, n), name: `Budget ${n}`, description: null, owner_id: ACTOR.user_id, member_ids: [], card_ids: [],
    limit: { amount: 100_000, currency: 'USD', interval: 'MONTHLY' }, end_date: null, spent: 0, left: 100_000, archived,
    created_by: ACTOR.user_id, created_at: AT, business_id: ACTOR.business_id, change_seq: 10 + n, updated_at: AT, deleted: false,
  });

  it('counts the rows of one kind matching the fields named, as the reference data shows them', async () => {
    const rt = await device('reference-count')();
    expect(count(rt, 'purchase_orders')).toBe(0);
    expect(count(rt, 'spend_allocations', { archived: false })).toBe(0);
    await serverRows(rt, [
      feedChange('purchase_orders', purchaseOrder(0)),
      feedChange('spend_allocations', allocation(1, true)),
      feedChange('spend_allocations', allocation(2, false)),
      feedChange('spend_allocations', allocation(3, false)),
    ]);
    expect(count(rt, 'purchase_orders')).toBe(1);
    expect(count(rt, 'purchase_orders', { status: 'RECEIVED' })).toBe(0);
    expect(count(rt, 'spend_allocations')).toBe(3);
    expect(count(rt, 'spend_allocations', { archived: false })).toBe(2);
    expect(count(rt, 'spend_allocations', { archived: true, name: 'Budget 1' })).toBe(1);
    // The same answer the whole reference data gives, without copying it.
    expect(count(rt, 'spend_allocations', { archived: false })).toBe(rt.referenceData().spend_allocations.filter((a) => !a.archived).length);

    // As shown: "Receive items" made offline moves the PO's status before the server answers.
    expect((await rt.commands.run('itemReceipt.create', { id: RECEIPT, purchase_order_id: PO, lines: [{ po_line_id: LINE, quantity: 5 }], received_at: AT })).result)
      .toMatchObject({ ok: true });
    expect(count(rt, 'purchase_orders', { status: 'RECEIVED' })).toBe(1);
    // A removal (an archived budget deleted from the feed) counts no more.
    await rt.mirror.applyChanges([{ collection: 'spend_allocations', seq: 20, id: allocation(1, true).id, deleted: true, doc: null }], { seq: 20, epoch: 'e' });
    expect(count(rt, 'spend_allocations')).toBe(2);
  });
});
