import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The built app the benchmark scripts serve. */
export const DIST_DIR = resolve(ROOT, 'dist');

/** Builds the app so the numbers describe the current source, not a stale dist/. */
export function buildApp(): void {
  const res = spawnSync(process.execPath, [resolve(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (res.status !== 0) throw new Error('bench: vite build failed');
}
