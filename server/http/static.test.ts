import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import { serveDist } from './static.ts';

const dist = mkdtempSync(join(tmpdir(), 'ledgerline-dist-'));
mkdirSync(join(dist, 'assets'));
writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Ledgerline</title>');
writeFileSync(join(dist, 'sw.js'), 'self.addEventListener("install", () => {});');
writeFileSync(join(dist, 'manifest.webmanifest'), '{"name":"Ledgerline"}');
writeFileSync(join(dist, 'assets', 'index-Cx12ab.js'), 'console.log(1)');
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const app = new Hono();
serveDist(app, dist);
app.notFound((c) => c.json({ error_v2: { error_code: 'REQUEST_7004', message: 'not found' } }, 404));

describe('serving the built PWA', () => {
  it.each([
    ['/', 'no-cache', 'Ledgerline'],
    ['/sw.js', 'no-cache', 'install'],
    ['/manifest.webmanifest', 'no-cache', 'Ledgerline'],
    ['/assets/index-Cx12ab.js', 'public, max-age=31536000, immutable', 'console'],
    ['/transactions/some-client-route', 'no-cache', 'Ledgerline'],
  ])('GET %s → cache-control %s', async (path, cache, content) => {
    const res = await app.request(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe(cache);
    expect(await res.text()).toContain(content);
  });

  it.each(['/%2e%2e/%2e%2e/etc/passwd', '/..%2f..%2fetc%2fpasswd'])('never serves a file outside dist: %s', async (path) => {
    const res = await app.request(path);
    const text = await res.text();
    expect(text).not.toContain('root:');
    if (res.status === 200) expect(text).toContain('<title>Ledgerline</title>');
  });

  it.each(['/assets/missing-Zz9.js', '/%zz.js'])('answers a missing asset %s with 404, not the shell', async (path) => {
    expect((await app.request(path)).status).toBe(404);
  });

  it('never answers API paths with the app shell', async () => {
    const res = await app.request('/v1/auth/unknown');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error_v2: { error_code: 'REQUEST_7004' } });
  });
});
