/**
 * main_js_gzip_kb: the gzip size of the app's main entry chunk, the JavaScript a first visit must
 * download and parse before anything renders. The entry is found the way the browser finds it:
 * the module script in dist/index.html (lazy chunks and the data worker are not counted).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync, constants } from 'node:zlib';

const MODULE_SCRIPT = /<script\b[^>]*\btype=["']module["'][^>]*\bsrc=["']([^"']+)["'][^>]*>/i;

/** The entry chunk's path inside dist/, from index.html's module script. */
export function entryScriptPath(indexHtml: string): string {
  const m = MODULE_SCRIPT.exec(indexHtml) ?? /<script\b[^>]*\bsrc=["']([^"']+)["'][^>]*\btype=["']module["']/i.exec(indexHtml);
  if (!m?.[1]) throw new Error('dist/index.html has no module script');
  return m[1].replace(/^\//, '');
}

/** Gzip (level 9, as servers precompress) size of the main entry chunk, in KiB. */
export async function mainJsGzipKb(distDir: string): Promise<{ file: string; kb: number }> {
  const file = entryScriptPath(await readFile(join(distDir, 'index.html'), 'utf8'));
  const js = await readFile(join(distDir, file));
  const gz = gzipSync(js, { level: constants.Z_BEST_COMPRESSION });
  return { file, kb: Math.round((gz.length / 1024) * 10) / 10 };
}
