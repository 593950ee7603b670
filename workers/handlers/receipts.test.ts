import { beforeEach, describe, expect, it } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { errorBody } from '../../schema/errors.ts';
import { fakeToken, jsonResponse } from '../../sync/testing.ts';
import type { Transport } from '../../sync/ports.ts';
import { receiptStoreFor, useReceiptStoreOptions } from '../receipt-store.ts';
import { sha256Hex } from '../receipt-store-files.ts';
import { makeTransaction, makeTransactions, seedMirrorDb, testUuid, signedInAdmin } from '../test-fixtures.ts';
import { startWorker } from '../testing/signed-in-worker.ts';
import type { Transaction } from '../../schema/entities/transaction.ts';

const { user: USER, business: BUSINESS, identity: IDENTITY, dbName: DB_NAME } = signedInAdmin();
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

/** Receipt files the fake server holds (by id), what it was asked for, and whether the network is down. */
const serverFiles = new Map<string, Uint8Array<ArrayBuffer>>();
const fileRequests: { id: string; token: string | null }[] = [];
let networkDown = false;

/** Sign-in, and receipt files: the sync engine is off, so nothing else is sent. */
const transport: Transport = async (input, init) => {
  const url = new URL(String(input));
  const file = /^\/v1\/auth\/receipts\/([0-9a-f-]{36})$/.exec(url.pathname);
  if (file) {
    fileRequests.push({ id: file[1]!, token: new Headers(init?.headers).get('RAMP-ID-TOKEN') });
    if (networkDown) throw new TypeError('Failed to fetch');
    const bytes = serverFiles.get(file[1]!);
    return bytes ? new Response(bytes, { status: 200, headers: { 'Content-Type': 'image/png' } }) : jsonResponse(404, errorBody('REQUEST_7004'));
  }
  if (url.pathname === '/v1/public/sign-in') return jsonResponse(200, { id_token: fakeToken(['default', 'low-risk']), mfa_required: false });
  if (url.pathname === '/v1/auth/identity') return jsonResponse(200, { identity: IDENTITY, user: USER, business: BUSINESS });
  return jsonResponse(404, errorBody('REQUEST_7004'));
};

beforeEach(({ onTestFinished }) => {
  useReceiptStoreOptions({ indexedDB: new IDBFactory(), IDBKeyRange });
  // Registered first, so it runs after the test's workers are disposed.
  onTestFinished(() => useReceiptStoreOptions(undefined));
  serverFiles.clear();
  fileRequests.length = 0;
  networkDown = false;
});

async function signedIn(txns: Transaction[] = makeTransactions(20, 3)) {
  const idb = new IDBFactory();
  const rows = await seedMirrorDb(idb, DB_NAME, txns, 'Meals');
  const service = await startWorker({ transport, idb });
  await service.signIn(USER.email, 'demo-password-1');
  return { service, rows };
}

const png = (name = 'lunch.png', bytes = PNG) => ({ name, type: 'image/png', file: new Blob([bytes], { type: 'image/png' }) });

describe('ReceiptApi (offline, fake-indexeddb)', () => {
  it('keeps a file at once, queues its upload and its attach; the row shows it and is no longer missing a receipt', async () => {
    const { service, rows } = await signedIn();
    const txn = rows[0]!.id;
    const [added] = await service.addReceipts([png()], { transaction_id: txn });
    expect(added).toMatchObject({ ok: true, name: 'lunch.png' });
    const id = (added as { receipt_id: string }).receipt_id;

    const stored = await receiptStoreFor(DB_NAME).get(id);
    expect(stored).toMatchObject({ content_type: 'image/png', size: PNG.length, sha256: await sha256Hex(PNG), upload: { kind: 'local' }, server_id: null });
    const outbox = await service.outbox();
    expect(outbox.map((e) => [e.command, e.state])).toEqual([['receipt.upload', 'pending'], ['transaction.attachReceipt', 'pending']]);
    expect((await service.getTransaction(txn))?.receipt_ids).toEqual([id]);
    const missing = await service.queryTransactions({ filter: { missing_receipt: true }, sort: 'occurred_desc', offset: 0, limit: 100 });
    expect(missing.total).toBe(rows.length - 1);
    expect(missing.rows.map((r) => r.id)).not.toContain(txn);

    const [view] = await service.receipts([id]);
    expect(view).toMatchObject({ id, local_id: id, state: 'local', name: 'lunch.png', error: null });
    expect(await (await service.receiptFile(id))?.arrayBuffer()).toEqual(PNG.buffer);
  });

  it('refuses a file the upload call would refuse, storing and queueing nothing; the same bytes twice are one receipt', async () => {
    const { service, rows } = await signedIn();
    const results = await service.addReceipts([
      { name: 'notes.txt', type: 'text/plain', file: new Blob(['hello']) },
      { name: 'empty.png', type: 'image/png', file: new Blob([]) },
      // Content judged as the server will (schema/file-content.ts): a page behind PNG magic, text sent as a PDF.
      png('page.png', Uint8Array.from([...PNG, ...new TextEncoder().encode('<html><script>alert(1)</script>')])),
      { name: 'scan.pdf', type: 'application/pdf', file: new Blob(['not a pdf']) },
      png('a.png'),
      png('again.png'),
    ], { transaction_id: rows[1]!.id });
    expect(results.map((r) => (r.ok ? 'ok' : r.error.error_code))).toEqual(['UPLOAD_7101', 'UPLOAD_7104', 'UPLOAD_7105', 'UPLOAD_7102', 'ok', 'ok']);
    expect((results[0] as { error: { message: string } }).error.message).toContain('notes.txt');
    expect((results[2] as { error: { message: string } }).error.message).toMatch(/^page\.png: the file contains web page content/);
    expect(await service.receiptInbox()).toHaveLength(1);
    const ids = results.filter((r) => r.ok).map((r) => (r as { receipt_id: string }).receipt_id);
    expect(ids[0]).toBe(ids[1]);
    const outbox = await service.outbox();
    expect(outbox.filter((e) => e.command === 'receipt.upload')).toHaveLength(1);
    expect((await service.getTransaction(rows[1]!.id))?.receipt_ids).toEqual([ids[0]]);
  });

  it('removes a local receipt and its queued upload; unknown ids read as stored on the server', async () => {
    const { service } = await signedIn();
    const [added] = await service.addReceipts([png()]);
    const id = (added as { receipt_id: string }).receipt_id;
    expect(await service.deleteLocalReceipt(id)).toMatchObject({ ok: true });
    expect(await service.outbox()).toEqual([]);
    const [view] = await service.receipts([id]);
    expect(view).toMatchObject({ id, state: 'remote', local_id: null, thumbnail: null });
  });

  it('fetches a receipt stored only on the server with the session\'s token, keeps it, and shows it offline afterwards', async () => {
    const { service } = await signedIn();
    const serverId = testUuid(7, 1);
    serverFiles.set(serverId, PNG);
    const [before] = await service.receipts([serverId]);
    expect(before).toMatchObject({ state: 'remote', local_id: null });

    const [a, b] = await Promise.all([service.fetchReceipt(serverId), service.fetchReceipt(serverId)]);
    expect(a).toMatchObject({ id: serverId, server_id: serverId, state: 'uploaded', content_type: 'image/png', size: PNG.length, error: null });
    expect(b).toMatchObject({ state: 'uploaded' });
    expect(fileRequests).toHaveLength(1);
    expect(fileRequests[0]!.token).toBeTruthy();
    expect(await (await service.receiptFile(serverId))?.arrayBuffer()).toEqual(PNG.buffer);

    // Offline afterwards: answered from the device, nothing sent.
    networkDown = true;
    expect(await service.fetchReceipt(serverId)).toMatchObject({ state: 'uploaded' });
    expect((await service.receipts([serverId]))[0]).toMatchObject({ state: 'uploaded', sha256: await sha256Hex(PNG) });
    expect(fileRequests).toHaveLength(1);
  });

  it('a receipt it cannot fetch stays remote: "Not available offline", or the server\'s refusal', async () => {
    const { service } = await signedIn();
    networkDown = true;
    expect(await service.fetchReceipt(testUuid(7, 2))).toMatchObject({ state: 'remote', error: 'Not available offline' });
    expect(await service.receiptFile(testUuid(7, 2))).toBeNull();
    networkDown = false;
    expect(await service.fetchReceipt(testUuid(7, 3))).toMatchObject({ state: 'remote', error: 'The requested item was not found.' });
    // Nothing was kept: a later attempt asks again.
    serverFiles.set(testUuid(7, 2), PNG);
    expect(await service.fetchReceipt(testUuid(7, 2))).toMatchObject({ state: 'uploaded' });
  });

  it('a claim made offline names receipts kept without a transaction: its create waits for their uploads', async () => {
    const { service } = await signedIn();
    const [added] = await service.addReceipts([png('taxi.png')]);
    const receiptId = (added as { receipt_id: string }).receipt_id;
    const claimId = testUuid(9, 1);
    const res = await service.run('reimbursement.create', {
      id: claimId, amount: 2300, currency: 'USD', transaction_date: '2026-01-01', submit: false, receipt_ids: [receiptId],
    });
    expect(res.ok).toBe(true);
    expect((await service.get('reimbursements', claimId))?.receipt_ids).toEqual([receiptId]);
    const outbox = await service.outbox();
    expect(outbox.map((e) => e.command)).toEqual(['receipt.upload', 'reimbursement.create']);
  });
});

describe('receipt matching (offline, fake-indexeddb)', () => {
  const day = (d: number) => `2026-11-${String(d).padStart(2, '0')}T16:00:00.000Z`;
  const txns = () => [
    makeTransaction({ id: testUuid(1, 1), user_id: USER.id, merchant_name: 'SQ *BLUE BOTTLE COFFEE', amount: 625, occurred_at: day(20), change_seq: 1 }),
    makeTransaction({ id: testUuid(1, 2), user_id: USER.id, merchant_name: 'Delta Air Lines', amount: 4200, occurred_at: day(20), change_seq: 2 }),
    makeTransaction({ id: testUuid(1, 3), user_id: USER.id, merchant_name: 'Hertz', amount: 4200, occurred_at: day(21), change_seq: 3 }),
    // Someone else's charge of the same amount and day: never a candidate.
    makeTransaction({ id: testUuid(1, 4), user_id: testUuid(2, 9), merchant_name: 'Blue Bottle Coffee', amount: 625, occurred_at: day(20), change_seq: 4 }),
    makeTransaction({ id: testUuid(1, 5), user_id: USER.id, merchant_name: 'Blue Bottle Coffee', amount: 625, occurred_at: day(20), state: 'DECLINED', change_seq: 5 }),
  ];
  expect(USER.id).toBe(testUuid(2, 1));

  async function withReceipt() {
    const { service } = await signedIn(txns());
    const [added] = await service.addReceipts([png()]);
    return { service, id: (added as { receipt_id: string }).receipt_id };
  }

  it('an exact match is attached at once (the command queued, the row shows it) and recorded as automatic', async () => {
    const { service, id } = await withReceipt();
    const set = await service.setReceiptFields(id, { amount: { minor: 625, currency: 'USD' }, date: '2026-11-20', merchant: 'Blue Bottle Coffee', source: 'manual' });
    expect(set).toMatchObject({ ok: true, exact: true });
    const outbox = await service.outbox();
    expect(outbox.map((e) => e.command)).toEqual(['receipt.upload', 'transaction.attachReceipt']);
    expect(outbox[1]!.args).toEqual({ transaction_id: testUuid(1, 1), receipt_id: id });
    expect((await service.getTransaction(testUuid(1, 1)))?.receipt_ids).toEqual([id]);

    const stored = await receiptStoreFor(DB_NAME).get(id);
    expect(stored).toMatchObject({
      extracted: { amount: { minor: 625, currency: 'USD' }, date: '2026-11-20', merchant: 'Blue Bottle Coffee', source: 'manual' },
      match: { transaction_id: testUuid(1, 1), auto: true, score: 1 },
    });
    expect(stored!.suggestions!.map((c) => c.transaction_id)).toEqual([testUuid(1, 1)]);
    const [inbox] = await service.receiptInbox();
    expect(inbox).toMatchObject({ id, attached_to: { id: testUuid(1, 1), merchant_name: 'SQ *BLUE BOTTLE COFFEE' }, match: { auto: true }, suggestions: [] });

    // Undo: detached, back in the inbox with its suggestion, and the same fields never re-attach it.
    expect(await service.undoReceiptMatch(id)).toMatchObject({ ok: true });
    expect((await service.getTransaction(testUuid(1, 1)))?.receipt_ids).toEqual([]);
    const [back] = await service.receiptInbox();
    expect(back).toMatchObject({ attached_to: null, match: null, suggestions: [{ transaction_id: testUuid(1, 1), transaction: { amount: 625 } }] });
    await service.setReceiptFields(id, { amount: { minor: 625, currency: 'USD' }, date: '2026-11-20', merchant: 'Blue Bottle Coffee', source: 'manual' });
    expect((await service.getTransaction(testUuid(1, 1)))?.receipt_ids).toEqual([]);
  });

  it('ambiguous: suggestions stored and shown, nothing attached; the person picks one', async () => {
    const { service, id } = await withReceipt();
    const set = await service.setReceiptFields(id, { amount: { minor: 4200, currency: 'USD' }, date: '2026-11-21', source: 'ocr' });
    expect(set).toMatchObject({ ok: true, exact: false });
    if (!set.ok) return;
    expect(set.receipt.suggestions.map((c) => [c.transaction_id, c.days])).toEqual([[testUuid(1, 3), 0], [testUuid(1, 2), 1]]);
    expect((await service.outbox()).map((e) => e.command)).toEqual(['receipt.upload']);
    expect((await receiptStoreFor(DB_NAME).get(id))?.suggestions).toHaveLength(2);

    expect(await service.matchReceipt(id, testUuid(1, 2))).toMatchObject({ ok: true });
    expect((await service.getTransaction(testUuid(1, 2)))?.receipt_ids).toEqual([id]);
    expect((await receiptStoreFor(DB_NAME).get(id))?.match).toEqual({ transaction_id: testUuid(1, 2), score: expect.any(Number), auto: false });
  });

  it('matches again when the transactions change: a charge that becomes a candidate is attached; an undone match never is', async () => {
    const other = testUuid(6, 1);
    const { service } = await signedIn([
      ...txns(),
      makeTransaction({ id: testUuid(1, 6), user_id: USER.id, merchant_name: 'Uber', amount: 1875, occurred_at: day(18), receipt_ids: [other], change_seq: 6 }),
    ]);
    const [a, b] = await service.addReceipts([png('ride.png'), png('coffee.png', Uint8Array.from([...PNG, 9]))]);
    const ride = (a as { receipt_id: string }).receipt_id;
    const coffee = (b as { receipt_id: string }).receipt_id;
    expect(await service.setReceiptFields(ride, { amount: { minor: 1875, currency: 'USD' }, date: '2026-11-18', source: 'ocr' })).toMatchObject({ ok: true, exact: false, receipt: { suggestions: [] } });
    await service.setReceiptFields(coffee, { amount: { minor: 625, currency: 'USD' }, date: '2026-11-20', source: 'manual' });
    await service.undoReceiptMatch(coffee);
    expect(await service.rematchReceipts()).toBe(0);

    // The other receipt is taken off the Uber charge: it now lacks a receipt and matches exactly.
    expect(await service.run('transaction.detachReceipt', { transaction_id: testUuid(1, 6), receipt_id: other })).toMatchObject({ ok: true });
    expect(await service.rematchReceipts()).toBe(1);
    expect((await service.getTransaction(testUuid(1, 6)))?.receipt_ids).toEqual([ride]);
    expect((await receiptStoreFor(DB_NAME).get(ride))?.match).toMatchObject({ transaction_id: testUuid(1, 6), auto: true });
    expect((await service.getTransaction(testUuid(1, 1)))?.receipt_ids).toEqual([]);
    expect(await service.rematchReceipts()).toBe(0);
  });

  it('no match: another currency, or no amount; bad fields are refused by name', async () => {
    const { service, id } = await withReceipt();
    const eur = await service.setReceiptFields(id, { amount: { minor: 625, currency: 'EUR' }, date: '2026-11-20', source: 'manual' });
    expect(eur).toMatchObject({ ok: true, exact: false, receipt: { suggestions: [], attached_to: null } });
    const none = await service.setReceiptFields(id, { date: '2026-11-20', merchant: 'Blue Bottle', source: 'manual' });
    expect(none).toMatchObject({ ok: true, exact: false, receipt: { suggestions: [] } });
    const bad = await service.setReceiptFields(id, { date: 'Nov 20', source: 'manual' });
    expect(bad).toMatchObject({ ok: false, error: { error_code: 'REQUEST_7001', errors: { date: expect.any(String) } } });
    expect(await service.setReceiptFields(testUuid(9, 9), { source: 'manual' })).toMatchObject({ ok: false, error: { error_code: 'REQUEST_7004' } });
    expect((await service.outbox()).map((e) => e.command)).toEqual(['receipt.upload']);
  });
});
