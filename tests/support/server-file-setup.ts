/**
 * Runs before every file of the server project (vitest.config.ts `setupFiles`). Those files share
 * one module graph per vitest worker (`isolate: false`: the app graph is imported once per worker,
 * not once per file), so what one file changes in the process must not reach the next:
 * - process.env: a few files set LEDGERLINE_TRUST_PROXY, LEDGERLINE_HSTS, PUBLIC_URL, …; whatever a
 *   file leaves behind is put back as it was before the file (added keys deleted, changed restored);
 * - vitest's own stubs, spies and timers (vi.stubEnv, vi.stubGlobal, vi.spyOn, vi.useFakeTimers);
 * - module state that outlives a database: the devices a process recorded
 *   (server/http/devices.ts: keyed by business, and the demo seed's business id is the same in
 *   every seeded copy) and the OIDC discoveries (server/auth/sso/oidc.ts). Every other module-level
 *   cache in server/ holds what is the same for every database (templates, parsed settings, the
 *   OpenAPI document, a dummy password hash).
 * Files that replace modules with vi.mock run in their own isolated project (`server-isolated`).
 */
import { afterAll, beforeAll, vi } from 'vitest';
import { forgetDiscoveries } from '../../server/auth/sso/oidc.ts';
import { forgetRecordedDevices } from '../../server/http/devices.ts';

const envBefore = { ...process.env };

/** Puts process.env back to `before`: keys added since are deleted, changed or deleted ones restored. */
function restoreEnv(before: NodeJS.ProcessEnv): void {
  for (const key of Object.keys(process.env)) if (!(key in before)) delete process.env[key];
  for (const [key, value] of Object.entries(before)) if (value !== undefined && process.env[key] !== value) process.env[key] = value;
}

beforeAll(() => {
  forgetRecordedDevices();
  forgetDiscoveries();
});

afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  restoreEnv(envBefore);
});
