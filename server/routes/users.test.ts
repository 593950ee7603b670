import { deflateSync, crc32 } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PREFERENCES } from '../../schema/api/calls-users.ts';
import { useTestApp } from '../test-app.ts';
import { testDatabases } from '../test-db.ts';
import { makeBusiness, refusal, request, signIn, type Fixture } from '../test-fixtures.ts';
import { imageInfo } from '../domain/image-info.ts';

/** A real PNG of w × h grey pixels (IHDR, one IDAT, IEND, each with its CRC). */
export function makePng(w: number, h: number): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4); len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4); crc.writeUInt32BE(crc32(td) >>> 0);
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0); ihdr.writeUInt32BE(h, 4); ihdr[8] = 8; ihdr[9] = 0;
  const raw = Buffer.alloc((w + 1) * h, 0x80);
  for (let y = 0; y < h; y++) raw[y * (w + 1)] = 0;
  return new Uint8Array(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]));
}

/** The header of a baseline JPEG (SOI, APP0, SOF0 with the size, EOI). */
function makeJpegHeader(w: number, h: number): Uint8Array {
  return new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0, 0, 1, 0, 1, 0, 0,
    0xff, 0xc0, 0x00, 0x0b, 0x08, h >> 8, h & 0xff, w >> 8, w & 0xff, 0x01, 0x01, 0x11, 0x00, 0xff, 0xd9]);
}

describe('imageInfo', () => {
  it('reads PNG and JPEG sizes and refuses truncated or foreign bytes', () => {
    expect(imageInfo(makePng(40, 30))).toEqual({ type: 'image/png', width: 40, height: 30 });
    expect(imageInfo(makeJpegHeader(64, 48))).toEqual({ type: 'image/jpeg', width: 64, height: 48 });
    expect(imageInfo(makePng(40, 30).subarray(0, 60))).toBeNull();
    expect(imageInfo(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
  });
});

const S = '/v1/auth/users/current/settings';
const P = '/v1/auth/users/current/preferences';
const PIC = '/v1/auth/users/current/profile-picture';

describe.each(await testDatabases())('the person’s own settings on %s', (kind) => {
  const t = useTestApp(kind);
  let a: Fixture;
  let b: Fixture;
  let employee: string;
  let manager: string;
  let bAdmin: string;
  const upload = (token: string, bytes: Uint8Array, type: string) =>
    t.app.request(PIC, { method: 'PUT', headers: { 'RAMP-ID-TOKEN': token, 'content-type': type }, body: new Uint8Array(bytes) });

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 0 });
    b = await makeBusiness(t.db, { transactions: 0 });
    employee = await signIn(t.app, a.email('employee'));
    manager = await signIn(t.app, a.email('manager'));
    bAdmin = await signIn(t.app, b.email('admin'));
  });

  it('reads and patches settings: only the fields named, null clears, unknown fields and bad zones refused', async () => {
    const first = await request(t.app, 'GET', S, { token: employee });
    expect(first.body).toMatchObject({ user_id: a.users.employee, preferred_name: null, timezone: null, locale: null, picture: null });
    const patched = await request(t.app, 'PATCH', S, { token: employee, body: { preferred_name: '  Em  ', timezone: 'Europe/Paris' } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ preferred_name: 'Em', timezone: 'Europe/Paris', locale: null });
    const more = await request(t.app, 'PATCH', S, { token: employee, body: { locale: 'fr-FR', preferred_name: null } });
    expect(more.body).toMatchObject({ preferred_name: null, timezone: 'Europe/Paris', locale: 'fr-FR' });
    expect(refusal(await request(t.app, 'PATCH', S, { token: employee, body: { timezone: 'Mars/Olympus' } }))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await request(t.app, 'PATCH', S, { token: employee, body: { first_name: 'X' } }))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await request(t.app, 'PATCH', S, { token: employee, body: { locale: 'xx-YY' } }))).toEqual([422, 'REQUEST_7001']);
    // Another person's settings are their own.
    expect((await request(t.app, 'GET', S, { token: manager })).body).toMatchObject({ user_id: a.users.manager, timezone: null });
  });

  it('answers the defaults, then replaces preferences whole; a partial object is refused', async () => {
    expect((await request(t.app, 'GET', P, { token: manager })).body).toEqual(DEFAULT_PREFERENCES);
    const next = { ...DEFAULT_PREFERENCES, landing_page: '/approvals', week_start: 'sunday', date_format: 'YYYY-MM-DD' };
    const put = await request(t.app, 'PUT', P, { token: manager, body: next });
    expect([put.status, put.body]).toEqual([200, next]);
    expect((await request(t.app, 'GET', P, { token: manager })).body).toEqual(next);
    expect(refusal(await request(t.app, 'PUT', P, { token: manager, body: { landing_page: '/cards' } }))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await request(t.app, 'PUT', P, { token: manager, body: { ...next, version: 2 } }))).toEqual([422, 'REQUEST_7001']);
    // A stored object of an older shape reads through today's defaults.
    await t.db.query(`UPDATE user_profiles SET preferences = '{"landing_page":"/cards","theme":"dark"}' WHERE user_id = $1`, [a.users.manager]);
    expect((await request(t.app, 'GET', P, { token: manager })).body).toEqual({ ...DEFAULT_PREFERENCES, landing_page: '/cards' });
  });

  it('stores a real picture, serves it by hash within the business only, and removes it', async () => {
    const png = makePng(64, 64);
    const res = await upload(employee, png, 'image/png');
    expect(res.status, await res.clone().text()).toBe(200);
    const settings = await res.json() as { picture: { url: string; sha256: string; width: number; content_type: string } };
    expect(settings.picture).toMatchObject({ width: 64, content_type: 'image/png' });
    expect(settings.picture.url).toBe(`/v1/auth/users/${a.users.employee}/profile-picture?v=${settings.picture.sha256}`);
    const got = await t.app.request(settings.picture.url, { headers: { 'RAMP-ID-TOKEN': manager } });
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(got.headers.get('cache-control')).toContain('immutable');
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(png);
    const again = await t.app.request(settings.picture.url, { headers: { 'RAMP-ID-TOKEN': manager, 'If-None-Match': got.headers.get('etag')! } });
    expect(again.status).toBe(304);
    // Another business cannot read it: 404, as for a person with no picture.
    expect(refusal(await request(t.app, 'GET', settings.picture.url, { token: bAdmin }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'GET', `/v1/auth/users/${a.users.manager}/profile-picture`, { token: employee }))).toEqual([404, 'REQUEST_7004']);

    const del = await request(t.app, 'DELETE', PIC, { token: employee });
    expect([del.status, del.body.picture]).toEqual([200, null]);
    expect((await t.app.request(settings.picture.url, { headers: { 'RAMP-ID-TOKEN': manager } })).status).toBe(404);
  });

  it('refuses what is not a real image of its type, of the wrong size, too big, or of another type', async () => {
    const statusOf = async (bytes: Uint8Array, type: string) => {
      const r = await upload(employee, bytes, type);
      return [r.status, ((await r.json()) as { error_v2: { error_code: string } }).error_v2.error_code];
    };
    expect(await statusOf(makePng(64, 64).subarray(0, 80), 'image/png')).toEqual([422, 'UPLOAD_7102']);
    expect(await statusOf(makePng(8, 8), 'image/png')).toEqual([422, 'UPLOAD_7102']);
    expect(await statusOf(makePng(2100, 16), 'image/png')).toEqual([422, 'UPLOAD_7102']);
    expect(await statusOf(makePng(64, 64), 'image/jpeg')).toEqual([422, 'UPLOAD_7102']);
    expect((await statusOf(new TextEncoder().encode('<html><script>alert(1)</script></html>'), 'image/png'))[0]).toBe(422);
    expect(await statusOf(makePng(64, 64), 'image/gif')).toEqual([415, 'UPLOAD_7101']);
    expect((await statusOf(new Uint8Array(2 * 1024 * 1024 + 1), 'image/png'))[0]).toBe(413);
    expect((await request(t.app, 'GET', S, { token: employee })).body.picture).toBeNull();
    // A JPEG header with its frame size is accepted as a JPEG.
    const jpeg = await upload(employee, makeJpegHeader(100, 80), 'image/jpeg');
    expect(((await jpeg.json()) as { picture: unknown }).picture).toMatchObject({ content_type: 'image/jpeg', width: 100, height: 80 });
  });
});
