import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';
import { COMPRESS_MIN_BYTES } from '../schema/constants.ts';

/**
 * Writes `<file>.br` (brotli, quality 11; 9 above MAX_QUALITY_BYTES) and `<file>.gz` (gzip -9) beside every compressible file
 * of the build, so the server (server/http/static.ts) sends them as they are and never spends CPU
 * on them per request. Maximum quality is affordable here because it is paid once per build.
 */
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.webmanifest', '.txt', '.wasm', '.map', '.xml']);

/** Smaller files are served as they are (the server's on-the-fly floor is the same constant). */
export const MIN_BYTES = COMPRESS_MIN_BYTES;

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

export type PrecompressTotals = { files: number; raw: number; br: number; gz: number };

async function* walk(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile()) yield path;
  }
}

export function isCompressible(path: string): boolean {
  return COMPRESSIBLE.has(extname(path).toLowerCase());
}

/**
 * Above this size brotli runs at quality 9: quality 11 costs about a minute per megabyte-scale
 * file on this 2-core machine (the OCR engine's .wasm files) for ~5 % fewer bytes, and those
 * files are fetched once and cached by the service worker, not on every start.
 */
export const MAX_QUALITY_BYTES = 512 * 1024;

/** Brotli quality for a file of this size. */
export const brotliQuality = (size: number): number => (size > MAX_QUALITY_BYTES ? 9 : constants.BROTLI_MAX_QUALITY);

/** The two encodings of one file's bytes. */
export async function compressBytes(bytes: Buffer): Promise<{ br: Buffer; gz: Buffer }> {
  const [br, gzBytes] = await Promise.all([
    brotli(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: brotliQuality(bytes.length),
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
    gz(bytes, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  return { br, gz: gzBytes };
}

/**
 * Compresses every compressible file of at least MIN_BYTES under `dir`. An encoding that does not
 * come out smaller than the original is not written (the server then sends the original).
 */
export async function precompressDir(dir: string): Promise<PrecompressTotals> {
  const totals: PrecompressTotals = { files: 0, raw: 0, br: 0, gz: 0 };
  for await (const path of walk(dir)) {
    if (!isCompressible(path) || (await stat(path)).size < MIN_BYTES) continue;
    const bytes = await readFile(path);
    const out = await compressBytes(bytes);
    totals.files += 1;
    totals.raw += bytes.length;
    totals.br += Math.min(out.br.length, bytes.length);
    totals.gz += Math.min(out.gz.length, bytes.length);
    if (out.br.length < bytes.length) await writeFile(`${path}.br`, out.br);
    if (out.gz.length < bytes.length) await writeFile(`${path}.gz`, out.gz);
  }
  return totals;
}

/**
 * Runs after every other plugin's closeBundle (`order: 'post'`), so the service worker that
 * vite-plugin-pwa writes in its own closeBundle is compressed too. The precache manifest never
 * lists the .br/.gz files (workbox `globIgnores` in vite.config.ts): the service worker fetches
 * the originals and the browser negotiates the encoding.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  let log: (msg: string) => void = () => {};
  return {
    name: 'ledgerline:precompress',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
      log = (msg) => config.logger.info(msg);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler(error?: Error) {
        if (error) return;
        const t = await precompressDir(outDir);
        const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
        log(`precompressed ${t.files} files: ${kb(t.raw)} → br ${kb(t.br)}, gzip ${kb(t.gz)}`);
      },
    },
  };
}
