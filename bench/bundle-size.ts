/**
 * main_js_gzip_kb: the gzip size of every script the first page loads before anything renders —
 * the entry module script of dist/index.html, every chunk index.html modulepreloads, and the
 * entry's whole static import graph (Vite's dist/.vite/manifest.json, `build.manifest`). Dynamic
 * imports (lazy routes, OCR, the PWA registration) and the data worker are not counted: the first
 * page does not wait for them. Each file is gzipped on its own, as it goes over the wire.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync, constants } from 'node:zlib';

const MODULE_SCRIPT = /<script\b[^>]*\btype=["']module["'][^>]*\bsrc=["']([^"']+)["'][^>]*>/i;
const MODULE_SCRIPT_SRC_FIRST = /<script\b[^>]*\bsrc=["']([^"']+)["'][^>]*\btype=["']module["']/i;
const LINK_TAG = /<link\b[^>]*>/gi;

/** One chunk of Vite's build manifest (only what the walk reads). */
interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const MANIFEST_PATH = join('.vite', 'manifest.json');

const distPath = (url: string) => url.replace(/^\.?\//, '');

/** The entry chunk's path inside dist/, from index.html's module script. */
export function entryScriptPath(indexHtml: string): string {
  const m = MODULE_SCRIPT.exec(indexHtml) ?? MODULE_SCRIPT_SRC_FIRST.exec(indexHtml);
  if (!m?.[1]) throw new Error('dist/index.html has no module script');
  return distPath(m[1]);
}

/** The paths inside dist/ of index.html's `<link rel="modulepreload">` tags, in document order. */
export function modulePreloadPaths(indexHtml: string): string[] {
  const paths: string[] = [];
  for (const [tag] of indexHtml.matchAll(LINK_TAG)) {
    if (!/\brel=["']modulepreload["']/i.test(tag)) continue;
    const href = /\bhref=["']([^"']+)["']/i.exec(tag)?.[1];
    if (href) paths.push(distPath(href));
  }
  return paths;
}

/**
 * Every file the entry chunk imports statically, transitively (the entry included), by walking
 * the manifest's `imports` (keys of other chunks); `dynamicImports` are not followed.
 */
export function staticImportClosure(manifest: Manifest, entryFile: string): string[] {
  const start = Object.keys(manifest).find((key) => manifest[key]?.file === entryFile);
  if (start === undefined) throw new Error(`the build manifest has no chunk for ${entryFile}`);
  const seen = new Set<string>();
  const files: string[] = [];
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (seen.has(key) || !chunk) return;
    seen.add(key);
    files.push(chunk.file);
    for (const next of chunk.imports ?? []) visit(next);
  };
  visit(start);
  return files;
}

/** The scripts of the first page: entry first, then the preloads, then what only the manifest names. */
export function firstLoadScripts(indexHtml: string, manifest: Manifest | null): string[] {
  const entry = entryScriptPath(indexHtml);
  const all = [entry, ...modulePreloadPaths(indexHtml), ...(manifest ? staticImportClosure(manifest, entry) : [])];
  return [...new Set(all)];
}

const kib = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

async function gzipBytes(path: string): Promise<number> {
  return gzipSync(await readFile(path), { level: constants.Z_BEST_COMPRESSION }).length;
}

/**
 * Gzip (level 9, as servers precompress) size of the first page's scripts, in KiB: `file` is the
 * entry, `files` each counted script with its own size. Without a build manifest the count falls
 * back to the entry and index.html's modulepreloads (what Vite writes for the static graph).
 */
export async function mainJsGzipKb(distDir: string): Promise<{ file: string; kb: number; files: { file: string; kb: number }[] }> {
  const indexHtml = await readFile(join(distDir, 'index.html'), 'utf8');
  const manifestFile = join(distDir, MANIFEST_PATH);
  const manifest = existsSync(manifestFile) ? (JSON.parse(await readFile(manifestFile, 'utf8')) as Manifest) : null;
  const scripts = firstLoadScripts(indexHtml, manifest);
  const sizes = await Promise.all(scripts.map((file) => gzipBytes(join(distDir, file))));
  return {
    file: scripts[0]!,
    kb: kib(sizes.reduce((a, b) => a + b, 0)),
    files: scripts.map((file, i) => ({ file, kb: kib(sizes[i]!) })),
  };
}

/** The counted scripts for the bench details: "assets/index-…js 40.1, assets/react-…js 68.3" (KiB gzip each). */
export function scriptList(files: readonly { file: string; kb: number }[]): string {
  return files.map((f) => `${f.file} ${f.kb}`).join(', ');
}
