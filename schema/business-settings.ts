import { z } from 'zod';
import type { FeatureFlagName } from './feature-flags.ts';

/**
 * Issue 32, business settings by type (§7 Businesses `DELETE setting/{type}`): the settings a
 * business keeps today, each with its default (what "Reset to default" restores) and where it is
 * edited. The server reads and resets each through its own store (server/domain/business-settings.ts);
 * the Settings → Company section lists them. Shared by server and client.
 */
export const BUSINESS_SETTING_TYPES = [
  'transaction_notify_threshold', 'merchant_restrictions', 'security_contact', 'card_branding', 'beta_enrollment',
] as const;
export const businessSettingTypeSchema = z.enum(BUSINESS_SETTING_TYPES);
export type BusinessSettingType = z.infer<typeof businessSettingTypeSchema>;

type SettingDef = { label: string; description: string; default_summary: string; edit_path: string };

export const BUSINESS_SETTINGS: Readonly<Record<BusinessSettingType, SettingDef>> = {
  transaction_notify_threshold: {
    label: 'Large transaction alerts',
    description: 'Admins are notified of card transactions at or above this amount.',
    default_summary: 'Off', edit_path: '/settings',
  },
  merchant_restrictions: {
    label: 'Blocked merchant categories',
    description: 'Every card of the business is declined at these merchant categories.',
    default_summary: 'No categories blocked', edit_path: '/settings',
  },
  security_contact: {
    label: 'Security contact',
    description: 'Who hears about security changes to the business, besides its admins.',
    default_summary: 'None: admins only', edit_path: '/settings',
  },
  card_branding: {
    label: 'Card branding',
    description: 'The logo and colour on the business’s virtual cards.',
    default_summary: 'Ledgerline design', edit_path: '/settings',
  },
  beta_enrollment: {
    label: 'Beta programmes',
    description: 'Early features the business has opted into.',
    default_summary: 'Not enrolled', edit_path: '/settings/feature-flags',
  },
};

/** One setting as the list answers it: its value summarised in words, and whether it is the default. */
export const businessSettingSchema = z.object({
  type: businessSettingTypeSchema,
  label: z.string(),
  description: z.string(),
  is_default: z.boolean(),
  summary: z.string(),
  default_summary: z.string(),
  edit_path: z.string(),
  updated_at: z.iso.datetime({ offset: true }).nullable(),
});
export type BusinessSetting = z.infer<typeof businessSettingSchema>;

// --- Security contact --------------------------------------------------------------------------

/** The business's security contact: who is told about security changes, besides the admins. */
export const securityContactInputSchema = z.object({
  name: z.string().trim().min(1).max(120),
  email: z.email().max(254),
  /** E.164-ish: digits with an optional leading +, spaces, dashes and brackets allowed. */
  phone: z.string().trim().regex(/^\+?[0-9 ()-]{7,20}$/, 'phone must be a valid phone number').nullable().default(null),
});
export type SecurityContactInput = z.infer<typeof securityContactInputSchema>;
export const securityContactSchema = z.object({
  contact: securityContactInputSchema.extend({ updated_at: z.iso.datetime({ offset: true }) }).nullable(),
});
export type SecurityContact = z.infer<typeof securityContactSchema>;

// --- Beta programmes ---------------------------------------------------------------------------

/**
 * The beta programmes a business may join. While enrolled, each programme's flags are on whatever
 * the business's own flag overrides say (server/auth/settings.ts `featureFlagsOf`); leaving turns
 * them back to the overrides or defaults.
 */
export const BETA_PROGRAMMES = {
  team_roles_preview: {
    name: 'Team roles preview',
    description: 'The Auditor role, and IT admins as approval delegates.',
    flags: ['auditor_role', 'it_admin_can_be_assistant'],
  },
} as const satisfies Record<string, { name: string; description: string; flags: readonly FeatureFlagName[] }>;
export type BetaProgrammeId = keyof typeof BETA_PROGRAMMES;
export const BETA_PROGRAMME_IDS = Object.keys(BETA_PROGRAMMES) as [BetaProgrammeId, ...BetaProgrammeId[]];
export const betaProgrammeIdSchema = z.enum(BETA_PROGRAMME_IDS);

/** The flags the programmes turn on (unknown ids in stored data are ignored). */
export function betaFlagsOf(programmes: readonly string[]): Partial<Record<FeatureFlagName, true>> {
  const out: Partial<Record<FeatureFlagName, true>> = {};
  for (const id of programmes) {
    const p = (BETA_PROGRAMMES as Record<string, { flags: readonly FeatureFlagName[] }>)[id];
    for (const flag of p?.flags ?? []) out[flag] = true;
  }
  return out;
}

export const betaEnrollmentSchema = z.object({
  programmes: z.array(z.object({
    id: betaProgrammeIdSchema,
    name: z.string(),
    description: z.string(),
    flags: z.array(z.string()),
    enrolled_at: z.iso.datetime({ offset: true }).nullable(),
  })),
});
export type BetaEnrollment = z.infer<typeof betaEnrollmentSchema>;
export const betaEnrollmentInputSchema = z.object({ programmes: z.array(betaProgrammeIdSchema).min(1).max(BETA_PROGRAMME_IDS.length) });
