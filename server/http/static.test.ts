import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import { securityHeaders } from './headers.ts';
import { serveDist } from './static.ts';

// dist/ sits inside a temporary root that also holds a file no request may ever reach.
const root = mkdtempSync(join(tmpdir(), 'ledgerline-static-'));
const dist = join(root, 'dist');
const SECRET = 'do-not-serve-this-secret';
mkdirSync(join(dist, 'assets'), { recursive: true });
writeFileSync(join(root, 'package.json'), JSON.stringify({ name: SECRET }));

const JS = Buffer.from(Array.from({ length: 200 }, (_, i) => `console.log(${i});\n`).join(''));
const HTML = Buffer.from(`<!doctype html><title>Ledgerline</title>${'<!-- shell -->'.repeat(100)}`);
const CSS = Buffer.from('.row { display: flex; }\n'.repeat(100));
/** Writes a file with the build's .br and .gz siblings (build/precompress.ts). */
function precompressed(path: string, bytes: Buffer) {
  writeFileSync(join(dist, path), bytes);
  writeFileSync(join(dist, `${path}.br`), brotliCompressSync(bytes));
  writeFileSync(join(dist, `${path}.gz`), gzipSync(bytes));
}
precompressed('assets/index-Cx12ab.js', JS);
precompressed('index.html', HTML);
precompressed('sw.js', Buffer.from(`self.addEventListener("install", () => {});${' '.repeat(2000)}`));
// A page the build prerendered (build/prerender.ts): its address gets it instead of the shell.
writeFileSync(join(dist, 'sign-in.html'), '<!doctype html><title>Ledgerline</title><div id="prerendered">sign-in copy</div>');
writeFileSync(join(dist, 'manifest.webmanifest'), '{"name":"Ledgerline"}');
writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
mkdirSync(join(dist, '.vite'), { recursive: true });
writeFileSync(join(dist, '.vite', 'manifest.json'), JSON.stringify({ 'src/main.tsx': { file: SECRET } }));
writeFileSync(join(dist, 'assets', 'icon-Ab12Cd.png'), Buffer.alloc(2048, 1));
// Compressible and large, but built without siblings: compressed per request.
writeFileSync(join(dist, 'assets', 'late-Ef34Gh.css'), CSS);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const app = new Hono();
app.use('*', securityHeaders());
serveDist(app, dist);
app.notFound((c) => c.json({ error_v2: { error_code: 'REQUEST_7004', message: 'not found' } }, 404));

const get = (path: string, headers: Record<string, string> = {}, method = 'GET') => app.request(path, { method, headers });
const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());
const IMMUTABLE = 'public, max-age=31536000, immutable';

describe('serving the built PWA: encodings', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['br', 'br'],
    ['*', 'br'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['x-gzip', 'gzip'],
    ['', null],
    ['identity', null],
    ['deflate', null],
    ['br;q=0, gzip;q=0', null],
    ['*;q=0', null],
  ])('Accept-Encoding %j → %s', async (accept, expected) => {
    const res = await get('/assets/index-Cx12ab.js', accept ? { 'accept-encoding': accept } : {});
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe(expected);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    const body = await bytes(res);
    expect(res.headers.get('content-length')).toBe(String(body.length));
    const decoded = expected === 'br' ? brotliDecompressSync(body) : expected === 'gzip' ? gunzipSync(body) : body;
    expect(decoded.equals(JS)).toBe(true);
  });

  it('keeps the original Content-Type for the shell sent as brotli', async () => {
    const res = await get('/', { 'accept-encoding': 'br' });
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(brotliDecompressSync(await bytes(res)).equals(HTML)).toBe(true);
  });

  it('compresses on the fly a compressible file that has no sibling (no Content-Length: it is streamed)', async () => {
    const res = await get('/assets/late-Ef34Gh.css', { 'accept-encoding': 'gzip, br' });
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(res.headers.get('content-length')).toBeNull();
    expect(res.headers.get('etag')).toMatch(/^W\//);
    expect(brotliDecompressSync(await bytes(res)).equals(CSS)).toBe(true);
  });

  it.each([
    ['/manifest.webmanifest', 'a small file', 'application/manifest+json', 'Accept-Encoding'],
    ['/assets/icon-Ab12Cd.png', 'an incompressible type', 'image/png', null],
  ])('sends %s (%s) as it is', async (path, _, type, vary) => {
    const res = await get(path, { 'accept-encoding': 'br, gzip' });
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('content-type')).toBe(type);
    expect(res.headers.get('vary')).toBe(vary);
    expect(res.headers.get('content-length')).toBe(String((await bytes(res)).length));
  });
});

describe('serving the built PWA: caching', () => {
  it.each([
    ['/', 'no-cache', 'Ledgerline'],
    ['/index.html', 'no-cache', 'Ledgerline'],
    ['/sw.js', 'no-cache', 'install'],
    ['/manifest.webmanifest', 'no-cache', 'Ledgerline'],
    ['/favicon.svg', 'no-cache', '<svg'],
    ['/assets/index-Cx12ab.js', IMMUTABLE, 'console'],
    ['/transactions/some-client-route', 'no-cache', 'Ledgerline'],
  ])('GET %s → cache-control %s', async (path, cache, content) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe(cache);
    expect(res.headers.get('etag')).toMatch(/^"[\w-]+"$/);
    expect(res.headers.get('last-modified')).toMatch(/GMT$/);
    expect(await res.text()).toContain(content);
  });

  it.each([
    ['/sign-in', true],
    ['/sign-in/', true],
    ['/sign-in/elsewhere', false],
    ['/sign-up', false],
  ])('GET %s → the prerendered page: %s', async (path, prerendered) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect((await res.text()).includes('sign-in copy')).toBe(prerendered);
  });

  it('answers a matching If-None-Match with 304 for the same encoding, and 200 for another', async () => {
    const first = await get('/', { 'accept-encoding': 'br' });
    const etag = first.headers.get('etag') ?? '';
    const again = await get('/', { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('cache-control')).toBe('no-cache');
    expect(again.headers.get('vary')).toBe('Accept-Encoding');
    // The gzip bytes are another representation: the br tag does not validate them.
    const gz = await get('/', { 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(gz.status).toBe(200);
    expect(gz.headers.get('etag')).not.toBe(etag);
    // The SPA fallback is the same file: a client route revalidates too.
    expect((await get('/transactions/x', { 'accept-encoding': 'br', 'if-none-match': `W/${etag}` })).status).toBe(304);
  });

  it('answers If-Modified-Since with 304 when unchanged and 200 when older', async () => {
    const lastModified = (await get('/sw.js')).headers.get('last-modified') ?? '';
    expect((await get('/sw.js', { 'if-modified-since': lastModified })).status).toBe(304);
    expect((await get('/sw.js', { 'if-modified-since': new Date(0).toUTCString() })).status).toBe(200);
  });
});

describe('serving the built PWA: HEAD, errors, paths', () => {
  it('answers HEAD with the GET headers and no body', async () => {
    const getRes = await get('/assets/index-Cx12ab.js', { 'accept-encoding': 'gzip' });
    const head = await get('/assets/index-Cx12ab.js', { 'accept-encoding': 'gzip' }, 'HEAD');
    expect(head.status).toBe(200);
    for (const name of ['content-encoding', 'content-type', 'content-length', 'cache-control', 'vary', 'etag']) {
      expect(head.headers.get(name)).toBe(getRes.headers.get(name));
    }
    expect((await bytes(head)).length).toBe(0);
  });

  it.each([
    '/assets/../../package.json',
    '/assets/%2e%2e/%2e%2e/package.json',
    '/assets/..%2f..%2fpackage.json',
    '/assets/%2e%2e%2f%2e%2e%2fpackage.json',
    '/assets/%252e%252e/%252e%252e/package.json',
    '/..%2fpackage.json',
    '/%2e%2e/package.json',
    '/assets/..%5c..%5cpackage.json',
  ])('never serves a file outside dist: %s → 404', async (path) => {
    const res = await get(path, { 'accept-encoding': 'br, gzip' });
    expect(res.status).toBe(404);
    const text = await res.text();
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('root:');
  });

  it('answers an escape to an extensionless path with the shell, never the file', async () => {
    const res = await get('/%2e%2e/%2e%2e/etc/passwd');
    const text = await res.text();
    expect(text).not.toContain('root:');
    expect(text).toContain('<title>Ledgerline</title>');
  });

  it.each(['/assets/missing-Zz9.js', '/%zz.js'])('answers a missing asset %s with 404, not the shell', async (path) => {
    expect((await get(path)).status).toBe(404);
  });

  it.each(['/.vite/manifest.json', '/%2evite/manifest.json'])('never serves the build\'s dot-named files (%s: 404)', async (path) => {
    const res = await get(path);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain(SECRET);
  });

  it('never answers API paths with the app shell', async () => {
    const res = await get('/v1/auth/unknown');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error_v2: { error_code: 'REQUEST_7004' } });
  });

  it.each([
    ['a brotli file', 'GET', {}],
    ['a HEAD', 'HEAD', {}],
    ['a 304', 'GET', { 'if-none-match': '*' }],
  ] as const)('keeps the security headers on %s', async (_, method, extra) => {
    const res = await get('/assets/index-Cx12ab.js', { 'accept-encoding': 'br', ...extra }, method);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
