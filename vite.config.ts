import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { fileURLToPath } from 'node:url';
import { declarativeModules } from './build/declarative-modules.ts';
import { ocrAssets } from './build/ocr-assets.ts';
import { pdfAssets } from './build/pdf-assets.ts';
import { precompress } from './build/precompress.ts';
import { prerender } from './build/prerender.ts';

const API_ORIGIN = process.env.LEDGERLINE_API ?? 'http://127.0.0.1:8787';

/** Vendor groups split out of the main entry so it stays small and caches apart from app code. */
const VENDOR_GROUPS: { name: string; test: RegExp }[] = [
  { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
  { name: 'router', test: /node_modules[\\/]@tanstack[\\/](react-router|router-core|history|react-store|store)[\\/]/ },
  { name: 'virtual', test: /node_modules[\\/]@tanstack[\\/](react-virtual|virtual-core)[\\/]/ },
  { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
];

/**
 * zod builds a faster object parser with `new Function` after probing whether eval is allowed.
 * Under our CSP (script-src 'self', no 'unsafe-eval') the browser reports that probe as a
 * violation even though zod catches the error, so the built app runs zod `jitless` (which skips
 * the probe; eval is refused anyway). It must be set before the first schema is built, so every
 * chunk, of the page and of the worker, sets it first.
 */
const ZOD_JITLESS = 'globalThis.__zod_globalConfig ??= {}; globalThis.__zod_globalConfig.jitless = true;';

export default defineConfig({
  plugins: [
    react(),
    // tesseract's worker, wasm cores and English model as same-origin files (receipt OCR).
    ocrAssets(),
    // pdf.js's wasm image decoders for scanned PDFs, same-origin (PDF statements and invoices).
    pdfAssets(),
    VitePWA({
      // Our own service worker (workers/service-worker/sw.ts): the precache and routes the generated
      // one had, plus the outbox's background delivery (issue 26, sync/background-sync.ts).
      strategies: 'injectManifest',
      srcDir: 'workers/service-worker',
      filename: 'sw.ts',
      // The user decides when to swap versions: an open tab may hold unsent edits.
      registerType: 'prompt',
      injectRegister: false,
      // public/ (favicon, icons) is precached by globPatterns; listing it again would duplicate entries.
      includeManifestIcons: false,
      manifest: {
        name: 'Ledgerline',
        short_name: 'Ledgerline',
        description: 'Offline-first spend management: search and code every transaction, online or not.',
        theme_color: '#1d4ed8',
        background_color: '#ffffff',
        display: 'standalone',
        start_url: '/',
        scope: '/',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      injectManifest: {
        // A classic script: the registration (virtual:pwa-register) registers it as one.
        rollupFormat: 'iife',
        // mjs: pdf.js's worker (src/lib/pdf-text/pdf-reader.ts, `?url`), so a PDF is read offline.
        globPatterns: ['**/*.{js,mjs,css,html,svg,png,ico,wasm,woff2}'],
        // The precompressed siblings (build/precompress.ts) are never precached: the service
        // worker fetches the originals and the server picks the encoding per request.
        // The OCR engine and model (build/ocr-assets.ts, ~4 MB gzip) are not precached either:
        // the service worker caches them on first use (workers/service-worker/sw.ts). Nor are
        // pdf.js's wasm decoders (build/pdf-assets.ts): only scanned pages, read by that OCR, need them.
        // Nor is sign-in.html (build/prerender.ts): a first visit's copy; the service worker answers
        // every navigation with index.html.
        globIgnores: ['**/*.br', '**/*.gz', 'assets/ocr-*/**', 'assets/pdfjs-*/**', 'sign-in.html'],
        // The data worker bundles RxDB and Dexie; it must be precached for offline start.
        maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
      },
      devOptions: { enabled: false },
    }),
    // The sign-in page's markup in its own HTML, from the real component (issue 33: a first visit's first paint).
    prerender([{ path: '/sign-in', module: 'src/features/identity/sign-in-prerender.tsx', render: 'renderSignInPage' }]),
    // Last: it compresses what every other plugin wrote, the service worker included.
    precompress(),
  ],
  worker: {
    format: 'es',
    rolldownOptions: { output: { banner: ZOD_JITLESS } },
  },
  optimizeDeps: {
    // Declared up front so the dev server does not discover the worker's deps late and reload.
    include: ['rxdb', 'rxdb/plugins/storage-dexie', 'dexie', 'comlink', 'immer'],
  },
  server: {
    host: '127.0.0.1',
    proxy: { '/v1': { target: API_ORIGIN, changeOrigin: false } },
  },
  preview: {
    proxy: { '/v1': { target: API_ORIGIN, changeOrigin: false } },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    // dist/.vite/manifest.json: each chunk's static imports, so the benchmark counts every script
    // the first page loads (bench/bundle-size.ts). Not precached (globPatterns has no json).
    manifest: true,
    rolldownOptions: {
      // schema/ and sync/ run nothing on import: unused modules behind a barrel are dropped.
      treeshake: { moduleSideEffects: declarativeModules(fileURLToPath(new URL('.', import.meta.url))) },
      output: {
        banner: ZOD_JITLESS,
        codeSplitting: {
          groups: VENDOR_GROUPS.map((g) => ({ name: g.name, test: g.test })),
        },
      },
    },
  },
});
