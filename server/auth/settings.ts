import { betaFlagsOf } from '../../schema/business-settings.ts';
import { featureFlagOverridesSchema, resolveFeatureFlags, type FeatureFlagOverrides, type FeatureFlags } from '../../schema/feature-flags.ts';
import { webConfigSchema, type WebConfig } from '../../schema/web-config.ts';
import type { Queryable } from '../db/db.ts';

/**
 * §3 web config: the stored row with per-process environment overrides on top
 * (LEDGERLINE_LOGIN_DOWN / LEDGERLINE_MFA_DOWN = 1|true|0|false, and the two custom messages),
 * so an operator can switch sign-in off on one deployment without touching the database.
 */
export async function readWebConfig(db: Queryable, env: NodeJS.ProcessEnv = process.env): Promise<WebConfig> {
  const [row] = await db.query<{ config: unknown }>('SELECT config FROM web_config WHERE id');
  const parsed = webConfigSchema.safeParse(row?.config ?? {});
  const config = parsed.success ? parsed.data : webConfigSchema.parse({});
  const flag = (v: string | undefined) => (v === undefined || v === '' ? undefined : v === '1' || v.toLowerCase() === 'true');
  const loginDown = flag(env.LEDGERLINE_LOGIN_DOWN);
  const mfaDown = flag(env.LEDGERLINE_MFA_DOWN);
  return {
    ...config,
    ...(loginDown !== undefined && { isLoginDown: loginDown }),
    ...(mfaDown !== undefined && { isMfaDown: mfaDown }),
    ...(env.LEDGERLINE_LOGIN_DOWN_MESSAGE && { customLoginDownMessage: env.LEDGERLINE_LOGIN_DOWN_MESSAGE }),
    ...(env.LEDGERLINE_MFA_DOWN_MESSAGE && { customMfaDownMessage: env.LEDGERLINE_MFA_DOWN_MESSAGE }),
  };
}

/** Replaces the stored web config (validated; unknown keys dropped by the schema). */
export async function writeWebConfig(db: Queryable, config: Partial<WebConfig>): Promise<WebConfig> {
  const parsed = webConfigSchema.parse(config);
  await db.query('UPDATE web_config SET config = $1::jsonb WHERE id', [JSON.stringify(parsed)]);
  return parsed;
}

/** The business's resolved flags: registry defaults with its stored overrides on top. */
export async function featureFlagsOf(db: Queryable, businessId: string): Promise<FeatureFlags> {
  const [row] = await db.query<{ overrides: Record<string, unknown> }>(
    'SELECT overrides FROM business_feature_flags WHERE business_id = $1',
    [businessId],
  );
  // Issue 32: a beta programme's flags are on while the business is enrolled (schema/business-settings.ts).
  const beta = await db.query<{ programme: string }>('SELECT programme FROM business_beta_enrollments WHERE business_id = $1', [businessId]);
  return resolveFeatureFlags({ ...row?.overrides, ...betaFlagsOf(beta.map((b) => b.programme)) });
}

/** Stores a business's overrides; anything not in the registry or of the wrong type is refused. */
export async function setFeatureFlagOverrides(db: Queryable, businessId: string, overrides: FeatureFlagOverrides): Promise<void> {
  const parsed = featureFlagOverridesSchema.parse(overrides);
  await db.query(
    `INSERT INTO business_feature_flags (business_id, overrides) VALUES ($1, $2::jsonb)
     ON CONFLICT (business_id) DO UPDATE SET overrides = EXCLUDED.overrides, updated_at = now()`,
    [businessId, JSON.stringify(parsed)],
  );
}
