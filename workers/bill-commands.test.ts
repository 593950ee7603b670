import { describe, expect, it } from 'vitest';
import type { Bill } from '../schema/entities/bill.ts';
import type { Vendor } from '../schema/entities/vendor.ts';
import type { OutboxEntry } from '../sync/ports.ts';
import { jsonResponse } from '../sync/testing.ts';
import type { MirrorRuntime } from './mirror-runtime.ts';
import { makeBill, sampleRows, testUuid } from './test-fixtures.ts';
import { feedChange as put, mirrorDevice, serverRows, outboxOver, commandId } from './testing/mirror-device.ts';

/**
 * Bills in the worker (issue 11): a bill created offline shows at once under its client id,
 * survives a restart and is sent once with that id; the server's row replaces it; a server row
 * arriving under a pending edit is rebased; a refused command keeps what the user typed; the
 * duplicate-invoice check answers from the mirror, pending creates included; `q` finds a bill by
 * its vendor's name.
 */
const ACTOR = { user_id: testUuid(2, 1), business_id: testUuid(0xb, 1) };
const VENDOR = testUuid(0xe, 1);
const OTHER_VENDOR = testUuid(0xe, 2);
const NEW = testUuid(0xd, 99);

const device = (name: string) => mirrorDevice(name, ACTOR);

const vendor = (n: number, name: string): Vendor => ({ ...sampleRows('vendors', 1, 0xe)[0]!, id: testUuid(0xe, n), name, change_seq: 100 + n });

const createInput = (over: Record<string, unknown> = {}) => ({
  id: NEW, vendor_id: VENDOR, invoice_number: 'INV 001', invoice_date: '2026-11-01', due_date: '2026-11-30', currency: 'USD',
  line_items: [{ description: 'Paper', amount: 12_000 }, { description: 'Toner', amount: 3_050 }], ...over,
});

const bills = (rt: MirrorRuntime, filter: Record<string, unknown> = {}) =>
  rt.query('bills', { filter, sort: 'due_date_asc', offset: 0, limit: 50 });

/** The row as the server would answer it: the shown row without the outbox marks, changed by `over`. */
async function serverVersion(rt: MirrorRuntime, id: string, over: Partial<Bill>): Promise<Bill> {
  const shown = await rt.get('bills', id);
  if (!shown) throw new Error(`no bill ${id}`);
  const { pending, failure, ...row } = shown;
  void pending;
  void failure;
  return { ...(row as Bill), ...over };
}

describe('creating a bill offline', () => {
  it('shows a DRAFT at once (amount = the lines’ sum), survives a restart, is sent once under its client id and replaced by the server’s row', async () => {
    const open = device('bill-create-offline');
    const rt = await open();
    const { result } = await rt.commands.run('bill.create', createInput());
    expect(result).toMatchObject({ ok: true, affected: 1 });
    const page = await bills(rt);
    expect(page.total).toBe(1);
    expect(page.rows[0]).toMatchObject({
      id: NEW, vendor_id: VENDOR, invoice_number: 'INV 001', status: 'DRAFT', amount: 15_050, currency: 'USD', created_by: ACTOR.user_id,
      business_id: ACTOR.business_id, submitted_at: null, pending: 'pending', failure: null,
    });
    expect(page.rows[0]!.line_items.map((l) => [l.description, l.amount])).toEqual([['Paper', 12_000], ['Toner', 3_050]]);
    await rt.close();

    // A reload while still offline: the bill is derived from the stored outbox entry again.
    const again = await open();
    expect(await again.get('bills', NEW)).toMatchObject({ status: 'DRAFT', amount: 15_050, pending: 'pending' });
    const stored = await serverVersion(again, NEW, { change_seq: 7, line_items: [
      { id: testUuid(0xf, 1), description: 'Paper', amount: 12_000, gl_account_id: null, department_id: null, location_id: null, tracking: {}, vendor_credit_id: null, po_line_id: null, quantity: null, unit_price: null },
      { id: testUuid(0xf, 2), description: 'Toner', amount: 3_050, gl_account_id: null, department_id: null, location_id: null, tracking: {}, vendor_credit_id: null, po_line_id: null, quantity: null, unit_price: null },
    ] });
    const net = outboxOver(again, [jsonResponse(200, stored)], { scopes: ['default', 'low-risk'] });
    net.outbox.kick();
    await net.outbox.whenIdle();
    expect(net.transport.requests).toHaveLength(1);
    expect(net.transport.requests[0]).toMatchObject({ method: 'POST', url: 'http://api.test/v1/auth/bill-pay' });
    expect(net.transport.requests[0]!.body).toMatchObject({ id: NEW, vendor_id: VENDOR, invoice_number: 'INV 001' });
    expect(net.transport.requests[0]!.headers['idempotency-key']).toBe(commandId(result));
    await expect.poll(async () => (await again.get('bills', NEW))?.pending).toBeNull();
    expect(await again.get('bills', NEW)).toMatchObject({ change_seq: 7, amount: 15_050, status: 'DRAFT' });
    expect((await bills(again)).total).toBe(1);
  });

  it('with submit: PENDING_APPROVAL, submitted at the write’s moment', async () => {
    const rt = await device('bill-create-submit')();
    await rt.commands.run('bill.create', createInput({ submit: true }));
    const shown = await rt.get('bills', NEW);
    expect(shown).toMatchObject({ status: 'PENDING_APPROVAL', pending: 'pending' });
    expect(shown!.submitted_at).toBe(shown!.updated_at);
  });

  it('edits of a bill not yet synced go on top of it, in order, and wait for the create', async () => {
    const rt = await device('bill-create-edit')();
    await rt.commands.run('bill.create', createInput());
    const { result } = await rt.commands.run('bill.update', { bill_id: NEW, patch: { memo: 'November', line_items: [{ description: 'Paper', amount: 9_000 }] } });
    expect(result).toMatchObject({ ok: true });
    expect(await rt.get('bills', NEW)).toMatchObject({ memo: 'November', amount: 9_000, status: 'DRAFT', pending: 'pending' });
    // An edit of a bill the mirror does not have is refused before it is queued.
    const unknown = await rt.commands.run('bill.update', { bill_id: testUuid(0xd, 500), patch: { memo: 'x' } });
    expect(unknown.result).toMatchObject({ ok: false, error: { error_code: 'REQUEST_7004' } });
  });
});

describe('a server row arriving under a pending edit', () => {
  it('is shown with the edit on top (rebased), and the edit’s rules are the status’s', async () => {
    const rt = await device('bill-rebase')();
    const bill = makeBill(1);
    await serverRows(rt, [put('bills', bill)]);
    await rt.commands.run('bill.update', { bill_id: bill.id, patch: { memo: 'Checked', line_items: [{ description: 'Paper', amount: 20_000 }] } });
    expect(await rt.get('bills', bill.id)).toMatchObject({ memo: 'Checked', amount: 20_000, due_date: '2026-11-30', pending: 'pending' });

    // Someone else moved the due date meanwhile: both show.
    await serverRows(rt, [put('bills', { ...bill, due_date: '2026-12-15', change_seq: 10 } as Bill)]);
    await expect.poll(async () => (await rt.get('bills', bill.id))?.due_date).toBe('2026-12-15');
    expect(await rt.get('bills', bill.id)).toMatchObject({ memo: 'Checked', amount: 20_000, pending: 'pending' });

    // It was submitted meanwhile: the lines are frozen (editPayable), the memo still edits (editMemo).
    await serverRows(rt, [put('bills', { ...bill, status: 'PENDING_APPROVAL', change_seq: 11 } as Bill)]);
    await expect.poll(async () => (await rt.get('bills', bill.id))?.status).toBe('PENDING_APPROVAL');
    expect(await rt.get('bills', bill.id)).toMatchObject({ memo: null, amount: 15_000 });
    await rt.commands.run('bill.update', { bill_id: bill.id, patch: { memo: 'Only the memo' } });
    expect(await rt.get('bills', bill.id)).toMatchObject({ memo: 'Only the memo', amount: 15_000 });
  });

  it('a delete is pending on the draft until the feed’s tombstone removes it', async () => {
    const rt = await device('bill-delete')();
    const bill = makeBill(1);
    const approved = makeBill(2, 1, { status: 'APPROVED' });
    await serverRows(rt, [put('bills', bill), put('bills', approved)]);
    await rt.commands.run('bill.delete', { bill_id: bill.id });
    await rt.commands.run('bill.delete', { bill_id: approved.id });
    // As reimbursement.delete: the engine keeps the row (its server version is what a refusal
    // restores) and the view marks it pending; rows are shown with deleted: false.
    expect(await rt.get('bills', bill.id)).toMatchObject({ status: 'DRAFT', pending: 'pending' });
    expect(await rt.get('bills', approved.id)).toMatchObject({ status: 'APPROVED', pending: 'pending' });
    const notDraft = { error_v2: { error_code: 'REQUEST_7001', message: 'This bill is not a draft (status APPROVED) and cannot be deleted; cancel it instead.' } };
    const net = outboxOver(rt, [jsonResponse(200, { ...bill, deleted: true, change_seq: 12 }), jsonResponse(422, notDraft)], { scopes: ['default', 'low-risk'] });
    net.outbox.kick();
    await net.outbox.whenIdle();
    expect(net.transport.requests.map((r) => [r.method, r.url])).toEqual([
      ['DELETE', `http://api.test/v1/auth/bill-pay/${bill.id}`], ['DELETE', `http://api.test/v1/auth/bill-pay/${approved.id}`],
    ]);
    await expect.poll(async () => (await rt.get('bills', approved.id))?.pending).toBe('failed');
    expect(await rt.get('bills', approved.id)).toMatchObject({ status: 'APPROVED', failure: { message: notDraft.error_v2.message } });
    // Confirmed by change seq: kept until the feed delivers seq 12, then gone.
    expect(await rt.get('bills', bill.id)).not.toBeNull();
    await rt.mirror.applyChanges([{ collection: 'bills', seq: 12, id: bill.id, deleted: true, doc: null }], { seq: 12, epoch: 'e' });
    await expect.poll(async () => rt.get('bills', bill.id)).toBeNull();
  });
});

describe('a command the server refuses', () => {
  it('keeps an offline-created bill with what the user typed, marked failed with the server’s message', async () => {
    const rt = await device('bill-create-refused')();
    const id = commandId((await rt.commands.run('bill.create', createInput({ memo: 'Keep me' }))).result);
    const refusal = { error_v2: { error_code: 'REQUEST_7001', message: 'Check the highlighted fields.', errors: { vendor_id: 'This vendor was not found.' } } };
    const net = outboxOver(rt, [jsonResponse(422, refusal)], { scopes: ['default', 'low-risk'] });
    net.outbox.kick();
    await net.outbox.whenIdle();
    expect(net.transport.requests).toHaveLength(1);
    const entry = (await rt.outboxStore.get(id)) as OutboxEntry;
    expect(entry).toMatchObject({ state: 'failed', args: { id: NEW, memo: 'Keep me', invoice_number: 'INV 001' } });
    await expect.poll(async () => (await rt.get('bills', NEW))?.pending).toBe('failed');
    expect(await rt.get('bills', NEW)).toMatchObject({ memo: 'Keep me', amount: 15_050, failure: { command_id: id } });
    expect((await rt.get('bills', NEW))!.failure!.message).toBeTruthy();
  });

  it('rolls an edit back to the server’s row and keeps the edit’s args for a retry', async () => {
    const rt = await device('bill-update-refused')();
    const bill = makeBill(1);
    await serverRows(rt, [put('bills', bill)]);
    const id = commandId((await rt.commands.run('bill.update', { bill_id: bill.id, patch: { invoice_number: 'INV-77' } })).result);
    expect(await rt.get('bills', bill.id)).toMatchObject({ invoice_number: 'INV-77' });
    const refusal = { error_v2: { error_code: 'REQUEST_7001', message: 'This bill is awaiting approval (status PENDING_APPROVAL) and cannot have its vendor, invoice number, currency, amount or lines changed.' } };
    const net = outboxOver(rt, [jsonResponse(422, refusal)], { scopes: ['default', 'low-risk'] });
    net.outbox.kick();
    await net.outbox.whenIdle();
    await expect.poll(async () => (await rt.get('bills', bill.id))?.pending).toBe('failed');
    expect(await rt.get('bills', bill.id)).toMatchObject({ invoice_number: 'INV-1' });
    expect(await rt.outboxStore.get(id)).toMatchObject({ state: 'failed', args: { bill_id: bill.id, patch: { invoice_number: 'INV-77' } } });
  });
});

describe('a payment queued offline (bill.payNow)', () => {
  const paid = (bill: Bill, seq: number): Bill => ({ ...bill, status: 'PAID', payment_attempt: 1, change_seq: seq });

  it('shows each bill SCHEDULED at once, survives a restart, is sent once per bill with the command’s key, then the feed’s PAID row', async () => {
    const open = device('bill-pay-offline');
    const rt = await open();
    const a = makeBill(1, 1, { status: 'APPROVED' });
    const b = makeBill(2, 1, { status: 'APPROVED' });
    await serverRows(rt, [put('bills', a), put('bills', b)]);
    const { result } = await rt.commands.run('bill.payNow', { bill_ids: [a.id, b.id, a.id] });
    expect(result).toMatchObject({ ok: true, affected: 2 });
    expect(await rt.get('bills', a.id)).toMatchObject({ status: 'SCHEDULED', pending: 'pending' });
    expect(await rt.get('bills', b.id)).toMatchObject({ status: 'SCHEDULED', pending: 'pending' });
    await rt.close();

    const again = await open();
    expect(await again.get('bills', a.id)).toMatchObject({ status: 'SCHEDULED', pending: 'pending' });
    const net = outboxOver(again, [
      jsonResponse(200, { results: [{ id: a.id, ok: true, bill: paid(a, 20) }] }),
      jsonResponse(200, { results: [{ id: b.id, ok: true, bill: paid(b, 21) }] }),
    ], { scopes: ['default', 'low-risk'] });
    net.outbox.kick();
    await net.outbox.whenIdle();
    expect(net.transport.requests.map((r) => [r.method, r.url, r.body])).toEqual([
      ['POST', 'http://api.test/v1/auth/bill-pay/bulk-actions/pay-now', { bill_ids: [a.id] }],
      ['POST', 'http://api.test/v1/auth/bill-pay/bulk-actions/pay-now', { bill_ids: [b.id] }],
    ]);
    const keys = net.transport.requests.map((r) => r.headers['idempotency-key']);
    expect(new Set(keys).size).toBe(2);
    // Confirmed by the feed: still shown as queued until the PAID rows arrive, then the server's.
    expect(await again.get('bills', a.id)).toMatchObject({ status: 'SCHEDULED' });
    await serverRows(again, [put('bills', paid(a, 20)), put('bills', paid(b, 21))]);
    await expect.poll(async () => (await again.get('bills', a.id))?.pending).toBeNull();
    expect(await again.get('bills', a.id)).toMatchObject({ status: 'PAID' });
    expect(await again.get('bills', b.id)).toMatchObject({ status: 'PAID', pending: null });
  });

  it('a bill the server refuses in its 200 answer is the command’s refusal: rolled back, kept failed with the server’s words', async () => {
    const rt = await device('bill-pay-refused')();
    const bill = makeBill(3, 1, { status: 'APPROVED' });
    await serverRows(rt, [put('bills', bill)]);
    const id = commandId((await rt.commands.run('bill.payNow', { bill_ids: [bill.id] })).result);
    const message = 'This bill already has a payment; it cannot be paid twice.';
    const net = outboxOver(rt, [jsonResponse(200, { results: [{ id: bill.id, ok: false, error_v2: { error_code: 'REQUEST_7001', message } }] })], { scopes: ['default', 'low-risk'] });
    net.outbox.kick();
    await net.outbox.whenIdle();
    expect(net.transport.requests).toHaveLength(1);
    await expect.poll(async () => (await rt.get('bills', bill.id))?.pending).toBe('failed');
    expect(await rt.get('bills', bill.id)).toMatchObject({ status: 'APPROVED', failure: { command_id: id, message } });
    expect(await rt.outboxStore.get(id)).toMatchObject({ state: 'failed', args: { bill_id: bill.id } });
  });

  it('a refusal the server’s row made moot (the bill paid from another device) is not shown as failed and is discarded (issue 25 item 8)', async () => {
    const rt = await device('bill-pay-moot')();
    const bill = makeBill(5, 1, { status: 'APPROVED' });
    const other = makeBill(6, 1, { status: 'APPROVED' });
    await serverRows(rt, [put('bills', bill), put('bills', other)]);
    const id = commandId((await rt.commands.run('bill.payNow', { bill_ids: [bill.id] })).result);
    const otherId = commandId((await rt.commands.run('bill.payNow', { bill_ids: [other.id] })).result);
    const message = 'This bill is paid (status PAID) and cannot be paid now.';
    const net = outboxOver(rt, [
      jsonResponse(200, { results: [{ id: bill.id, ok: false, error_v2: { error_code: 'REQUEST_7001', message } }] }),
      jsonResponse(200, { results: [{ id: other.id, ok: false, error_v2: { error_code: 'REQUEST_7001', message: 'No.' } }] }),
    ], { scopes: ['default', 'low-risk'] });
    net.outbox.kick();
    await net.outbox.whenIdle();
    // Before the feed brings the paid bill, its Retry could still do something: failed, with Retry.
    await expect.poll(async () => (await rt.get('bills', bill.id))?.pending).toBe('failed');
    expect(rt.outboxIndex.counts().failed).toBe(2);
    // The feed brings it PAID (paid elsewhere): paying it again would change nothing.
    await serverRows(rt, [put('bills', paid(bill, 30))]);
    expect(await rt.get('bills', bill.id)).toMatchObject({ status: 'PAID', pending: null, failure: null });
    await expect.poll(async () => rt.outboxStore.get(id)).toBeNull();
    await expect.poll(() => rt.outboxIndex.counts().failed).toBe(1);
    // The other bill is still approved on the server: its refusal stays, with its Retry.
    expect(await rt.get('bills', other.id)).toMatchObject({ status: 'APPROVED', pending: 'failed', failure: { command_id: otherId, message: 'No.' } });
    expect(await rt.outboxStore.get(otherId)).toMatchObject({ state: 'failed' });
  });

  it('is refused before queueing for a bill the mirror does not have, and leaves a bill that cannot be paid as it is', async () => {
    const rt = await device('bill-pay-check')();
    const unknown = await rt.commands.run('bill.payNow', { bill_ids: [testUuid(0xd, 600)] });
    expect(unknown.result).toMatchObject({ ok: false, error: { error_code: 'REQUEST_7004' } });
    const draft = makeBill(4);
    await serverRows(rt, [put('bills', draft)]);
    await rt.commands.run('bill.payNow', { bill_ids: [draft.id] });
    expect(await rt.get('bills', draft.id)).toMatchObject({ status: 'DRAFT', pending: 'pending' });
  });
});

describe('a bill exported to accounting (issue 12)', () => {
  it('keeps the mark through a restart and refuses, offline, to change its dates or lines; its memo still edits', async () => {
    const open = device('bill-synced');
    const rt = await open();
    const bill = makeBill(5, 1, { status: 'APPROVED', accounting_synced_at: '2026-11-02T10:00:00.000Z' });
    await serverRows(rt, [put('bills', bill)]);
    await rt.close();
    // A reload while offline: the stored row (not the wire row) must still carry the mark.
    const again = await open();
    expect(await again.get('bills', bill.id)).toMatchObject({ accounting_synced_at: '2026-11-02T10:00:00.000Z' });
    for (const patch of [{ due_date: '2026-12-15' }, { line_items: [{ description: 'Paper', amount: 1 }] }]) {
      const refused = await again.commands.run('bill.update', { bill_id: bill.id, patch });
      expect(refused.result).toMatchObject({ ok: false, error: { error_code: 'ACCOUNTING_7301' } });
      expect(JSON.stringify(refused.result)).toMatch(/exported to your accounting system.*Mark it as not synced/);
    }
    expect(await again.outboxStore.list()).toEqual([]);
    expect(await again.get('bills', bill.id)).toMatchObject({ due_date: '2026-11-30', amount: 15_000, pending: null });
    const memo = await again.commands.run('bill.update', { bill_id: bill.id, patch: { memo: 'Paid by wire' } });
    expect(memo.result).toMatchObject({ ok: true });
    expect(await again.get('bills', bill.id)).toMatchObject({ memo: 'Paid by wire', pending: 'pending' });
    // Marked not synced (the feed brings the row without the mark): the dates edit again.
    await serverRows(again, [put('bills', { ...bill, accounting_synced_at: null, change_seq: 20 } as Bill)]);
    await expect.poll(async () => (await again.get('bills', bill.id))?.accounting_synced_at).toBeNull();
    expect((await again.commands.run('bill.update', { bill_id: bill.id, patch: { due_date: '2026-12-15' } })).result).toMatchObject({ ok: true });
  });
});

describe('the offline duplicate-invoice check', () => {
  it('finds a bill still in the outbox by the server’s rule (case, spaces, punctuation and leading zeros ignored), for that vendor only', async () => {
    const rt = await device('bill-duplicates')();
    await serverRows(rt, [
      put('bills', makeBill(1, 1, { invoice_number: 'INV-001' })),
      put('bills', makeBill(2, 1, { invoice_number: 'inv 001', status: 'CANCELED' })),
      put('bills', makeBill(3, 1, { invoice_number: 'INV-0012' })),
    ]);
    await rt.commands.run('bill.create', createInput({ invoice_number: 'INV 001' }));

    // One invoice however it is typed (issue 25: the server's key): the synced INV-001 and the
    // bill still in the outbox; never the canceled one, nor INV-0012 (another number).
    const dup = await rt.duplicateInvoices(VENDOR, 'inv/1');
    expect(dup.is_duplicate).toBe(true);
    expect(dup.bills.map((b) => [b.id, b.pending]).sort()).toEqual([[testUuid(0xd, 1), null], [NEW, 'pending']].sort());
    expect(await rt.duplicateInvoices(OTHER_VENDOR, 'INV 001')).toEqual({ is_duplicate: false, bills: [] });
    // The bill being edited is not its own duplicate.
    expect((await rt.duplicateInvoices(VENDOR, 'INV 001', NEW)).bills.map((b) => b.id)).toEqual([testUuid(0xd, 1)]);
  });
});

describe('searching bills', () => {
  it('finds a bill by its vendor’s name, invoice number or memo; filters by status and vendor; sorts by amount', async () => {
    const rt = await device('bill-search')();
    await serverRows(rt, [
      put('vendors', vendor(1, 'Paper Mill Co')),
      put('vendors', vendor(2, 'Acme Freight')),
      put('bills', makeBill(1, 1, { memo: 'office paper', amount: 15_000 })),
      put('bills', makeBill(2, 2, { invoice_number: 'FR-9', status: 'APPROVED', amount: 30_000, line_items: [{ id: testUuid(0xf, 9), description: 'Freight', amount: 30_000, gl_account_id: null, department_id: null, location_id: null, tracking: {}, vendor_credit_id: null, po_line_id: null, quantity: null, unit_price: null }] })),
    ]);
    const ids = async (filter: Record<string, unknown>, sort: 'amount_asc' | 'amount_desc' = 'amount_asc') =>
      (await rt.query('bills', { filter, sort, offset: 0, limit: 10 })).rows.map((r) => r.id);
    expect(await ids({ q: 'acme' })).toEqual([testUuid(0xd, 2)]);
    expect(await ids({ q: 'fr-9' })).toEqual([testUuid(0xd, 2)]);
    expect(await ids({ q: 'office' })).toEqual([testUuid(0xd, 1)]);
    expect(await ids({ statuses: ['APPROVED'] })).toEqual([testUuid(0xd, 2)]);
    expect(await ids({ vendor_ids: [VENDOR] })).toEqual([testUuid(0xd, 1)]);
    expect(await ids({}, 'amount_desc')).toEqual([testUuid(0xd, 2), testUuid(0xd, 1)]);
    expect(await ids({}, 'amount_asc')).toEqual([testUuid(0xd, 1), testUuid(0xd, 2)]);
  });
});
