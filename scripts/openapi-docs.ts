/**
 * Writes docs/api/openapi.json and docs/api/README.md from the call catalogue
 * (schema/openapi/). Run: npm run openapi. schema/openapi/openapi.test.ts fails when they are stale.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ledgerlineOpenApi } from '../schema/openapi/document.ts';
import { renderApiReadme } from '../schema/openapi/readme.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const API_DOCS_DIR = resolve(ROOT, 'docs/api');

/** The product version the document states (package.json). */
export const productVersion = (): string => (JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** The two files as they should read now. */
export function generateApiDocs(): { json: string; readme: string } {
  const doc = ledgerlineOpenApi(productVersion());
  // One space of indent: readable diffs at about half the size of two.
  return { json: `${JSON.stringify(doc, null, 1)}\n`, readme: renderApiReadme(doc) };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { json, readme } = generateApiDocs();
  mkdirSync(API_DOCS_DIR, { recursive: true });
  writeFileSync(resolve(API_DOCS_DIR, 'openapi.json'), json);
  writeFileSync(resolve(API_DOCS_DIR, 'README.md'), readme);
  console.log(`wrote ${API_DOCS_DIR}/openapi.json and README.md`);
}
