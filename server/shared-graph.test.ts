import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SERVER_MOCKING_FILES } from '../vitest.config.ts';

/**
 * The server project's files share one module graph per worker (vitest.config.ts, `isolate: false`).
 * A file that replaces a module with vi.mock would hand the mock to the files after it, or miss a
 * module an earlier file already imported; such files must be listed in SERVER_MOCKING_FILES, which
 * runs them in the isolated `server-isolated` project.
 */
const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const MOCKS = /\bvi\s*\.\s*(?:mock|doMock|unmock|doUnmock|resetModules)\s*\(/;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : testFiles(path);
    return e.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('the server project shares one module graph', () => {
  it('runs every file that mocks modules in the isolated project, and only those', () => {
    const mocking = [...testFiles(join(REPO, 'server')), ...testFiles(join(REPO, 'tests/integration'))]
      .filter((file) => MOCKS.test(readFileSync(file, 'utf8')))
      .map((file) => relative(REPO, file))
      .sort();
    expect(mocking).toEqual([...SERVER_MOCKING_FILES].sort());
  });
});
