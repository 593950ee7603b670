import { createReadStream, existsSync, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import type { Context, Hono } from 'hono';
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from 'hono/compress';
import { acceptedEncodings, compressStream, ON_THE_FLY_MIN_BYTES, type Encoding } from './encoding.ts';

/**
 * Serves the built PWA from `distDir` on the API's origin. Vite's files under /assets/ carry a
 * content hash in their name and are cached forever; everything else (index.html, sw.js, the
 * manifest, icons) must be revalidated on every use, or an update would
 * never reach installed apps; ETag/Last-Modified make that revalidation a 304.
 * Any other GET outside /v1 falls back to index.html so client-side routes survive a reload (or
 * to `<path>.html` where the build prerendered that address's page).
 *
 * Encodings: the build writes `.br` and `.gz` siblings (build/precompress.ts); the best one the
 * client accepts is sent as it is. A compressible file with no sibling for any accepted encoding
 * (a dist built without the plugin, a file added by hand) is compressed on the fly at the fast
 * levels of http/encoding.ts.
 */
const HASHED = /^\/assets\//;
const IMMUTABLE = 'public, max-age=31536000, immutable';
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
  '.xml': 'application/xml',
};
const SIBLING: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

/**
 * The file under root a URL path names, or null (outside root, missing, a directory, or under a
 * dot-named segment: dist/.vite/manifest.json is the build's, read by the benchmark, not served).
 */
async function resolveFile(root: string, urlPath: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  if (decoded.split('/').some((segment) => segment.startsWith('.'))) return null;
  const file = resolve(root, `.${decoded.endsWith('/') ? `${decoded}index.html` : decoded}`);
  if (file !== root && !file.startsWith(root + sep)) return null;
  const info = await stat(file).catch(() => null);
  return info?.isFile() ? file : null;
}

const statFile = (path: string) => stat(path).then((s) => (s.isFile() ? s : null), () => null);

/** What goes on the wire for one request: a file as stored, or the original compressed now. */
type Representation = { path: string; info: Stats; encoding: Encoding | null; onTheFly: boolean };

async function representation(c: Context, file: string, info: Stats, compressible: boolean): Promise<Representation> {
  const plain = { path: file, info, encoding: null, onTheFly: false };
  if (!compressible) return plain;
  const accepted = acceptedEncodings(c.req.header('accept-encoding'));
  for (const encoding of accepted) {
    const sibling = await statFile(file + SIBLING[encoding]);
    if (sibling) return { path: file + SIBLING[encoding], info: sibling, encoding, onTheFly: false };
  }
  const [best] = accepted;
  if (best && info.size >= ON_THE_FLY_MIN_BYTES) return { ...plain, encoding: best, onTheFly: true };
  return plain;
}

/**
 * A validator per representation (a br answer and a gzip answer are different bytes). Size and
 * mtime of the stored file are enough: every build rewrites what it changes. On-the-fly bytes
 * depend on the zlib version, so their tag is weak.
 */
function etagOf(rep: Representation, original: Stats): string {
  const stamp = (s: Stats) => `${s.size.toString(36)}-${Math.floor(s.mtimeMs).toString(36)}`;
  if (rep.onTheFly) return `W/"${stamp(original)}-${rep.encoding}"`;
  return `"${stamp(rep.info)}${rep.encoding ? `-${rep.encoding}` : ''}"`;
}

function notModified(c: Context, etag: string, mtimeMs: number): boolean {
  const inm = c.req.header('if-none-match');
  if (inm !== undefined) {
    const bare = (tag: string) => tag.trim().replace(/^W\//, '');
    return inm.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
  }
  const ims = Date.parse(c.req.header('if-modified-since') ?? '');
  return Number.isFinite(ims) && Math.floor(mtimeMs / 1000) * 1000 <= ims;
}

function body(rep: Representation): ReadableStream {
  const file = createReadStream(rep.path);
  if (!rep.onTheFly || !rep.encoding) return Readable.toWeb(file) as ReadableStream;
  const z = compressStream(rep.encoding);
  file.on('error', (err) => z.destroy(err));
  return Readable.toWeb(file.pipe(z)) as ReadableStream;
}

async function sendFile(c: Context, root: string, file: string): Promise<Response> {
  const info = await stat(file);
  const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
  const compressible = COMPRESSIBLE_CONTENT_TYPE_REGEX.test(type);
  const rep = await representation(c, file, info, compressible);
  const etag = etagOf(rep, info);
  const headers: Record<string, string> = {
    'cache-control': HASHED.test(file.slice(root.length).split(sep).join('/')) ? IMMUTABLE : 'no-cache',
    etag,
    'last-modified': info.mtime.toUTCString(),
  };
  // Caches must keep one copy per encoding of anything that could be sent encoded.
  if (compressible) headers.vary = 'Accept-Encoding';
  if (notModified(c, etag, info.mtimeMs)) return c.body(null, 304, headers);
  headers['content-type'] = type;
  if (rep.encoding) headers['content-encoding'] = rep.encoding;
  // On the fly the length is known only at the end: that answer goes out chunked.
  if (!rep.onTheFly) headers['content-length'] = String(rep.info.size);
  if (c.req.method === 'HEAD') return c.body(null, 200, headers);
  return c.body(body(rep), 200, headers);
}

export function serveDist(app: Hono, distDir: string): void {
  const root = resolve(distDir);
  if (!existsSync(root)) {
    console.warn(`[ledgerline] ${root} does not exist (run \`npm run build\`): serving the API only.`);
    return;
  }
  const index = resolve(root, 'index.html');
  app.on(['GET', 'HEAD'], '*', async (c, next) => {
    if (c.req.path.startsWith('/v1/')) return next();
    const file = await resolveFile(root, c.req.path);
    if (file) return sendFile(c, root, file);
    // Client-side routes (no file extension) get the app shell, or the page the build prerendered
    // for that address (dist/sign-in.html for /sign-in: build/prerender.ts); a missing asset stays a 404.
    if (!extname(c.req.path) && existsSync(index)) {
      const page = await resolveFile(root, `${c.req.path.replace(/\/+$/, '')}.html`);
      return sendFile(c, root, page ?? index);
    }
    return next();
  });
}
