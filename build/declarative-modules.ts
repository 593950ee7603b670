/**
 * The folders whose modules only declare: importing one runs no code but its declarations (no
 * top-level call, assignment or registration), so the bundler may drop any module of theirs the
 * page does not use (vite.config.ts `treeshake.moduleSideEffects`). Without that, a barrel import
 * (workers/telemetry-client.ts → sync/index.ts) keeps every module behind it in the first load —
 * the whole command catalogue with immer. declarative-modules.test.ts keeps the promise true:
 * it fails on any top-level statement of these folders that is not a declaration.
 */
export const DECLARATIVE_DIRS = ['schema', 'sync'] as const;

const posix = (path: string) => path.replace(/\\/g, '/');

/** For `treeshake.moduleSideEffects`: false for a module of a declarative folder, else the default. */
export function declarativeModules(root: string): (id: string) => false | undefined {
  const prefixes = DECLARATIVE_DIRS.map((dir) => `${posix(root).replace(/\/$/, '')}/${dir}/`);
  return (id) => (prefixes.some((p) => posix(id).startsWith(p)) ? false : undefined);
}
