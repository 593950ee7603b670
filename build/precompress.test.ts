import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brotliQuality, MAX_QUALITY_BYTES, MIN_BYTES, precompressDir } from './precompress.ts';

const dir = mkdtempSync(join(tmpdir(), 'ledgerline-precompress-'));
const js = Buffer.from(Array.from({ length: 400 }, (_, i) => `export const v${i} = ${i * 7};\n`).join(''));
const css = Buffer.from('.row { display: flex; gap: 4px; }\n'.repeat(100));
const html = Buffer.from(`<!doctype html><html><body>${'<p>Ledgerline</p>'.repeat(100)}</body></html>`);
const png = Buffer.alloc(4096, 7);
// Random bytes do not compress: no sibling may be written for them.
const noise = Buffer.from(Array.from({ length: 4096 }, () => Math.floor(Math.random() * 256)));

beforeAll(async () => {
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'assets', 'index-Ab12Cd34.js'), js);
  writeFileSync(join(dir, 'assets', 'index-Ab12Cd34.css'), css);
  writeFileSync(join(dir, 'assets', 'noise-Zz99Yy88.js'), noise);
  writeFileSync(join(dir, 'index.html'), html);
  writeFileSync(join(dir, 'registerSW.js'), 'navigator.serviceWorker.register("/sw.js")');
  writeFileSync(join(dir, 'icon.png'), png);
  await precompressDir(dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('precompressDir', () => {
  it.each([
    ['assets/index-Ab12Cd34.js', js],
    ['assets/index-Ab12Cd34.css', css],
    ['index.html', html],
  ])('%s.br and .gz decompress to the original bytes', (name, original) => {
    const br = readFileSync(join(dir, `${name}.br`));
    const gz = readFileSync(join(dir, `${name}.gz`));
    expect(br.length).toBeLessThan(original.length);
    expect(gz.length).toBeLessThan(original.length);
    expect(brotliDecompressSync(br).equals(original)).toBe(true);
    expect(gunzipSync(gz).equals(original)).toBe(true);
  });

  it.each([
    ['icon.png', 'not a compressible type'],
    [`registerSW.js`, `under ${MIN_BYTES} bytes`],
    ['assets/noise-Zz99Yy88.js', 'would not come out smaller'],
  ])('writes no sibling for %s (%s)', (name) => {
    expect(existsSync(join(dir, `${name}.br`))).toBe(false);
    expect(existsSync(join(dir, `${name}.gz`))).toBe(false);
  });

  it('is idempotent: a second run compresses no .br/.gz file', async () => {
    await precompressDir(dir);
    expect(existsSync(join(dir, 'index.html.br.br'))).toBe(false);
    expect(existsSync(join(dir, 'index.html.gz.gz'))).toBe(false);
  });
});

describe('brotliQuality', () => {
  it('pays for maximum quality only on files small enough for it to be cheap', () => {
    expect(brotliQuality(MIN_BYTES)).toBe(11);
    expect(brotliQuality(MAX_QUALITY_BYTES)).toBe(11);
    expect(brotliQuality(MAX_QUALITY_BYTES + 1)).toBe(9);
  });
});
