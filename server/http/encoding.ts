import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, createBrotliCompress, createGzip, gzip, gzipSync } from 'node:zlib';
import type { MiddlewareHandler } from 'hono';
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from 'hono/compress';
import { COMPRESS_MIN_BYTES } from '../../schema/constants.ts';

export type Encoding = 'br' | 'gzip';

/** Smaller answers are sent as they are; the build's precompression floor is the same constant. */
export const ON_THE_FLY_MIN_BYTES = COMPRESS_MIN_BYTES;

/**
 * The encodings the client accepts, best first; identity is always the fallback. A `q` ranks
 * them, `q=0` refuses one, `*` stands for any not named; at equal q brotli wins (smaller).
 */
export function acceptedEncodings(header: string | undefined): Encoding[] {
  if (!header) return [];
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (!name) continue;
    const qParam = params.find((p) => p.startsWith('q='));
    const weight = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weight = (e: Encoding) => q.get(e) ?? (e === 'gzip' ? q.get('x-gzip') : undefined) ?? q.get('*') ?? 0;
  // Array sort is stable: br stays ahead of gzip when their weights tie.
  return (['br', 'gzip'] as const).filter((e) => weight(e) > 0).sort((a, b) => weight(b) - weight(a));
}

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/**
 * Per request, speed over ratio (maximum quality is for the build). Measured on a 1.5 MB feed
 * page: brotli 4 → 137 KB in ~20 ms; gzip 6 → 199 KB in ~32 ms; brotli 5 costs twice brotli 4
 * for 7% less.
 */
const BROTLI_OPTIONS = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };
const GZIP_OPTIONS = { level: 6 };

/**
 * Answers up to this size (a list or search page of 50 rows is ≈ 37 KB) are compressed on the
 * request's own thread at brotli 2: issue 33's profile under 30 clients had the async path cost
 * ≈ 1 ms of CPU per page (the thread-pool hop, its callbacks and brotli 4) where brotli 2 in place
 * costs 0.2 ms for 3 % more bytes (5,522 vs 5,377 of 36,979), blocking the loop no longer than
 * that. Larger answers (feed pages, up to MBs) keep the async path and brotli 4.
 */
export const SMALL_ANSWER_BYTES = 256 * 1024;
const SMALL_BROTLI_QUALITY = 2;

export function compressBytes(bytes: Uint8Array, encoding: Encoding): Promise<Buffer> | Buffer {
  if (bytes.byteLength <= SMALL_ANSWER_BYTES) {
    return encoding === 'br'
      ? brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: SMALL_BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength } })
      : gzipSync(bytes, GZIP_OPTIONS);
  }
  return encoding === 'br' ? brotli(bytes, { params: { ...BROTLI_OPTIONS.params, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength } }) : gz(bytes, GZIP_OPTIONS);
}

/** A streaming compressor, for a file sent on the fly (http/static.ts). */
export function compressStream(encoding: Encoding) {
  return encoding === 'br' ? createBrotliCompress(BROTLI_OPTIONS) : createGzip(GZIP_OPTIONS);
}

/**
 * Compresses API answers of ON_THE_FLY_MIN_BYTES or more. Our answers are whole JSON strings
 * (c.json), so they are compressed as one buffer and keep an exact Content-Length. Hono's
 * `compress` was not used: it applies its size threshold only to answers that carry a
 * Content-Length, which c.json does not set (so it gzipped 7-byte answers), and it has no brotli.
 * Streams are never touched: the SSE change stream (text/event-stream, `no-transform`) must reach
 * the client event by event, and buffering it would hold it forever.
 */
export function compressAnswers(): MiddlewareHandler {
  return async function compressAnswers(c, next) {
    await next();
    const res = c.res;
    const type = res.headers.get('content-type') ?? '';
    if (
      !res.body ||
      c.req.method === 'HEAD' ||
      res.status === 204 ||
      res.status === 206 ||
      res.headers.has('content-encoding') ||
      /\bno-transform\b/i.test(res.headers.get('cache-control') ?? '') ||
      /^\s*text\/event-stream/i.test(type) ||
      !COMPRESSIBLE_CONTENT_TYPE_REGEX.test(type)
    ) {
      return;
    }
    const bytes = new Uint8Array(await res.arrayBuffer());
    const [encoding] = acceptedEncodings(c.req.header('accept-encoding'));
    const out = encoding && bytes.length >= ON_THE_FLY_MIN_BYTES ? new Uint8Array(await compressBytes(bytes, encoding)) : null;
    // Hono's res setter copies the old answer's headers over the new one's: set ours after it.
    c.res = new Response(out ?? bytes, res);
    const headers = c.res.headers;
    if (!/\baccept-encoding\b/i.test(headers.get('vary') ?? '')) headers.append('vary', 'Accept-Encoding');
    if (out && encoding) headers.set('content-encoding', encoding);
    headers.set('content-length', String((out ?? bytes).byteLength));
  };
}
