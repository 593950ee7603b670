import { createReadStream, existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import type { Context, Hono } from 'hono';

/**
 * Serves the built PWA from `distDir` on the API's origin. Files whose name changes with their
 * content (vite's hashed assets) are cached forever; the entry points (index.html, sw.js, the
 * manifest) must be revalidated every time or an update would never reach installed apps.
 * Any other GET outside /v1 falls back to index.html so client-side routes survive a reload.
 */
const NO_CACHE = /(^|\/)(index\.html|sw\.js|registerSW\.js|workbox-[\w-]+\.js|[\w-]+\.webmanifest)$/;
const HASHED = /(^|\/)assets\//;
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
};

function cacheControl(path: string): string {
  if (NO_CACHE.test(path)) return 'no-cache';
  if (HASHED.test(path)) return 'public, max-age=31536000, immutable';
  return 'public, max-age=3600';
}

/** The file under root a URL path names, or null (outside root, missing, or a directory). */
async function resolveFile(root: string, urlPath: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const file = resolve(root, `.${decoded.endsWith('/') ? `${decoded}index.html` : decoded}`);
  if (file !== root && !file.startsWith(root + sep)) return null;
  const info = await stat(file).catch(() => null);
  return info?.isFile() ? file : null;
}

async function sendFile(c: Context, root: string, file: string): Promise<Response> {
  const info = await stat(file);
  const headers = {
    'content-type': TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'content-length': String(info.size),
    'cache-control': cacheControl(file.slice(root.length).split(sep).join('/')),
  };
  if (c.req.method === 'HEAD') return c.body(null, 200, headers);
  return c.body(Readable.toWeb(createReadStream(file)) as ReadableStream, 200, headers);
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
    // Client-side routes (no file extension) get the app shell; a missing asset stays a 404.
    if (!extname(c.req.path) && existsSync(index)) return sendFile(c, root, index);
    return next();
  });
}
