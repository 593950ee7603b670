import { defineConfig } from 'vitest/config';

/**
 * Three projects: `unit` (pure code and the worker on fake-indexeddb), `server` (the API on
 * PGlite, and PostgreSQL when reachable; sync engine integration against the real server), and
 * `e2e` (the built app in real headless Chromium against the real server).
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['bench/**/*.test.ts', 'build/**/*.test.ts', 'schema/**/*.test.ts', 'sync/**/*.test.ts', 'workers/**/*.test.ts', 'src/**/*.test.{ts,tsx}'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          include: ['server/**/*.test.ts', 'tests/integration/**/*.test.ts'],
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
          fileParallelism: false,
        },
      },
    ],
  },
});
