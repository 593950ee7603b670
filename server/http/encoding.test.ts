import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn, sseReader } from '../test-fixtures.ts';
import { acceptedEncodings, compressBytes, ON_THE_FLY_MIN_BYTES, SMALL_ANSWER_BYTES } from './encoding.ts';

describe('acceptedEncodings', () => {
  it.each([
    [undefined, []],
    ['', []],
    ['gzip, deflate, br, zstd', ['br', 'gzip']],
    ['gzip;q=1.0, br;q=0.8', ['gzip', 'br']],
    ['BR;Q=0.5, GZIP', ['gzip', 'br']],
    ['br;q=0, gzip', ['gzip']],
    ['br;q=0, gzip;q=0, identity', []],
    ['*', ['br', 'gzip']],
    ['*;q=0.5, gzip', ['gzip', 'br']],
    ['*, br;q=0', ['gzip']],
    ['x-gzip', ['gzip']],
    ['br;q=nonsense', []],
  ] as const)('%j → %j', (header, expected) => {
    expect(acceptedEncodings(header)).toEqual(expected);
  });
});

// Compression is the same whatever the engine: one PGlite is enough here.
describe('API answers', () => {
  const t = useTestApp('pglite', { logError: () => {} });

  it.each([
    ['br', brotliDecompressSync],
    ['gzip', gunzipSync],
  ] as const)('compresses a large answer (the feed) with %s, with an exact Content-Length', async (encoding, decode) => {
    const f = await makeBusiness(t.db, { transactions: 20 });
    const token = await signIn(t.app, f.email('admin'));
    const plain = await t.app.request('/v1/auth/sync/changes', { headers: { 'RAMP-ID-TOKEN': token } });
    const plainText = await plain.text();
    expect(plainText.length).toBeGreaterThan(ON_THE_FLY_MIN_BYTES);
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('content-length')).toBe(String(Buffer.byteLength(plainText)));

    const res = await t.app.request('/v1/auth/sync/changes', { headers: { 'RAMP-ID-TOKEN': token, 'accept-encoding': encoding } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe(encoding);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
    const body = Buffer.from(await res.arrayBuffer());
    expect(res.headers.get('content-length')).toBe(String(body.length));
    expect(body.length).toBeLessThan(plainText.length / 3);
    expect(JSON.parse(decode(body).toString('utf8'))).toEqual(JSON.parse(plainText));
    // The security headers still wrap the compressed answer.
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it('sends a small answer as it is', async () => {
    const res = await t.app.request('/v1/auth/nope', { headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-encoding')).toBeNull();
    const text = await res.text();
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    expect(JSON.parse(text)).toMatchObject({ error_v2: { error_code: 'REQUEST_7004' } });
  });

  it('never compresses (or buffers) the SSE change stream: events arrive one by one', async () => {
    const f = await makeBusiness(t.db, { transactions: 2 });
    const token = await signIn(t.app, f.email('admin'));
    const res = await t.app.request('/v1/auth/sync/stream', { headers: { 'RAMP-ID-TOKEN': token, 'accept-encoding': 'br, gzip' } });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('content-length')).toBeNull();
    const sse = sseReader(res);
    await sse.until(() => sse.seqs().length >= 1);
    const patched = await request(t.app, 'PATCH', `/v1/auth/transactions/${f.allTransactions[0]}`, { token, body: { memo: 'ping' } });
    await sse.until(() => sse.seqs().length >= 2);
    expect(sse.seqs().at(-1)).toBe(patched.body.change_seq);
    await sse.cancel();
  }, 15_000);
});

describe('compressBytes', () => {
  const json = (rows: number) => new TextEncoder().encode(JSON.stringify(Array.from({ length: rows }, (_, i) => ({ id: i, memo: `row ${i} ${'x'.repeat(i % 40)}` }))));
  it.each([
    ['br', brotliDecompressSync],
    ['gzip', gunzipSync],
  ] as const)('%s: a small answer (in place) and a large one (thread pool) both decode to the same bytes', async (encoding, decode) => {
    const small = json(200);
    const large = json(20_000);
    expect(small.byteLength).toBeLessThanOrEqual(SMALL_ANSWER_BYTES);
    expect(large.byteLength).toBeGreaterThan(SMALL_ANSWER_BYTES);
    expect(compressBytes(small, encoding)).toBeInstanceOf(Buffer);
    expect(compressBytes(large, encoding)).toBeInstanceOf(Promise);
    for (const bytes of [small, large]) {
      const out = await compressBytes(bytes, encoding);
      expect(out.byteLength).toBeLessThan(bytes.byteLength / 3);
      expect(new Uint8Array(decode(out))).toEqual(bytes);
    }
  });
});
