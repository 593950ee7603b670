import { describe, expect, it } from 'vitest';
import { testDatabases } from '../test-db.ts';
import { request, useTwoBusinesses } from '../test-fixtures.ts';
import { useTestApp } from '../test-app.ts';
import { jpegOf, pngOf } from '../../schema/card-branding-fixtures.ts';

/** Issue 32: `/v1/auth/businesses/card-branding` (colour, logo upload, reset). */
describe.each(await testDatabases())('card branding on %s', (kind) => {
  const t = useTestApp(kind);
  const biz = useTwoBusinesses(t, ['owner', 'admin', 'bookkeeper', 'manager', 'employee', 'auditor']);
  const { tokens } = biz;
  const PATH = '/v1/auth/businesses/card-branding';
  const refusal = (res: { status: number; body: { error_v2?: { error_code: string } } }) => [res.status, res.body.error_v2?.error_code];
  const upload = async (token: string, type: string, bytes: Uint8Array) => {
    const res = await t.app.request(`${PATH}/logo`, { method: 'PUT', headers: { 'RAMP-ID-TOKEN': token, 'content-type': type }, body: bytes as unknown as BodyInit });
    return { status: res.status, body: await res.json() };
  };

  it('admins set the colour and upload a PNG or JPEG logo; every member reads both; others are refused', async () => {
    expect((await request(t.app, 'GET', PATH, { token: tokens.employee })).body).toEqual({ color: null, logo: null, updated_at: null });
    const colour = await request(t.app, 'PUT', PATH, { token: tokens.admin, body: { color: '#0A7B5C' } });
    expect(colour.status, colour.text).toBe(200);
    expect(colour.body.color).toBe('#0a7b5c');
    const png = pngOf(400, 120);
    const up = await upload(tokens.owner, 'image/png', png);
    expect(up.status).toBe(200);
    expect(up.body.logo).toMatchObject({ content_type: 'image/png', width: 400, height: 120 });
    const got = await t.app.request(`${PATH}/logo`, { headers: { 'RAMP-ID-TOKEN': tokens.employee } });
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toContain('image/png');
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(png);
    const jpeg = await upload(tokens.admin, 'image/jpeg', jpegOf(64, 200));
    expect(jpeg.body.logo).toMatchObject({ content_type: 'image/jpeg', width: 64, height: 200 });

    for (const role of ['bookkeeper', 'manager', 'employee', 'auditor'] as const) {
      expect(refusal(await request(t.app, 'PUT', PATH, { token: tokens[role], body: { color: '#000000' } }))).toEqual([403, 'FORBIDDEN_7003']);
      expect(refusal(await upload(tokens[role], 'image/png', png))).toEqual([403, 'FORBIDDEN_7003']);
      expect(refusal(await request(t.app, 'DELETE', PATH, { token: tokens[role] }))).toEqual([403, 'FORBIDDEN_7003']);
    }
    // Another business sees only its own (none).
    expect((await request(t.app, 'GET', PATH, { token: biz.bOwner })).body).toEqual({ color: null, logo: null, updated_at: null });
    expect(refusal(await request(t.app, 'GET', `${PATH}/logo`, { token: biz.bOwner }))).toEqual([404, 'REQUEST_7004']);
  });

  it('refuses SVG, markup, a mislabelled file, a bad colour and pixel sizes out of bounds', async () => {
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expect((await upload(tokens.admin, 'image/svg+xml', svg)).status).toBe(415);
    expect(refusal(await upload(tokens.admin, 'image/png', svg))).toEqual([422, 'UPLOAD_7105']);
    expect(refusal(await upload(tokens.admin, 'image/jpeg', pngOf(100, 100)))).toEqual([422, 'UPLOAD_7102']);
    const tiny = await upload(tokens.admin, 'image/png', pngOf(16, 16));
    expect(refusal(tiny)).toEqual([422, 'REQUEST_7001']);
    expect(tiny.body.error_v2.message).toContain('16×16');
    expect(refusal(await upload(tokens.admin, 'image/png', pngOf(4000, 100)))).toEqual([422, 'REQUEST_7001']);
    expect((await upload(tokens.admin, 'image/png', new Uint8Array(300 * 1024).fill(1))).status).toBe(413);
    expect(refusal(await request(t.app, 'PUT', PATH, { token: tokens.admin, body: { color: 'red' } }))).toEqual([422, 'REQUEST_7001']);
  });

  it('DELETE removes logo and colour (404 when there is neither); the settings reset does the same', async () => {
    await request(t.app, 'PUT', PATH, { token: tokens.admin, body: { color: '#112233' } });
    await upload(tokens.admin, 'image/png', pngOf(100, 100));
    const removed = await request(t.app, 'DELETE', PATH, { token: tokens.admin });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body).toEqual({ color: null, logo: null, updated_at: null });
    expect(refusal(await request(t.app, 'GET', `${PATH}/logo`, { token: tokens.admin }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'DELETE', PATH, { token: tokens.admin }))).toEqual([404, 'REQUEST_7004']);

    await request(t.app, 'PUT', PATH, { token: tokens.admin, body: { color: '#112233' } });
    // Clearing the colour of a branding without a logo leaves no branding at all.
    expect((await request(t.app, 'PUT', PATH, { token: tokens.admin, body: { color: null } })).body).toEqual({ color: null, logo: null, updated_at: null });
    await upload(tokens.admin, 'image/png', pngOf(100, 100));
    const reset = await request(t.app, 'DELETE', '/v1/auth/businesses/setting/card_branding', { token: tokens.owner });
    expect(reset.body).toMatchObject({ type: 'card_branding', is_default: true });
    expect((await request(t.app, 'GET', PATH, { token: tokens.admin })).body.logo).toBeNull();
  });
});
