import { resolve } from 'node:path';
import { runnerImport, type Plugin } from 'vite';
import { PRERENDERED_ID } from '../src/lib/prerendered.ts';

/**
 * Pages prerendered into their own HTML at build time (issue 33). A first visit to /sign-in on a
 * slow phone painted nothing until ~180 KB of JavaScript had arrived and run and the data worker
 * had started (Lighthouse mobile: first paint 2.7 s); with the page's markup in the HTML it paints
 * once the HTML and the stylesheet are in, and the app starts after that paint (`paintFirstLoader`).
 * The markup comes from the real component (each page's
 * `render` export, run through Vite's module runner, so TypeScript and JSX load as in the app) and
 * is written to `dist/<path>.html`, which the server sends for that address
 * (server/http/static.ts); the app then takes over (src/lib/prerendered.ts). The service worker
 * keeps serving index.html (the copy is for a first visit; vite.config.ts leaves it out of the precache).
 */
export interface PrerenderedPage {
  /** The address, e.g. `/sign-in` → `dist/sign-in.html`. */
  path: `/${string}`;
  /** The module that renders it, from the project root. */
  module: string;
  /** Its export: `() => Promise<string>`, the page's markup. */
  render: string;
}

const ROOT_SLOT = '<div id="root"></div>';

/** The app's entry script and the preloads of its chunks, as vite writes them into index.html. */
const ENTRY_SCRIPT = /<script type="module"([^>]*)\ssrc="([^"]+)"([^>]*)><\/script>/;
const MODULE_PRELOAD = /\s*<link rel="modulepreload"[^>]*\shref="([^"]+)"[^>]*>/g;

/** The entry script's URL and its chunks' preloads in index.html. */
export function appScripts(html: string): { entry: string; preloads: string[] } {
  const entry = ENTRY_SCRIPT.exec(html)?.[2];
  if (!entry) throw new Error('prerender: index.html has no entry <script type="module" src>');
  return { entry, preloads: [...html.matchAll(MODULE_PRELOAD)].map((m) => m[1] ?? '').filter(Boolean) };
}

/**
 * The module the prerendered page loads instead of the entry: once the page has painted (in the
 * second frame, or after 2 s: a hidden tab paints no frame) it preloads the entry's chunks and
 * starts the app, evaluating one chunk per task. Fetched and evaluated before, the ~180 KB of modules shared the slow connection
 * with the stylesheet the first paint waits for, and their evaluation (one long task) could hold
 * that paint; Lighthouse counts every script that arrived before the largest paint as needed for it.
 */
export function paintFirstLoader(entry: string, preloads: readonly string[]): string {
  return [
    '// The prerendered page paints first, then the app loads and starts (build/prerender.ts).',
    `const preloads = ${JSON.stringify(preloads)};`,
    '// Each chunk is evaluated in a task of its own (after its own imports), the entry last: one',
    '// ~180 KB evaluation was a single long task on a phone.',
    'const nextTask = () => new Promise((resolve) => setTimeout(resolve));',
    'let started = false;',
    'const start = async () => {',
    '  if (started) return;',
    '  started = true;',
    '  for (const href of preloads) {',
    "    const link = document.createElement('link');",
    "    link.rel = 'modulepreload';",
    '    link.href = href;',
    '    document.head.append(link);',
    '  }',
    '  for (const href of preloads) {',
    '    await import(href);',
    '    await nextTask();',
    '  }',
    `  await import(${JSON.stringify(entry)});`,
    '};',
    'requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => void start())));',
    'setTimeout(() => void start(), 2000);',
    '',
  ].join('\n');
}

/**
 * index.html with `markup` in `#prerendered` just before the app's empty `#root`, and the app's
 * scripts started by `loader` (a `paintFirstLoader`) instead of the entry tag and its preloads. The
 * CSP forbids inline scripts and style attributes (server/http/headers.ts): markup holding either
 * would be refused by the browser and reported as an error, so it fails the build instead.
 */
export function prerenderInto(html: string, markup: string, loader: string): string {
  if (!html.includes(ROOT_SLOT)) throw new Error(`prerender: index.html has no ${ROOT_SLOT}`);
  if (/<script\b/i.test(markup)) throw new Error('prerender: the markup holds a <script>, which the CSP refuses');
  if (/\sstyle=/i.test(markup)) throw new Error('prerender: the markup holds a style attribute, which the CSP refuses');
  appScripts(html);
  return html
    .replace(ENTRY_SCRIPT, (_tag, before: string, _src: string, after: string) => `<script type="module"${before} src="${loader}"${after}></script>`)
    .replace(MODULE_PRELOAD, '')
    .replace(ROOT_SLOT, `<div id="${PRERENDERED_ID}">${inertButtons(markup)}</div>${ROOT_SLOT}`);
}

/**
 * The copy's buttons disabled until the app takes over: without it a tap on one did nothing (a
 * switch to another form) or submitted the form natively (a reload losing what was typed), and a
 * disabled default button also stops Enter's implicit submission. Fields stay editable (the app
 * keeps what was typed); links are plain navigations and stay as they are.
 */
export function inertButtons(markup: string): string {
  return markup.replace(/<button\b([^>]*)>/g, (tag, attrs: string) => (/\sdisabled(?:[\s=>]|$)/.test(attrs) ? tag : `<button disabled=""${attrs}>`));
}

export function prerender(pages: readonly PrerenderedPage[]): Plugin {
  let root = process.cwd();
  return {
    name: 'ledgerline:prerender',
    apply: 'build',
    // After vite's own HTML plugin has put index.html in the bundle.
    enforce: 'post',
    configResolved(config) {
      root = config.root;
    },
    async generateBundle(_options, bundle) {
      const index = bundle['index.html'];
      if (index?.type !== 'asset') return;
      for (const page of pages) {
        const { module } = await runnerImport<Record<string, unknown>>(resolve(root, page.module), {
          root,
          logLevel: 'error',
          oxc: { jsx: { runtime: 'automatic', development: false } },
        });
        const render = module[page.render];
        if (typeof render !== 'function') throw new Error(`prerender: ${page.module} exports no ${page.render}()`);
        const markup: unknown = await render();
        if (typeof markup !== 'string' || !markup) throw new Error(`prerender: ${page.module} ${page.render}() gave no markup`);
        const html = String(index.source);
        const { entry, preloads } = appScripts(html);
        const loader = this.emitFile({ type: 'asset', name: 'paint-first.js', source: paintFirstLoader(entry, preloads) });
        const loaderUrl = `/${this.getFileName(loader)}`;
        this.emitFile({ type: 'asset', fileName: `${page.path.slice(1)}.html`, source: prerenderInto(html, markup, loaderUrl) });
      }
    },
  };
}
