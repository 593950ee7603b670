/**
 * Imported first by the service worker (sw.ts): the page's and the data worker's chunks get this
 * as a banner (vite.config.ts, ZOD_JITLESS), the service worker is built apart by
 * vite-plugin-pwa. zod must not probe `new Function` under our CSP (no 'unsafe-eval'), and the
 * setting must be there before the first schema is built.
 */
const g = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
g.__zod_globalConfig ??= {};
g.__zod_globalConfig.jitless = true;

export {};
