import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { RECEIPT_MAX_BYTES, receiptSchema, type Receipt } from '../../schema/api/calls-receipts.ts';
import { expectFileHeaders } from '../http/file-headers-test-kit.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn, type Fixture, type FixtureRole } from '../test-fixtures.ts';

const BASE = '/v1/auth/receipts';
const ascii = (s: string) => [...s].map((ch) => ch.charCodeAt(0));
const u32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
/** A file of each type: its signature followed by random bytes (so every call makes new bytes). */
const FILES = {
  'image/jpeg': () => [0xff, 0xd8, 0xff, 0xe0],
  'image/png': () => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  'application/pdf': () => ascii('%PDF-1.7\n'),
  'image/webp': () => [...ascii('RIFF'), 0, 0, 0, 0, ...ascii('WEBPVP8 ')],
  // An iPhone photo: major brand mif1, heic among the compatible brands.
  'image/heic': () => [...u32(24), ...ascii('ftypmif1'), 0, 0, 0, 0, ...ascii('mif1heic')],
} as const;
type FileType = keyof typeof FILES;
const file = (type: FileType, size = 256) => {
  const head = FILES[type]();
  return Uint8Array.from([...head, ...randomBytes(size - head.length)]);
};

const enc = (s: string) => [...new TextEncoder().encode(s)];
/** Files that begin like a receipt (or not at all) but carry a page a browser would run. */
const POLYGLOTS = [
  ['PNG magic + <html><script>', 'image/png', () => [...FILES['image/png'](), ...enc('<html><script>alert(document.domain)</script></html>')]],
  ['PDF header + HTML', 'application/pdf', () => [...ascii('%PDF-1.7\n'), ...enc('<!DOCTYPE html><body onload=alert(1)>')]],
  ['JPEG magic + <svg onload>', 'image/jpeg', () => [...FILES['image/jpeg'](), ...enc('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')]],
  ['an SVG sent as image/png', 'image/png', () => enc('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
  ['XML sent as application/pdf', 'application/pdf', () => enc('<?xml version="1.0"?><x:script xmlns:x="http://www.w3.org/1999/xhtml">alert(1)</x:script>')],
  ['WebP header + UTF-16 HTML', 'image/webp', () => [...FILES['image/webp'](), ...[...'<iframe src=x>'].flatMap((ch) => [ch.charCodeAt(0), 0])]],
  ['HEIC header + javascript: link', 'image/heic', () => [...FILES['image/heic'](), ...enc('<a href="JavaScript:alert(1)">x</a>')]],
  ['PNG with a <script> 1 MB in', 'image/png', () => [...FILES['image/png'](), ...randomBytes(1_000_000).map((b) => (b === 0x3c ? 0 : b)), ...enc('<script src=//evil.test/x.js></script>')]],
] as const;

describe.each(await testDatabases())('receipts on %s', (kind) => {
  const t = useTestApp(kind);
  let a: Fixture;
  let b: Fixture;
  const tokens = {} as Record<FixtureRole | 'other', string>;

  const upload = async (bytes: Uint8Array<ArrayBuffer>, contentType: string | null, role: FixtureRole | 'other' = 'employee', headers: Record<string, string> = {}) => {
    const h: Record<string, string> = { 'RAMP-ID-TOKEN': tokens[role], ...headers };
    if (contentType) h['content-type'] = contentType;
    const res = await t.app.request(BASE, { method: 'POST', headers: h, body: bytes });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, body: JSON.parse(text) as Receipt & { error_v2?: { error_code: string; message: string } } };
  };
  const uploaded = async (type: FileType = 'image/jpeg', role: FixtureRole = 'employee') => {
    const res = await upload(file(type), type, role);
    expect(res.status, res.text).toBe(201);
    return receiptSchema.parse(res.body);
  };
  const count = async () => Number((await t.db.query<{ n: number }>('SELECT count(*) AS n FROM receipts WHERE business_id = $1', [a.businessId]))[0]!.n);

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 30 });
    b = await makeBusiness(t.db, { transactions: 0 });
    for (const role of ['employee', 'manager', 'teammate', 'outsider', 'admin', 'auditor', 'bookkeeper'] as const) tokens[role] = await signIn(t.app, a.email(role));
    tokens.other = await signIn(t.app, b.email('owner'));
  });

  it('stores an upload (201) and serves the bytes back as a sandboxed attachment, nosniff, immutable', async () => {
    const bytes = file('image/jpeg', 5000);
    const res = await upload(bytes, 'image/jpeg; charset=binary');
    expect(res.status, res.text).toBe(201);
    const r = receiptSchema.parse(res.body);
    expect(Object.keys(res.body).sort()).toEqual(['content_type', 'created_at', 'id', 'sha256', 'size']);
    expect(r).toMatchObject({ content_type: 'image/jpeg', size: 5000 });
    expect(r.sha256).toBe((await import('node:crypto')).createHash('sha256').update(bytes).digest('hex'));

    const got = await t.app.request(`${BASE}/${r.id}`, { headers: { 'RAMP-ID-TOKEN': tokens.employee } });
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('image/jpeg');
    expectFileHeaders(got.headers, `receipt-${r.id}.jpg`);
    expect(got.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(bytes);
    const again = await t.app.request(`${BASE}/${r.id}`, { headers: { 'RAMP-ID-TOKEN': tokens.employee, 'If-None-Match': got.headers.get('etag')! } });
    expect(again.status).toBe(304);

    const meta = await request(t.app, 'GET', `${BASE}/${r.id}/metadata`, { token: tokens.employee });
    expect(meta.status).toBe(200);
    expect(meta.body).toEqual(r);
  });

  it.each(Object.keys(FILES) as FileType[])('takes %s whose bytes carry its signature', async (type) => {
    expect((await uploaded(type)).content_type).toBe(type);
  });

  it.each([
    ['text/plain', () => Uint8Array.from(ascii('hello, receipt')), 'text/plain', 415, 'UPLOAD_7101'],
    ['JSON', () => Uint8Array.from(ascii('{"a":1}')), 'application/json', 415, 'UPLOAD_7101'],
    ['no content type', () => file('image/jpeg'), null, 415, 'UPLOAD_7101'],
    ['a PNG sent as image/jpeg', () => file('image/png'), 'image/jpeg', 422, 'UPLOAD_7102'],
    ['text sent as application/pdf', () => Uint8Array.from(ascii('not a pdf at all')), 'application/pdf', 422, 'UPLOAD_7102'],
    ['a RIFF that is not WEBP sent as image/webp', () => Uint8Array.from([...ascii('RIFF'), 0, 0, 0, 0, ...ascii('WAVEfmt ')]), 'image/webp', 422, 'UPLOAD_7102'],
    ['an mp4 ftyp sent as image/heic', () => Uint8Array.from([...u32(16), ...ascii('ftypisom'), 0, 0, 0, 0, ...ascii('mp41')]), 'image/heic', 422, 'UPLOAD_7102'],
    ['an empty body', () => new Uint8Array(0), 'image/jpeg', 422, 'UPLOAD_7104'],
  ] as const)('refuses %s and stores nothing', async (_label, make, type, status, code) => {
    const before = await count();
    const res = await upload(make(), type);
    expect(res.status, res.text).toBe(status);
    expect(res.body.error_v2?.error_code).toBe(code);
    expect(res.body.error_v2?.message).toMatch(/\.$/);
    expect(await count()).toBe(before);
  });

  it.each(POLYGLOTS)('refuses %s (UPLOAD_7105) and stores nothing', async (_label, type, make) => {
    const before = await count();
    const res = await upload(Uint8Array.from(make()), type);
    expect(res.status, res.text).toBe(422);
    expect(res.body.error_v2?.error_code).toBe('UPLOAD_7105');
    expect(res.body.error_v2?.message).toMatch(/web page content/);
    expect(await count()).toBe(before);
  });

  it.each([
    ['r01-coffee-usd.png', 'image/png'], ['sample.jpg', 'image/jpeg'], ['sample.webp', 'image/webp'],
    ['sample.pdf', 'application/pdf'], ['sample.heic', 'image/heic'],
  ] as const)('takes the real file %s', async (name, type) => {
    const bytes = Uint8Array.from(readFileSync(new URL(`../../tests/fixtures/receipts/${name}`, import.meta.url)));
    const res = await upload(bytes, type);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ content_type: type, size: bytes.length });
  });

  it('takes exactly 10 MB and refuses 10 MB + 1 byte with 413, declared or streamed', async () => {
    const before = await count();
    const big = file('application/pdf', RECEIPT_MAX_BYTES + 1);
    const declared = await upload(big, 'application/pdf', 'employee', { 'content-length': String(big.length) });
    expect(declared.status).toBe(413);
    expect(declared.body.error_v2).toEqual({ error_code: 'UPLOAD_7103', message: 'The file is too large: at most 10 MB.' });
    // No Content-Length: the read is cut off once it passes the cap.
    const stream = new ReadableStream<Uint8Array>({ start(c) { c.enqueue(big.subarray(0, 6_000_000)); c.enqueue(big.subarray(6_000_000)); c.close(); } });
    const streamed = await t.app.request(BASE, {
      method: 'POST', headers: { 'RAMP-ID-TOKEN': tokens.employee, 'content-type': 'application/pdf' }, body: stream, duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(await count()).toBe(before);
    const exact = await upload(big.subarray(0, RECEIPT_MAX_BYTES), 'application/pdf');
    expect(exact.status, exact.text).toBe(201);
    expect(exact.body.size).toBe(RECEIPT_MAX_BYTES);
  });

  it('refuses a declared oversize body from Content-Length without reading it', async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        pulled++;
        if (pulled > 20) c.close();
        else c.enqueue(new Uint8Array(1024 * 1024));
      },
    });
    const res = await t.app.request(BASE, {
      method: 'POST', body, duplex: 'half',
      headers: { 'RAMP-ID-TOKEN': tokens.employee, 'content-type': 'image/jpeg', 'content-length': String(20 * 1024 * 1024) },
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error_v2: { error_code: string } }).error_v2.error_code).toBe('UPLOAD_7103');
    // The stream's own read-ahead may take a chunk; the server took none of the 20 MB.
    expect(pulled).toBeLessThanOrEqual(1);
  });

  it('answers the same receipt for the same bytes from the same uploader', async () => {
    const bytes = file('image/png');
    const first = await upload(bytes, 'image/png');
    const second = await upload(bytes, 'image/png');
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    const rows = await t.db.query('SELECT id FROM receipts WHERE business_id = $1 AND sha256 = $2', [a.businessId, first.body.sha256]);
    expect(rows).toHaveLength(1);
    // Another business uploading the same bytes gets its own receipt.
    const others = await upload(bytes, 'image/png', 'other');
    expect(others.status).toBe(201);
    expect(others.body.id).not.toBe(first.body.id);
  });

  it('two people uploading the same bytes get separate receipts; the second learns nothing of the first', async () => {
    const bytes = file('image/jpeg', 3000);
    const first = await upload(bytes, 'image/jpeg', 'employee');
    await new Promise((r) => setTimeout(r, 5));
    const fresh = await upload(file('image/jpeg', 3000), 'image/jpeg', 'teammate');
    const second = await upload(bytes, 'image/jpeg', 'teammate');
    // The same answer as a first upload (fresh bytes): status, fields, headers, a new id and its own time.
    expect(second.status).toBe(201);
    expect(fresh.status).toBe(201);
    expect(Object.keys(second.body).sort()).toEqual(Object.keys(fresh.body).sort());
    expect([...second.headers.keys()].sort()).toEqual([...fresh.headers.keys()].sort());
    expect(second.body.id).not.toBe(first.body.id);
    expect(Date.parse(second.body.created_at)).toBeGreaterThan(Date.parse(first.body.created_at));
    expect(second.body).toMatchObject({ sha256: first.body.sha256, size: 3000, content_type: 'image/jpeg' });
    // Neither reads the other's, nor may delete it.
    for (const [role, id] of [['teammate', first.body.id], ['employee', second.body.id]] as const) {
      expect((await request(t.app, 'GET', `${BASE}/${id}/metadata`, { token: tokens[role] })).status).toBe(404);
      expect((await request(t.app, 'GET', `${BASE}/${id}`, { token: tokens[role] })).status).toBe(404);
      expect((await request(t.app, 'DELETE', `${BASE}/${id}`, { token: tokens[role] })).status).toBe(404);
    }
    const uploaders = await t.db.query<{ receipt_id: string }>(
      'SELECT receipt_id::text FROM receipt_uploads WHERE receipt_id = ANY($1::uuid[])', [[first.body.id, second.body.id]],
    );
    expect(uploaders).toHaveLength(2);
    expect(new Set(uploaders.map((u) => u.receipt_id)).size).toBe(2);
    // Each deletes their own; the other's stays.
    expect((await request(t.app, 'DELETE', `${BASE}/${second.body.id}`, { token: tokens.teammate })).status).toBe(200);
    expect((await request(t.app, 'GET', `${BASE}/${first.body.id}`, { token: tokens.employee })).status).toBe(200);
  });

  it('a receipt two people shared before migration 032 stays readable by both; a new upload is the uploader’s own', async () => {
    const bytes = file('image/png');
    const shared = (await upload(bytes, 'image/png', 'employee')).body;
    // As the per-business dedupe left it: the teammate recorded as a second uploader of the row.
    await t.db.query('INSERT INTO receipt_uploads (receipt_id, business_id, user_id) VALUES ($1, $2, $3)', [shared.id, a.businessId, a.users.teammate]);
    expect((await request(t.app, 'GET', `${BASE}/${shared.id}`, { token: tokens.teammate })).status).toBe(200);
    expect((await request(t.app, 'GET', `${BASE}/${shared.id}`, { token: tokens.employee })).status).toBe(200);
    const again = await upload(bytes, 'image/png', 'teammate');
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(shared.id);
    expect((await upload(bytes, 'image/png', 'employee')).body.id).toBe(shared.id);
  });

  it('concurrent uploads of the same bytes make one row per uploader', async () => {
    const bytes = file('image/webp', 100_000);
    const roles = Array.from({ length: 6 }, (_, i) => (i % 2 ? 'employee' : 'teammate') as FixtureRole);
    const results = await Promise.all(roles.map((role) => upload(bytes, 'image/webp', role)));
    for (const r of results) expect(r.status, r.text).toBe(201);
    for (const role of ['employee', 'teammate']) {
      expect(new Set(results.filter((_, i) => roles[i] === role).map((r) => r.body.id)).size).toBe(1);
    }
    expect(new Set(results.map((r) => r.body.id)).size).toBe(2);
    const rows = await t.db.query<{ id: string }>('SELECT id::text FROM receipts WHERE business_id = $1 AND sha256 = $2', [a.businessId, results[0]!.body.sha256]);
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(await t.db.query('SELECT user_id FROM receipt_uploads WHERE receipt_id = $1', [row.id])).toHaveLength(1);
  });

  it('shows a receipt to its uploader, their managers and business-wide roles; 404 to anyone else', async () => {
    const r = await uploaded('image/jpeg', 'employee');
    const expected: Record<FixtureRole | 'other', number> = {
      employee: 200, manager: 200, admin: 200, auditor: 200, bookkeeper: 200, teammate: 404, outsider: 404, other: 404,
      owner: 200,
    };
    for (const role of Object.keys(tokens) as (FixtureRole | 'other')[]) {
      for (const path of [`${BASE}/${r.id}`, `${BASE}/${r.id}/metadata`]) {
        const res = await request(t.app, 'GET', path, { token: tokens[role] });
        expect(res.status, `${role} ${path}`).toBe(expected[role]);
        if (res.status === 404) expect(res.body).toMatchObject({ error_v2: { error_code: 'REQUEST_7004' } });
      }
    }
  });

  it('attaches (idempotently) and detaches receipts on visible transactions only', async () => {
    const r = await uploaded();
    const txn = a.transactions.employee[0]!;
    const path = `/v1/auth/transactions/${txn}/receipts`;
    const first = await request(t.app, 'POST', path, { token: tokens.employee, body: { receipt_id: r.id } });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({ transaction_id: txn, receipt_ids: [r.id], change_seq: expect.any(Number) });
    const again = await request(t.app, 'POST', path, { token: tokens.employee, body: { receipt_id: r.id } });
    // A repeat changes nothing, so the transaction keeps its seq.
    expect(again.body).toEqual(first.body);
    expect(await t.db.query('SELECT 1 FROM transaction_receipts WHERE transaction_id = $1', [txn])).toHaveLength(1);
    // The manager sees both; the outsider neither, and another business nothing.
    const second = await uploaded('image/png', 'manager');
    expect((await request(t.app, 'POST', path, { token: tokens.manager, body: { receipt_id: second.id } })).body.receipt_ids).toEqual([r.id, second.id]);
    expect((await request(t.app, 'POST', path, { token: tokens.outsider, body: { receipt_id: r.id } })).status).toBe(404);
    const outsiders = await uploaded('image/png', 'outsider');
    expect((await request(t.app, 'POST', path, { token: tokens.outsider, body: { receipt_id: outsiders.id } })).status).toBe(404);
    const own = `/v1/auth/transactions/${a.transactions.outsider[0]}/receipts`;
    expect((await request(t.app, 'POST', own, { token: tokens.outsider, body: { receipt_id: r.id } })).status).toBe(404);
    expect((await request(t.app, 'POST', path, { token: tokens.other, body: { receipt_id: r.id } })).status).toBe(404);

    const detached = await request(t.app, 'DELETE', `${path}/${second.id}`, { token: tokens.manager });
    expect(detached.status).toBe(200);
    expect(detached.body).toEqual({ transaction_id: txn, receipt_ids: [r.id], change_seq: expect.any(Number) });
    expect((await request(t.app, 'DELETE', `${path}/${second.id}`, { token: tokens.manager })).body).toEqual(detached.body);
    expect((await request(t.app, 'DELETE', `${path}/${r.id}`, { token: tokens.other })).status).toBe(404);
  });

  it('attach, detach and delete stamp the transaction: the feed carries its receipt_ids', async () => {
    const txn = a.transactions.employee[5]!;
    const doc = async () => (await request(t.app, 'GET', `/v1/auth/transactions/${txn}`, { token: tokens.employee })).body as { receipt_ids: string[]; change_seq: number };
    const fedSince = async (after: number) => {
      const res = await request(t.app, 'GET', `/v1/auth/sync/changes?after=${after}&limit=1000`, { token: tokens.employee });
      expect(res.status, res.text).toBe(200);
      const body = res.body as { changes: { collection: string; id: string; doc: { receipt_ids: string[]; change_seq: number } | null }[] };
      return body.changes.filter((c) => c.collection === 'transactions' && c.id === txn).map((c) => c.doc!.receipt_ids);
    };
    const before = await doc();
    expect(before.receipt_ids).toEqual([]);
    const r = await uploaded('image/png');
    const path = `/v1/auth/transactions/${txn}/receipts`;
    const attached = await request(t.app, 'POST', path, { token: tokens.employee, body: { receipt_id: r.id } });
    expect(attached.body.change_seq).toBeGreaterThan(before.change_seq);
    expect(await doc()).toMatchObject({ receipt_ids: [r.id], change_seq: attached.body.change_seq });
    expect(await fedSince(before.change_seq)).toEqual([[r.id]]);

    const detached = await request(t.app, 'DELETE', `${path}/${r.id}`, { token: tokens.employee });
    expect(detached.body.change_seq).toBeGreaterThan(attached.body.change_seq);
    expect(await fedSince(attached.body.change_seq)).toEqual([[]]);

    await request(t.app, 'POST', path, { token: tokens.employee, body: { receipt_id: r.id } });
    const seq = (await doc()).change_seq;
    expect((await request(t.app, 'DELETE', `${BASE}/${r.id}`, { token: tokens.employee })).status).toBe(200);
    expect(await fedSince(seq)).toEqual([[]]);
  });

  it('deletes a receipt (uploader or admin only), detaching it everywhere; the same bytes can come back', async () => {
    const bytes = file('application/pdf');
    const r = (await upload(bytes, 'application/pdf')).body;
    for (const txn of a.transactions.employee.slice(1, 3)) {
      expect((await request(t.app, 'POST', `/v1/auth/transactions/${txn}/receipts`, { token: tokens.employee, body: { receipt_id: r.id } })).status).toBe(200);
    }
    const byManager = await request(t.app, 'DELETE', `${BASE}/${r.id}`, { token: tokens.manager });
    expect(byManager.status).toBe(403);
    expect(byManager.body).toMatchObject({ error_v2: { error_code: 'FORBIDDEN_7003' } });
    expect((await request(t.app, 'DELETE', `${BASE}/${r.id}`, { token: tokens.outsider })).status).toBe(404);
    expect((await request(t.app, 'DELETE', `${BASE}/${r.id}`, { token: tokens.other })).status).toBe(404);
    const del = await request(t.app, 'DELETE', `${BASE}/${r.id}`, { token: tokens.employee });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ id: r.id, deleted: true });
    expect((await request(t.app, 'GET', `${BASE}/${r.id}`, { token: tokens.employee })).status).toBe(404);
    expect(await t.db.query('SELECT 1 FROM transaction_receipts WHERE receipt_id = $1', [r.id])).toHaveLength(0);
    expect((await t.db.query<{ bytes: unknown }>('SELECT bytes FROM receipts WHERE id = $1', [r.id]))[0]!.bytes).toBeNull();
    expect((await request(t.app, 'DELETE', `${BASE}/${r.id}`, { token: tokens.employee })).status).toBe(404);

    // Someone else's upload of the bytes is theirs, not the deleted row; the uploader's revives it.
    const elses = await upload(bytes, 'application/pdf', 'teammate');
    expect(elses.status).toBe(201);
    expect(elses.body.id).not.toBe(r.id);
    expect((await request(t.app, 'GET', `${BASE}/${r.id}`, { token: tokens.teammate })).status).toBe(404);
    const back = await upload(bytes, 'application/pdf', 'employee');
    expect(back.status).toBe(201);
    expect(back.body.id).toBe(r.id);
    expect((await request(t.app, 'GET', `${BASE}/${r.id}`, { token: tokens.employee })).status).toBe(200);
    expect((await request(t.app, 'GET', `${BASE}/${r.id}`, { token: tokens.teammate })).status).toBe(404);
    // An admin deletes anyone's receipt.
    expect((await request(t.app, 'DELETE', `${BASE}/${r.id}`, { token: tokens.admin })).status).toBe(200);
  });

  it('replays an upload under the same Idempotency-Key and refuses the key with other bytes', async () => {
    const bytes = file('image/heic');
    const key = { 'Idempotency-Key': `receipt-${Math.random()}` };
    const first = await upload(bytes, 'image/heic', 'employee', key);
    expect(first.status).toBe(201);
    const replay = await upload(bytes, 'image/heic', 'employee', key);
    expect(replay.status).toBe(201);
    expect(replay.text).toBe(first.text);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const other = await upload(file('image/heic'), 'image/heic', 'employee', key);
    expect(other.status).toBe(422);
    expect(other.body.error_v2?.error_code).toBe('IDEMPOTENCY_7009');
  });
});
