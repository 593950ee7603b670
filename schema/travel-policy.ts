import { z } from 'zod';
import { cabinSchema, iataCodeSchema, type Cabin } from './entities/trip.ts';
import { fromUsd, inventoryCurrency } from './travel/fx-rates.ts';

/**
 * Issue 27: a business's travel policy (`PUT /v1/auth/travel/policy`, admins), the traveller's
 * profile and the business's travel settings — the shapes. The pure evaluation of an offer
 * against the policy lives in `travel-rules.ts`.
 *
 * Amounts are integer minor units of the policy's `currency` (the business's currency). Offers are
 * priced in the business's currency (fixed rates: travel/fx-rates.ts), so they compare with the
 * caps as charged; an offer in another currency than the policy's is never compared by a guessed
 * rate: it is out of policy with a reason naming both ("Priced in EUR: the policy caps USD").
 */
const OUT_OF_POLICY_ACTIONS = ['REQUIRE_APPROVAL', 'BLOCK'] as const;

export const travelPolicySchema = z
  .object({
    currency: z.string().regex(/^[A-Z]{3}$/),
    /**
     * The best cabin allowed by the longest leg's duration: the entry with the greatest
     * `min_duration_minutes` not above the leg's duration applies. Must contain an entry at 0.
     */
    cabin_by_duration: z
      .array(z.object({ min_duration_minutes: z.number().int().min(0).max(24 * 60), max_cabin: cabinSchema }).strict())
      .min(1)
      .max(8),
    /** The highest fare (whole trip, per passenger) allowed in each cabin; null = no cap. */
    flight_fare_caps: z
      .object({
        ECONOMY: z.number().int().positive().nullable(),
        PREMIUM_ECONOMY: z.number().int().positive().nullable(),
        BUSINESS: z.number().int().positive().nullable(),
        FIRST: z.number().int().positive().nullable(),
      })
      .strict(),
    /** The highest nightly hotel rate: a default and per-city overrides. */
    hotel_nightly_cap: z
      .object({
        default: z.number().int().positive(),
        cities: z.array(z.object({ city: iataCodeSchema, amount: z.number().int().positive() }).strict()).max(200),
      })
      .strict(),
    /** Flights must be booked at least this many days before departure (0 = any time). */
    min_advance_days: z.number().int().min(0).max(60),
    /** What happens to an out-of-policy offer: it waits for approval, or it cannot be booked. */
    out_of_policy: z.enum(OUT_OF_POLICY_ACTIONS),
  })
  .strict();
export type TravelPolicy = z.infer<typeof travelPolicySchema>;

/** The policy a business has until an admin saves one (also what DELETE restores). */
export const DEFAULT_TRAVEL_POLICY: TravelPolicy = {
  currency: 'USD',
  cabin_by_duration: [
    { min_duration_minutes: 0, max_cabin: 'ECONOMY' },
    { min_duration_minutes: 6 * 60, max_cabin: 'PREMIUM_ECONOMY' },
    { min_duration_minutes: 10 * 60, max_cabin: 'BUSINESS' },
  ],
  flight_fare_caps: { ECONOMY: 80_000, PREMIUM_ECONOMY: 150_000, BUSINESS: 600_000, FIRST: null },
  hotel_nightly_cap: { default: 25_000, cities: [{ city: 'JFK', amount: 35_000 }, { city: 'SFO', amount: 32_000 }, { city: 'LHR', amount: 30_000 }] },
  min_advance_days: 0,
  out_of_policy: 'REQUIRE_APPROVAL',
};

/**
 * The default policy for a business of `currency`: DEFAULT_TRAVEL_POLICY's caps at the inventory's
 * fixed rates (schema/travel/fx-rates.ts), so a euro business is not judged against dollar caps it
 * never chose. A currency the rate table lacks keeps the dollar policy (its prices stay in dollars).
 */
export function defaultTravelPolicyIn(currency: string): TravelPolicy {
  if (inventoryCurrency(currency) === DEFAULT_TRAVEL_POLICY.currency) return DEFAULT_TRAVEL_POLICY;
  const at = (usd: number) => fromUsd(usd, currency).amount;
  const cap = (usd: number | null) => (usd === null ? null : at(usd));
  const { ECONOMY, PREMIUM_ECONOMY, BUSINESS, FIRST } = DEFAULT_TRAVEL_POLICY.flight_fare_caps;
  const hotel = DEFAULT_TRAVEL_POLICY.hotel_nightly_cap;
  return {
    ...DEFAULT_TRAVEL_POLICY,
    currency,
    flight_fare_caps: { ECONOMY: cap(ECONOMY), PREMIUM_ECONOMY: cap(PREMIUM_ECONOMY), BUSINESS: cap(BUSINESS), FIRST: cap(FIRST) },
    hotel_nightly_cap: { default: at(hotel.default), cities: hotel.cities.map((c) => ({ city: c.city, amount: at(c.amount) })) },
  };
}

export const SEAT_PREFERENCES = ['WINDOW', 'AISLE', 'NO_PREFERENCE'] as const;

/** What the traveller sends (`PUT /v1/auth/travel/profile`, sensitive scope: after step-up). */
export const travelerProfileBodySchema = z
  .object({
    legal_first_name: z.string().trim().min(1).max(100),
    legal_middle_name: z.string().trim().max(100).nullable().optional(),
    legal_last_name: z.string().trim().min(1).max(100),
    /**
     * The sensitive fields are never sent back to the device, so a save may leave them out: an
     * absent one keeps the stored value (null clears the known traveller number). The date of
     * birth is required on the first save (the server answers 422 on it).
     */
    date_of_birth: z.iso.date().optional(),
    /** TSA PreCheck / Global Entry number: 8–10 letters or digits. */
    known_traveler_number: z.string().regex(/^[A-Z0-9]{8,10}$/).nullable().optional(),
    loyalty_programs: z
      .array(z.object({ airline_code: z.string().regex(/^[A-Z0-9]{2}$/), number: z.string().regex(/^[A-Z0-9]{4,20}$/) }).strict())
      .max(20)
      .optional(),
    seat_preference: z.enum(SEAT_PREFERENCES).default('NO_PREFERENCE'),
  })
  .strict();
export type TravelerProfileBody = z.infer<typeof travelerProfileBodySchema>;

/**
 * What `GET /v1/auth/travel/profile` answers: the date of birth and the numbers masked to their
 * last four (the full values are encrypted at rest and only sent on to the booking); `null` when
 * the traveller has none yet.
 */
export const travelerProfileSchema = z.object({
  legal_first_name: z.string(),
  legal_middle_name: z.string().nullable(),
  legal_last_name: z.string(),
  /** e.g. "••••-••-14": only the day is shown. */
  date_of_birth_masked: z.string(),
  known_traveler_number_last_four: z.string().nullable(),
  loyalty_programs: z.array(z.object({ airline_code: z.string(), number_last_four: z.string() })),
  seat_preference: z.enum(SEAT_PREFERENCES),
  updated_at: z.iso.datetime({ offset: true }),
});
export type TravelerProfile = z.infer<typeof travelerProfileSchema>;

/** Per-business travel settings (`PUT /v1/auth/travel/settings`, admins). */
export const travelSettingsSchema = z
  .object({
    flights_enabled: z.boolean(),
    hotels_enabled: z.boolean(),
    /** A trip must say why (purpose) before anything is booked on it. */
    require_trip_purpose: z.boolean(),
    /** The default budget of a new trip (minor units of the policy currency), null = none. */
    default_trip_budget: z.number().int().positive().nullable(),
    /** The limit of the virtual card issued for a trip, as a multiple of its first booking (≥ 1). */
    trip_card_limit_multiplier: z.number().min(1).max(5),
    /**
     * Travel rewards (schema/travel-rewards.ts): a traveller who books in policy below the cap
     * earns `share_percent` of the savings. Absent (older rows, older clients) = off at 50 %.
     */
    rewards: z
      .object({ enabled: z.boolean(), share_percent: z.number().int().min(0).max(100) })
      .strict()
      .default({ enabled: false, share_percent: 50 }),
  })
  .strict();
export type TravelSettings = z.infer<typeof travelSettingsSchema>;
export const DEFAULT_TRAVEL_SETTINGS: TravelSettings = {
  flights_enabled: true,
  hotels_enabled: true,
  require_trip_purpose: false,
  default_trip_budget: null,
  trip_card_limit_multiplier: 1.5,
  rewards: { enabled: false, share_percent: 50 },
};

/** The cabin order, cheapest first. */
export const CABIN_RANK: Readonly<Record<Cabin, number>> = { ECONOMY: 0, PREMIUM_ECONOMY: 1, BUSINESS: 2, FIRST: 3 };
