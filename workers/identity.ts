import { featureFlags as featureFlagsCall, webConfig as webConfigCall } from '../schema/api/calls-identity.ts';
import { FEATURE_FLAG_NAMES, readFlag, resolveFeatureFlags, type FeatureFlags } from '../schema/feature-flags.ts';
import { webConfigSchema, type WebConfig } from '../schema/web-config.ts';
import type { HttpClient, HttpResult } from '../sync/index.ts';
import type { ActionResult } from './contracts/views.ts';
import { actionFailure } from './online.ts';

export { actionFailure };
import type { MirrorRuntime } from './mirror-runtime.ts';

/**
 * Identity helpers of the data worker: web config, feature flags (cached in the mirror's
 * `meta` for offline starts) and the mapping of direct calls' failures to ActionResult.
 */

const FLAGS_META_ID = 'feature_flags';

/** §3: the page always gets a config; unreachable server → the defaults (sign-in stays up). */
export async function loadWebConfig(http: HttpClient): Promise<WebConfig> {
  const res = await http.call(webConfigCall);
  return res.ok ? res.data : webConfigSchema.parse({});
}

/** Fetches the business's flags and caches the resolved set in the mirror. Silent offline. */
export async function refreshFlags(http: HttpClient, runtime: MirrorRuntime): Promise<void> {
  const res = await http.call(featureFlagsCall);
  if (!res.ok) return;
  await runtime.db.meta.upsert({ id: FLAGS_META_ID, value: resolveFeatureFlags(res.data.flags) });
}

/** The cached flags read typed: missing or mistyped values read as the registry's defaults. */
export async function cachedFlags(runtime: MirrorRuntime | null): Promise<FeatureFlags> {
  const doc = runtime ? await runtime.db.meta.findOne(FLAGS_META_ID).exec() : null;
  const value: unknown = doc?.value;
  const cached = value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  // The cache may predate a registry change: each flag is read typed, with its default.
  return Object.fromEntries(FEATURE_FLAG_NAMES.map((name) => [name, readFlag(cached, name)])) as FeatureFlags;
}

export function toAction(res: HttpResult<unknown>): ActionResult {
  return res.ok ? { ok: true } : actionFailure(res);
}
