/**
 * Writes docs/coverage.md: the spec's §7 calls against the call catalogue (schema/api/coverage.ts).
 * The spec is read from ../shared/spec/product-spec.md beside the repository, or LEDGERLINE_SPEC.
 * Run: npm run coverage:doc
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CATALOGUE } from '../schema/api/calls.ts';
import { coverageProblems, renderCoverage, specCoverage } from '../schema/api/coverage.ts';
import { parseSpecCalls } from '../schema/api/spec-calls.ts';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const COVERAGE_DOC = resolve(REPO_ROOT, 'docs/coverage.md');

/** The spec's path: LEDGERLINE_SPEC, else ../shared/spec/product-spec.md beside the repository. */
export function specPath(): string {
  return process.env.LEDGERLINE_SPEC ?? resolve(REPO_ROOT, '../shared/spec/product-spec.md');
}

/** Throws (loudly) when the spec is not there: the matrix cannot be checked without it. */
export function readSpec(path = specPath()): string {
  if (!existsSync(path)) {
    throw new Error(`The spec is not at ${path}: put the shared folder beside the repository or set LEDGERLINE_SPEC`);
  }
  return readFileSync(path, 'utf8');
}

/** docs/coverage.md as it should read now, and what keeps it from being complete. */
export function generateCoverage(specText = readSpec()): { doc: string; problems: string[] } {
  const rows = specCoverage(parseSpecCalls(specText), CATALOGUE);
  return { doc: renderCoverage(rows, CATALOGUE), problems: coverageProblems(rows, CATALOGUE) };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { doc, problems } = generateCoverage();
  writeFileSync(COVERAGE_DOC, doc);
  console.log(`wrote ${COVERAGE_DOC}`);
  if (problems.length > 0) {
    console.error(`${problems.length} problems:\n${problems.join('\n')}`);
    process.exitCode = 1;
  }
}
