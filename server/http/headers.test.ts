import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import { testDatabases } from '../test-db.ts';
import { TEST_TOKEN_SECRET, useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn, sseReader } from '../test-fixtures.ts';

const dist = mkdtempSync(join(tmpdir(), 'ledgerline-dist-'));
mkdirSync(join(dist, 'assets'));
writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Ledgerline</title><script type="module" src="/assets/index-Ab1.js"></script>');
writeFileSync(join(dist, 'assets', 'index-Ab1.js'), 'console.log(1)');
afterAll(() => rmSync(dist, { recursive: true, force: true }));

/** The headers every answer must carry, whatever produced it. */
function expectSecurityHeaders(headers: Headers) {
  const csp = headers.get('content-security-policy') ?? '';
  const directives = new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name = '', ...values]) => [name, values.join(' ')]));
  expect(directives.get('default-src')).toBe("'self'");
  // No 'unsafe-inline' / 'unsafe-eval' for scripts: the built app has no inline script. Only
  // WebAssembly compilation is allowed (receipt OCR's tesseract core), never eval().
  expect(directives.get('script-src')).toBe("'self' 'wasm-unsafe-eval'");
  expect(directives.get('worker-src')).toBe("'self'");
  expect(directives.get('connect-src')).toBe("'self'");
  expect(directives.get('img-src')).toBe("'self' blob: data:");
  expect(directives.get('object-src')).toBe("'none'");
  expect(directives.get('base-uri')).toBe("'self'");
  expect(directives.get('form-action')).toBe("'self'");
  expect(directives.get('frame-ancestors')).toBe("'none'");
  expect(csp).not.toMatch(/'unsafe-(inline|eval)'/);
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  expect(headers.get('x-frame-options')).toBe('DENY');
  const permissions = headers.get('permissions-policy') ?? '';
  expect(permissions).toContain('camera=(self)');
  for (const feature of ['geolocation', 'microphone', 'payment', 'usb']) expect(permissions).toContain(`${feature}=()`);
  // Without LEDGERLINE_HSTS=1 the server may be plain HTTP (127.0.0.1): no HSTS.
  expect(headers.get('strict-transport-security')).toBeNull();
}

describe.each(await testDatabases())('security headers on %s', (kind) => {
  const t = useTestApp(kind, { distDir: dist, logError: () => {} });

  it.each([
    ['an API answer', 'POST', '/v1/public/sign-in', 'signed-in', 200],
    ['a static file', 'GET', '/assets/index-Ab1.js', null, 200],
    ['the SPA fallback', 'GET', '/transactions/anything', null, 200],
    ['the app shell', 'GET', '/', null, 200],
    ['an unknown API path', 'GET', '/v1/auth/nope', null, 404],
    ['a missing asset', 'GET', '/assets/missing-Zz9.js', null, 404],
    ['a wrong method', 'DELETE', '/v1/public/sign-in', null, 405],
    ['a validation error', 'POST', '/v1/public/sign-in', 'invalid', 422],
    ['a non-JSON body', 'POST', '/v1/public/sign-in', 'text', 415],
    ['an oversized body', 'POST', '/v1/public/sign-in', 'huge', 413],
  ] as const)('%s (%s %s)', async (_, method, path, body, status) => {
    const f = body === 'signed-in' ? await makeBusiness(t.db, { transactions: 0 }) : null;
    const res = await request(t.app, method, path, {
      ...(f && { body: { email: f.email('admin'), password: 'fixture-password-1' } }),
      ...(body === 'invalid' && { body: { email: 1 } }),
      ...(body === 'text' && { rawBody: '{}', headers: { 'content-type': 'text/plain' } }),
      ...(body === 'huge' && { rawBody: 'x'.repeat(3 * 1024 * 1024), headers: { 'content-type': 'application/json' } }),
    });
    expect(res.status).toBe(status);
    expectSecurityHeaders(res.headers);
  });

  it('an SSE stream', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const token = await signIn(t.app, f.email('admin'));
    const res = await t.app.request('/v1/auth/sync/stream', { headers: { 'RAMP-ID-TOKEN': token } });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    expectSecurityHeaders(res.headers);
    // Read the opening event before hanging up, so the stream is not mid-query when the suite closes the database.
    const sse = sseReader(res);
    await sse.until(() => sse.text().length > 0);
    await sse.cancel();
  });

  it('adds HSTS and upgrade-insecure-requests only with LEDGERLINE_HSTS=1', async () => {
    const before = process.env.LEDGERLINE_HSTS;
    process.env.LEDGERLINE_HSTS = '1';
    const app = createApp({ db: t.db, tokenSecret: TEST_TOKEN_SECRET });
    try {
      const res = await app.request('/v1/auth/nope');
      expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
      expect(res.headers.get('content-security-policy')).toContain('upgrade-insecure-requests');
    } finally {
      if (before === undefined) delete process.env.LEDGERLINE_HSTS;
      else process.env.LEDGERLINE_HSTS = before;
      await app.close();
    }
  });
});
