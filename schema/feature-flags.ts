import { z } from 'zod';
import { BULK_BILL_CREATION_LIMIT } from './constants.ts';

/**
 * The feature-flag registry (§3): every flag the product reads, with its default. A business
 * may override any of them; the client caches the resolved set for offline use.
 */
export const FEATURE_FLAG_DEFAULTS = {
  // The ten flags §3 names as on by default.
  bank_account_statement_ocr: true,
  eligible_for_push_payments: true,
  general_expenses_spend_requests_enabled: true,
  product_or_service_spend_requests_enabled: true,
  physical_card_spend_requests_enabled: true,
  reimbursement_out_of_pocket_submission_temporal: true,
  security_login_history: true,
  spend_export_use_olap: true,
  reimbursement_form_rhf: true,
  rename_transactions_card_transactions: true,
  // Named in §3, off by default.
  auditor_role: false,
  it_admin_can_be_assistant: false,
  disable_invites_by_managers: false,
  // Valued flag.
  bulk_bill_creation_limit: BULK_BILL_CREATION_LIMIT,
} as const;

export type FeatureFlagName = keyof typeof FEATURE_FLAG_DEFAULTS;
export type FeatureFlags = { [K in FeatureFlagName]: (typeof FEATURE_FLAG_DEFAULTS)[K] extends boolean ? boolean : number };

export const FEATURE_FLAG_NAMES = Object.keys(FEATURE_FLAG_DEFAULTS) as FeatureFlagName[];

/** The valued flag's range (§3): the most bills one bulk create may hold. */
export const BULK_BILL_CREATION_LIMIT_RANGE = { min: 1, max: 500 } as const;

/**
 * Flags whose change alters who may do what (a role becomes assignable, managers lose invites):
 * the flags page asks before switching them.
 */
export const ACCESS_FLAGS: readonly FeatureFlagName[] = ['auditor_role', 'it_admin_can_be_assistant', 'disable_invites_by_managers'];

/** Overrides as stored per business: only known flags, each with its own value type. */
export const featureFlagOverridesSchema = z
  .object(
    Object.fromEntries(
      FEATURE_FLAG_NAMES.map((name) => [
        name,
        (typeof FEATURE_FLAG_DEFAULTS[name] === 'boolean'
          ? z.boolean()
          : z.number().int().min(BULK_BILL_CREATION_LIMIT_RANGE.min).max(BULK_BILL_CREATION_LIMIT_RANGE.max)
        ).optional(),
      ]),
    ) as unknown as { [K in FeatureFlagName]: z.ZodOptional<z.ZodType<FeatureFlags[K]>> },
  )
  .strict();
export type FeatureFlagOverrides = z.infer<typeof featureFlagOverridesSchema>;

export const featureFlagsResponseSchema = z.object({ flags: z.record(z.string(), z.union([z.boolean(), z.number()])) });

/** Defaults with the business's overrides on top; unknown names in stored data are ignored. */
export function resolveFeatureFlags(overrides: Partial<Record<string, unknown>> = {}): FeatureFlags {
  const out = { ...FEATURE_FLAG_DEFAULTS } as Record<FeatureFlagName, boolean | number>;
  for (const name of FEATURE_FLAG_NAMES) {
    const v = overrides[name];
    if (typeof v === typeof FEATURE_FLAG_DEFAULTS[name]) out[name] = v as boolean | number;
  }
  return out as FeatureFlags;
}

/** Typed read from a cached (possibly older) flag set: missing or mistyped → the default. */
export function readFlag<K extends FeatureFlagName>(flags: Partial<Record<string, unknown>> | null | undefined, name: K): FeatureFlags[K] {
  const v = flags?.[name];
  return (typeof v === typeof FEATURE_FLAG_DEFAULTS[name] ? v : FEATURE_FLAG_DEFAULTS[name]) as FeatureFlags[K];
}

