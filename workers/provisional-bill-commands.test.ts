import { describe, expect, it } from 'vitest';
import type { Bill } from '../schema/entities/bill.ts';
import type { ProvisionalBill } from '../schema/entities/provisional-bill.ts';
import type { Change } from '../schema/sync-feed.ts';
import type { LocalFilesPort, UploadState } from '../sync/ports.ts';
import { jsonResponse } from '../sync/testing.ts';
import type { MirrorRuntime } from './mirror-runtime.ts';
import { makeBill, testUuid } from './test-fixtures.ts';
import { mirrorDevice, outboxOver } from './testing/mirror-device.ts';

/**
 * The bill inbox in the worker (issue 11 §7 provisional bills, reference data): an invoice kept
 * on this device becomes a provisional bill at once, offline, marked as not yet synced, and
 * survives a restart; the outbox uploads the file first and sends the create under the server's
 * file id, then the edit; completing it into a bill (`bill.create` with `provisional_bill_id`)
 * removes it at once and it stays gone until the feed's tombstone; a delete removes it at once.
 */
const ACTOR = { user_id: testUuid(2, 1), business_id: testUuid(0xb, 1) };
const PROVISIONAL = testUuid(0xc, 1);
const LOCAL_FILE = testUuid(0xf, 1);
const SERVER_FILE = testUuid(0xf, 2);
const BILL = testUuid(0xd, 1);
const VENDOR = testUuid(0xe, 1);
const SHA = 'ab'.repeat(32);
const BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

const device = (name: string) => mirrorDevice(name, ACTOR);

/** The receipt store as the outbox sees it: the one local file, its upload states and server id. */
function memoryFiles(): LocalFilesPort & { states: UploadState[] } {
  const states: UploadState[] = [];
  return {
    states,
    read: async (id) => (id === LOCAL_FILE ? { body: BYTES, contentType: 'image/png' } : null),
    async serverIds(ids) {
      const last = states.at(-1);
      return new Map(last?.kind === 'uploaded' && ids.includes(LOCAL_FILE) ? [[LOCAL_FILE, last.server_id]] : []);
    },
    async setUploadState(_id, state) {
      states.push(state);
    },
  };
}

const inbox = (rt: MirrorRuntime) => rt.referenceData().provisional_bills;

const serverRow = (over: Partial<ProvisionalBill> = {}): ProvisionalBill => ({
  id: PROVISIONAL, invoice_file_id: SERVER_FILE, vendor_id: null, invoice_number: null, invoice_date: null, due_date: null,
  currency: null, amount: null, memo: null, created_by: ACTOR.user_id, created_at: '2026-11-20T12:00:00.000Z',
  business_id: ACTOR.business_id, change_seq: 5, updated_at: '2026-11-20T12:00:00.000Z', deleted: false, ...over,
});

const change = (doc: { id: string; change_seq: number }, collection: Change['collection'], deleted = false): Change =>
  ({ collection, seq: doc.change_seq, id: doc.id, deleted, doc: deleted ? null : doc }) as Change;

async function queueOfflineInvoice(rt: MirrorRuntime) {
  await rt.commands.run('receipt.upload', { receipt_id: LOCAL_FILE, content_type: 'image/png', size: BYTES.length, sha256: SHA });
  return rt.commands.run('provisionalBill.create', { id: PROVISIONAL, invoice_file_id: LOCAL_FILE });
}

describe('an invoice dropped in the bill inbox offline', () => {
  it('shows at once as a provisional bill waiting to sync, keeps its edits over a restart, and is sent after the upload under the server’s file id', async () => {
    const open = device('inbox-offline');
    const rt = await open();
    const { result } = await queueOfflineInvoice(rt);
    expect(result).toMatchObject({ ok: true, affected: 1 });
    expect(inbox(rt)).toEqual([expect.objectContaining({
      id: PROVISIONAL, invoice_file_id: LOCAL_FILE, created_by: ACTOR.user_id, business_id: ACTOR.business_id, amount: null, pending: 'pending',
    })]);
    // The OCR's reading is saved on it while still offline (the check finds the row created offline).
    const read = await rt.commands.run('provisionalBill.update', { provisional_bill_id: PROVISIONAL, patch: { invoice_number: 'INV-7', amount: 12_000, currency: 'USD' } });
    expect(read.result).toMatchObject({ ok: true });
    expect(inbox(rt)[0]).toMatchObject({ invoice_number: 'INV-7', amount: 12_000, currency: 'USD', pending: 'pending' });
    // An edit of a provisional bill this device does not show is refused before it is queued.
    const unknown = await rt.commands.run('provisionalBill.update', { provisional_bill_id: testUuid(0xc, 9), patch: { memo: 'x' } });
    expect(unknown.result).toMatchObject({ ok: false, error: { error_code: 'REQUEST_7004' } });
    await rt.close();

    const again = await open();
    expect(inbox(again)).toEqual([expect.objectContaining({ id: PROVISIONAL, invoice_number: 'INV-7', amount: 12_000, pending: 'pending' })]);
    const created = serverRow();
    const edited = serverRow({ invoice_number: 'INV-7', amount: 12_000, currency: 'USD', change_seq: 6 });
    const net = outboxOver(again, [
      jsonResponse(201, { id: SERVER_FILE, content_type: 'image/png', size: BYTES.length, sha256: SHA, created_at: created.created_at }),
      jsonResponse(201, created),
      jsonResponse(200, edited),
    ], { scopes: ['default', 'low-risk'], files: memoryFiles() });
    net.outbox.kick();
    await net.outbox.whenIdle();
    expect(net.transport.requests.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
      'POST /v1/auth/receipts',
      'POST /v1/auth/bill-pay/provisional-bills',
      `PATCH /v1/auth/bill-pay/provisional-bills/${PROVISIONAL}`,
    ]);
    // The create names the file the server stored, not this device's id for it.
    expect(net.transport.requests[1]!.body).toEqual({ id: PROVISIONAL, invoice_file_id: SERVER_FILE });
    await expect.poll(() => inbox(again)[0]?.pending).toBeNull();
    expect(inbox(again)).toEqual([expect.objectContaining({ id: PROVISIONAL, invoice_file_id: SERVER_FILE, invoice_number: 'INV-7', change_seq: 6 })]);
  });
});

describe('completing a provisional bill into a bill', () => {
  it('removes it at once, and it stays gone after the bill is confirmed until the feed’s tombstone', async () => {
    const rt = await device('inbox-complete')();
    await rt.mirror.applyChanges([change(serverRow(), 'provisional_bills')], { seq: 5, epoch: 'e' });
    await expect.poll(() => inbox(rt).length).toBe(1);
    const { result } = await rt.commands.run('bill.create', {
      id: BILL, provisional_bill_id: PROVISIONAL, vendor_id: VENDOR, invoice_number: 'INV-7', invoice_date: '2026-11-01',
      due_date: '2026-11-30', currency: 'USD', line_items: [{ description: 'Invoice total', amount: 12_000 }],
    });
    expect(result).toMatchObject({ ok: true, affected: 1 });
    expect(inbox(rt)).toEqual([]);
    // The provisional bill's id orders the create; it is no bill of its own.
    const bills = await rt.query('bills', { filter: {}, sort: 'due_date_asc', offset: 0, limit: 10 });
    expect(bills.rows.map((b) => b.id)).toEqual([BILL]);

    // The server wrote the tombstone (seq 7) and the bill (seq 8); the answer is the bill.
    const bill: Bill = { ...makeBill(1), id: BILL, vendor_id: VENDOR, invoice_file_id: SERVER_FILE, change_seq: 8 };
    const net = outboxOver(rt, [jsonResponse(200, bill)], { scopes: ['default', 'low-risk'], files: memoryFiles() });
    net.outbox.kick();
    await net.outbox.whenIdle();
    expect(net.transport.requests[0]!.body).toMatchObject({ id: BILL, provisional_bill_id: PROVISIONAL });
    await expect.poll(async () => (await rt.get('bills', BILL))?.change_seq).toBe(8);
    expect(inbox(rt)).toEqual([]);
    await rt.mirror.applyChanges([change({ id: PROVISIONAL, change_seq: 7 }, 'provisional_bills', true), change(bill, 'bills')], { seq: 8, epoch: 'e' });
    await expect.poll(() => rt.refs.maps.provisional_bills.size).toBe(0);
    expect(inbox(rt)).toEqual([]);
  });

  it('a refused completion brings the provisional bill back, marked failed', async () => {
    const rt = await device('inbox-complete-refused')();
    await rt.mirror.applyChanges([change(serverRow(), 'provisional_bills')], { seq: 5, epoch: 'e' });
    await expect.poll(() => inbox(rt).length).toBe(1);
    await rt.commands.run('bill.create', {
      id: BILL, provisional_bill_id: PROVISIONAL, vendor_id: VENDOR, invoice_number: 'INV-7', invoice_date: '2026-11-01',
      due_date: '2026-11-30', currency: 'USD', line_items: [{ description: 'Invoice total', amount: 12_000 }],
    });
    expect(inbox(rt)).toEqual([]);
    const net = outboxOver(rt, [jsonResponse(404, { error_v2: { error_code: 'REQUEST_7004', message: 'This provisional bill was not found.' } })], { scopes: ['default', 'low-risk'], files: memoryFiles() });
    net.outbox.kick();
    await net.outbox.whenIdle();
    await expect.poll(() => inbox(rt)[0]?.pending).toBe('failed');
    expect(inbox(rt)[0]).toMatchObject({ id: PROVISIONAL, failure: { message: 'This provisional bill was not found.' } });
  });
});

describe('deleting from the inbox', () => {
  it('removes the rows at once, one call each, and they stay gone until the feed drops them', async () => {
    const rt = await device('inbox-delete')();
    const second = serverRow({ id: testUuid(0xc, 2), change_seq: 6 });
    await rt.mirror.applyChanges([change(serverRow(), 'provisional_bills'), change(second, 'provisional_bills')], { seq: 6, epoch: 'e' });
    await expect.poll(() => inbox(rt).length).toBe(2);
    const { result } = await rt.commands.run('provisionalBill.delete', { provisional_bill_ids: [PROVISIONAL, second.id] });
    expect(result).toMatchObject({ ok: true, affected: 2 });
    expect(inbox(rt)).toEqual([]);
    const net = outboxOver(rt, [
      jsonResponse(200, { ...serverRow(), deleted: true, change_seq: 7 }),
      jsonResponse(200, { ...second, deleted: true, change_seq: 8 }),
    ], { scopes: ['default', 'low-risk'], files: memoryFiles() });
    net.outbox.kick();
    await net.outbox.whenIdle();
    expect(net.transport.requests.map((r) => r.method)).toEqual(['DELETE', 'DELETE']);
    expect(inbox(rt)).toEqual([]);
    await rt.mirror.applyChanges([change({ id: PROVISIONAL, change_seq: 7 }, 'provisional_bills', true), change({ id: second.id, change_seq: 8 }, 'provisional_bills', true)], { seq: 8, epoch: 'e' });
    await expect.poll(() => rt.refs.maps.provisional_bills.size).toBe(0);
    expect(inbox(rt)).toEqual([]);
  });
});
