import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import type { Context, Hono } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';

/**
 * Serves the built PWA from `distDir` on the API's origin. Files whose name changes with their
 * content (vite's hashed assets) are cached forever; the entry points (index.html, sw.js, the
 * manifest) must be revalidated every time or an update would never reach installed apps.
 * Any other GET outside /v1 falls back to index.html so client-side routes survive a reload.
 */
const NO_CACHE = /(^|\/)(index\.html|sw\.js|registerSW\.js|workbox-[\w-]+\.js|manifest\.webmanifest|[\w-]+\.webmanifest)$/;
const HASHED = /(^|\/)assets\//;

function cacheHeaders(path: string, c: Context): void {
  if (NO_CACHE.test(path)) c.header('cache-control', 'no-cache');
  else if (HASHED.test(path)) c.header('cache-control', 'public, max-age=31536000, immutable');
  else c.header('cache-control', 'public, max-age=3600');
}

export function serveDist(app: Hono, distDir: string): void {
  if (!existsSync(distDir)) {
    console.warn(`[ledgerline] ${distDir} does not exist (run \`npm run build\`): serving the API only.`);
    return;
  }
  const root = relative(process.cwd(), resolve(distDir)) || '.';
  const index = resolve(distDir, 'index.html');
  const isApp = (c: Context) => (c.req.method === 'GET' || c.req.method === 'HEAD') && !c.req.path.startsWith('/v1/');
  const files = serveStatic({ root, onFound: (path, c) => cacheHeaders(path, c) });
  const fallback = serveStatic({ root, path: 'index.html', onFound: (_path, c) => cacheHeaders('index.html', c) });
  app.use('*', async (c, next) => (isApp(c) ? files(c, next) : next()));
  app.use('*', async (c, next) => (isApp(c) && existsSync(index) ? fallback(c, next) : next()));
}
