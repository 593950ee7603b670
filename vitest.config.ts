import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Three projects: `unit` (pure code and the worker on fake-indexeddb), `server` (the API on
 * PGlite, and PostgreSQL when reachable; sync engine integration against the real server), and
 * `e2e` (the built app in real headless Chromium against the real server).
 */
/** Server test files that call vi.mock (kept isolated; a test checks this list is complete). */
export const SERVER_MOCKING_FILES = ['server/routes/audit-log.test.ts', 'server/routes/identity-surfaces.test.ts'];

export default defineConfig({
  test: {
    // Vitest's default in run mode is one worker per core less one: a single worker on the 2-core
    // CI machine, leaving a core idle while server tests wait on PostgreSQL, timers and scrypt.
    // Two workers at least (e2e stays one file at a time: fileParallelism below).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'unit',
          include: ['bench/**/*.test.ts', 'build/**/*.test.ts', 'schema/**/*.test.ts', 'sync/**/*.test.ts', 'workers/**/*.test.ts', 'src/**/*.test.{ts,tsx}'],
          environment: 'node',
          // A time-out here catches a hang, not slowness (speed lives in `npm run bench`): a worker
          // test that mirrors thousands of rows into fake-indexeddb takes 1-2 s alone and over 5 s
          // on a 2-core machine running the server project beside it.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['server/**/*.test.ts', 'tests/integration/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...SERVER_MOCKING_FILES],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // One module graph per worker (issue 33): every server file imported the app graph again
          // when isolated (Hono, PGlite, every route, the template tarballs); now each worker imports
          // it once and tests/support/server-file-setup.ts puts back what a file changes in the process
          // (env, vi stubs and timers, recorded devices, OIDC discoveries). Files that vi.mock run in
          // `server-isolated`. Measured in docs/performance.md ("Test suite time, third step").
          setupFiles: ['tests/support/server-file-setup.ts'],
          isolate: false,
        },
      },
      {
        test: {
          // The server files that replace modules with vi.mock: a mock in a shared graph would
          // reach the files after them (or miss a module an earlier file already imported).
          name: 'server-isolated',
          include: SERVER_MOCKING_FILES,
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 300_000,
          hookTimeout: 300_000,
          // One file at a time. Two at once (issue 33, sixth session) did the same CPU 18–25 % sooner
          // (847 s → 635–691 s wall), but three of four whole runs each failed a different test on a
          // race the load exposed (three fixed); turned on once several whole runs pass in a row
          // (docs/performance.md).
          fileParallelism: false,
          // One module graph for all e2e files (they run one after another in one process): the
          // server and playwright-core are imported once, not per file (≈ 1/3 of a small file's
          // time). Safe here: no e2e file mocks, stubs or fakes anything (no `vi.`), each starts
          // its own server, database and browser profile, and the server keeps its state in the
          // database (server/CONTEXT.md). Measured in docs/performance.md ("Test suite time").
          isolate: false,
          // server/testing.ts: a test server whose demo seed this process already made starts
          // from a copy of it instead of seeding again.
          env: { LEDGERLINE_TEST_REUSE_SEED: '1' },
        },
      },
    ],
  },
});
