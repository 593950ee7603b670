import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { RECEIPT_MAX_BYTES } from '../schema/api/calls-receipts.ts';
import { ReceiptStore, type StoredReceipt } from './receipt-store.ts';
import { checkReceiptFile, makeThumbnail, sha256Hex, thumbnailSize } from './receipt-store-files.ts';
import { testUuid } from './test-fixtures.ts';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 7, 7]);
let stores: ReceiptStore[] = [];
afterEach(async () => {
  for (const s of stores) await s.delete();
  stores = [];
});

function open() {
  const s = new ReceiptStore(`test-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
  stores.push(s);
  return s;
}

const receipt = async (n: number, bytes: Uint8Array<ArrayBuffer> = PNG, over: Partial<StoredReceipt> = {}): Promise<StoredReceipt> => ({
  id: testUuid(7, n), name: `r${n}.png`, content_type: 'image/png', size: bytes.length, sha256: await sha256Hex(bytes),
  created_at: '2026-03-01T00:00:00.000Z', upload: { kind: 'local' }, server_id: null,
  file: new Blob([bytes], { type: 'image/png' }), thumbnail: null, ...over,
});

describe('receipt file checks (the upload call’s limits, before anything is stored)', () => {
  it.each([
    ['photo.jpg', 'image/jpeg', 1000, null],
    ['scan.pdf', 'application/pdf; name=x', 1000, null],
    ['IMG_1.HEIC', 'image/heic', 1000, null],
    ['doc.txt', 'text/plain', 10, 'UPLOAD_7101'],
    ['anim.gif', 'image/gif', 10, 'UPLOAD_7101'],
    ['empty.png', 'image/png', 0, 'UPLOAD_7104'],
    ['huge.png', 'image/png', RECEIPT_MAX_BYTES + 1, 'UPLOAD_7103'],
    ['limit.png', 'image/png', RECEIPT_MAX_BYTES, null],
  ])('%s (%s, %i bytes) → %s', (name, type, size, code) => {
    const r = checkReceiptFile(name, type, size);
    if (code === null) expect(r.ok).toBe(true);
    else expect(r).toMatchObject({ ok: false, error: { error_code: code, message: expect.stringContaining(name) } });
  });

  it.each([
    ['real.png', 'image/png', PNG, null],
    ['page.png', 'image/png', Uint8Array.from([...PNG, ...new TextEncoder().encode('<svg onload=alert(1)>')]), 'UPLOAD_7105'],
    ['photo.jpg', 'image/jpeg', PNG, 'UPLOAD_7102'],
  ] as const)('judges the bytes of %s (%s) as the server does → %s', (name, type, bytes, code) => {
    const r = checkReceiptFile(name, type, bytes.length, bytes);
    if (code === null) expect(r).toEqual({ ok: true, contentType: type });
    else expect(r).toMatchObject({ ok: false, error: { error_code: code, message: expect.stringMatching(new RegExp(`^${name.replace('.', '\\.')}: `)) } });
  });

  it('hashes like the server (lower-case hex sha256)', async () => {
    expect(await sha256Hex(PNG)).toBe(createHash('sha256').update(PNG).digest('hex'));
  });

  it.each([
    [4000, 3000, 320, 240],
    [1000, 2000, 160, 320],
    [100, 50, 100, 50],
  ])('thumbnail of %i×%i is %i×%i (never enlarged)', (w, h, tw, th) => {
    expect(thumbnailSize(w, h)).toEqual({ width: tw, height: th });
  });

  it('gives PDFs no thumbnail (the UI shows a document icon)', async () => {
    expect(await makeThumbnail(new Blob(['%PDF-1.7']), 'application/pdf')).toBeNull();
  });
});

describe('ReceiptStore (fake-indexeddb)', () => {
  it('keeps a receipt with its blob and finds it by client id or, once uploaded, by server id', async () => {
    const s = open();
    const changed: string[][] = [];
    s.onChange((ids) => changed.push(ids));
    const r = await receipt(1);
    expect((await s.add(r)).added).toBe(true);
    const read = await s.read(r.id);
    expect(read?.contentType).toBe('image/png');
    expect(new Uint8Array(await read!.body.arrayBuffer())).toEqual(PNG);

    const server = testUuid(8, 1);
    await s.setUploadState(r.id, { kind: 'uploading' });
    await s.setUploadState(r.id, { kind: 'uploaded', server_id: server });
    expect(await s.serverIds([r.id, testUuid(7, 99)])).toEqual(new Map([[r.id, server]]));
    const [byClient, byServer, unknown] = await s.find([r.id, server, testUuid(9, 9)]);
    expect(byClient?.id).toBe(r.id);
    expect(byServer).toMatchObject({ id: r.id, server_id: server, upload: { kind: 'uploaded', server_id: server } });
    expect(unknown).toBeNull();
    expect(changed).toEqual([[r.id], [r.id], [r.id]]);
  });

  it('answers the receipt already kept for the same bytes (one upload per content)', async () => {
    const s = open();
    const first = await receipt(1);
    await s.add(first);
    const again = await s.add(await receipt(2));
    expect(again).toMatchObject({ added: false, receipt: { id: first.id } });
    const other = await s.add(await receipt(3, Uint8Array.from([...PNG, 1])));
    expect(other.added).toBe(true);
  });

  it('keeps a refused upload’s file and its error; removing deletes it', async () => {
    const s = open();
    const r = await receipt(1);
    await s.add(r);
    const error = { error_code: 'UPLOAD_7101', message: 'This file type is not supported.' };
    await s.setUploadState(r.id, { kind: 'failed', error });
    expect(await s.get(r.id)).toMatchObject({ upload: { kind: 'failed', error } });
    expect(await s.read(r.id)).not.toBeNull();
    await s.remove(r.id);
    expect(await s.read(r.id)).toBeNull();
  });

  it('lists newest first and keeps matching fields; an undone match is null, unset is absent', async () => {
    const s = open();
    await s.add(await receipt(1, PNG, { created_at: '2026-03-01T00:00:00.000Z' }));
    await s.add(await receipt(2, Uint8Array.from([...PNG, 2]), { created_at: '2026-03-02T00:00:00.000Z' }));
    expect((await s.list()).map((r) => r.name)).toEqual(['r2.png', 'r1.png']);
    const seen: string[][] = [];
    s.onChange((ids) => seen.push(ids));
    const extracted = { amount: { minor: 625, currency: 'USD' }, date: '2026-03-01', source: 'ocr' as const };
    expect(await s.update(testUuid(7, 1), { extracted, match: { transaction_id: testUuid(1, 1), score: 1, auto: true } })).toBe(true);
    expect(await s.get(testUuid(7, 1))).toMatchObject({ extracted, match: { auto: true } });
    await s.update(testUuid(7, 1), { match: null });
    expect((await s.get(testUuid(7, 1)))!.match).toBeNull();
    await s.update(testUuid(7, 1), { match: undefined });
    expect('match' in (await s.get(testUuid(7, 1)))!).toBe(false);
    expect(await s.update(testUuid(7, 9), { match: null })).toBe(false);
    expect(seen).toEqual([[testUuid(7, 1)], [testUuid(7, 1)], [testUuid(7, 1)]]);
  });
});
