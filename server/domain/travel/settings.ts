import {
  DEFAULT_TRAVEL_SETTINGS, defaultTravelPolicyIn, travelPolicySchema, travelSettingsSchema, type TravelPolicy, type TravelSettings,
} from '../../../schema/travel-policy.ts';
import { knownCurrencySchema } from '../../../schema/money.ts';
import { isAdmin } from '../../../schema/roles.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError, validationError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';

/**
 * A business's travel policy and travel settings (issue 27): one row each, absent = the defaults
 * (schema/travel-policy.ts). Every member reads them (the booking screens show the policy);
 * admins write them (§6: 403 before anything else). Not mirrored: read online.
 */

export type PolicyAnswer = { policy: TravelPolicy; is_default: boolean };

/** The business's policy, or the default one in its currency; what search and booking evaluate offers against. */
export async function travelPolicyOf(db: Queryable, businessId: string): Promise<PolicyAnswer> {
  const [row] = await db.query<{ policy: unknown; currency: string }>(
    `SELECT p.policy, b.currency FROM businesses b LEFT JOIN travel_policies p ON p.business_id = b.id WHERE b.id = $1`, [businessId],
  );
  return row?.policy ? { policy: travelPolicySchema.parse(row.policy), is_default: false } : defaultPolicyOf(row?.currency ?? 'USD');
}

const defaultPolicyOf = (currency: string): PolicyAnswer & { is_default: true } => ({ policy: defaultTravelPolicyIn(currency), is_default: true });

export async function travelSettingsOf(db: Queryable, businessId: string): Promise<TravelSettings> {
  const [row] = await db.query<{ settings: unknown }>('SELECT settings FROM travel_settings WHERE business_id = $1', [businessId]);
  return row ? travelSettingsSchema.parse(row.settings) : DEFAULT_TRAVEL_SETTINGS;
}

function requireAdmin(user: ActingUser): void {
  if (!isAdmin(user)) throw new ApiError('FORBIDDEN_7003');
}

/** What the schema cannot say alone: a known currency, and a cabin rule from 0 minutes with no duration twice. */
function policyErrors(policy: TravelPolicy): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!knownCurrencySchema.safeParse(policy.currency).success) errors.currency = `currency ${policy.currency} is not a known currency`;
  const minutes = policy.cabin_by_duration.map((c) => c.min_duration_minutes);
  if (!minutes.includes(0)) errors.cabin_by_duration = 'cabin_by_duration must have an entry with min_duration_minutes 0';
  else if (new Set(minutes).size !== minutes.length) errors.cabin_by_duration = 'cabin_by_duration must not name a duration twice';
  const cities = policy.hotel_nightly_cap.cities.map((c) => c.city);
  if (new Set(cities).size !== cities.length) errors['hotel_nightly_cap.cities'] = 'hotel_nightly_cap.cities must not name a city twice';
  return errors;
}

export async function putTravelPolicy(tx: Queryable, user: ActingUser, policy: TravelPolicy): Promise<PolicyAnswer> {
  requireAdmin(user);
  const errors = policyErrors(policy);
  if (Object.keys(errors).length > 0) throw validationError(errors);
  const ordered = { ...policy, cabin_by_duration: [...policy.cabin_by_duration].sort((a, b) => a.min_duration_minutes - b.min_duration_minutes) };
  await tx.query(
    `INSERT INTO travel_policies (business_id, policy, updated_by, updated_at) VALUES ($1, $2::jsonb, $3, now())
     ON CONFLICT (business_id) DO UPDATE SET policy = EXCLUDED.policy, updated_by = EXCLUDED.updated_by, updated_at = now()`,
    [user.business_id, JSON.stringify(ordered), user.id],
  );
  return { policy: ordered, is_default: false };
}

/** Back to the default policy. */
export async function deleteTravelPolicy(tx: Queryable, user: ActingUser): Promise<{ policy: TravelPolicy; is_default: true }> {
  requireAdmin(user);
  const [row] = await tx.query<{ currency: string }>(
    'WITH gone AS (DELETE FROM travel_policies WHERE business_id = $1) SELECT currency FROM businesses WHERE id = $1', [user.business_id],
  );
  return defaultPolicyOf(row?.currency ?? 'USD');
}

export async function putTravelSettings(tx: Queryable, user: ActingUser, settings: TravelSettings): Promise<TravelSettings> {
  requireAdmin(user);
  await tx.query(
    `INSERT INTO travel_settings (business_id, settings, updated_by, updated_at) VALUES ($1, $2::jsonb, $3, now())
     ON CONFLICT (business_id) DO UPDATE SET settings = EXCLUDED.settings, updated_by = EXCLUDED.updated_by, updated_at = now()`,
    [user.business_id, JSON.stringify(settings), user.id],
  );
  return settings;
}
