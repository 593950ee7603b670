import { describe, expect, it } from 'vitest';
import { DEFAULT_TRAVEL_POLICY, DEFAULT_TRAVEL_SETTINGS } from '../../../schema/travel-policy.ts';
import { policyBody, policyValues, settingsBody, settingsValues } from './policy-form.ts';
import { newLoyaltyRow, profileBody, profileValues } from './profile-form.ts';

describe('policy form', () => {
  it('round-trips the default policy through the form', () => {
    const v = policyValues(DEFAULT_TRAVEL_POLICY);
    expect(v.cabin_rules[1]).toEqual({ hours: '6', max_cabin: 'PREMIUM_ECONOMY' });
    expect(v.fare_caps.FIRST).toBe('');
    expect(v.fare_caps.ECONOMY).toBe('800.00');
    expect(policyBody(v)).toEqual({ ok: true, body: DEFAULT_TRAVEL_POLICY });
  });
  it('needs a rule at 0 hours, one cap per city and amounts that are amounts', () => {
    const v = policyValues(DEFAULT_TRAVEL_POLICY);
    const r = policyBody({
      ...v,
      cabin_rules: [{ hours: '2', max_cabin: 'ECONOMY' }],
      hotel_cities: [{ city: 'JFK', amount: '350' }, { city: 'JFK', amount: '300' }],
      hotel_default: 'cheap',
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.cabin_by_duration).toBe('One rule must start at 0 hours (every flight).');
    expect(r.errors['hotel_nightly_cap.cities']).toBe('JFK has two caps: keep one.');
    expect(r.errors['hotel_nightly_cap.default']).toBeDefined();
  });
});

describe('settings form', () => {
  it('round-trips and refuses a multiplier out of range', () => {
    const v = settingsValues({ ...DEFAULT_TRAVEL_SETTINGS, default_trip_budget: 150_000 }, 'USD');
    expect(v.default_trip_budget).toBe('1500.00');
    expect(settingsBody(v, 'USD')).toEqual({ ok: true, body: { ...DEFAULT_TRAVEL_SETTINGS, default_trip_budget: 150_000 } });
    expect(settingsBody({ ...v, default_trip_budget: '', trip_card_limit_multiplier: '9' }, 'USD')).toMatchObject({ ok: false, errors: { trip_card_limit_multiplier: expect.any(String) } });
  });
});

describe('traveler profile form', () => {
  it('keeps names and seat from the masked profile, never the masked numbers, and sends them typed again in capitals', () => {
    const saved = {
      legal_first_name: 'Ana', legal_middle_name: null, legal_last_name: 'Silva', date_of_birth_masked: '••••-••-14', known_traveler_number_last_four: '1234',
      loyalty_programs: [{ airline_code: 'TP', number_last_four: '9876' }], seat_preference: 'AISLE' as const, updated_at: '2026-03-01T10:00:00Z',
    };
    const v = profileValues(saved);
    expect(v).toMatchObject({ legal_first_name: 'Ana', date_of_birth: '', known_traveler_number: '', loyalty: [{ airline_code: 'TP', number: '' }], seat_preference: 'AISLE' });
    expect(profileBody({ ...v, date_of_birth: '1990-05-14', known_traveler_number: 'ab 123 4567', loyalty: [{ ...v.loyalty[0]!, airline_code: 'tp', number: 'x99887766' }] }, saved)).toEqual({
      ok: true,
      body: { legal_first_name: 'Ana', legal_last_name: 'Silva', date_of_birth: '1990-05-14', known_traveler_number: 'AB1234567', loyalty_programs: [{ airline_code: 'TP', number: 'X99887766' }], seat_preference: 'AISLE' },
    });
    // First save: the date of birth is required; a loyalty row typed half is refused on its number.
    const bad = profileBody({ ...v, date_of_birth: '', loyalty: [{ ...newLoyaltyRow(), airline_code: 'TP' }, { ...newLoyaltyRow(), airline_code: 'UA', number: '12345678' }] }, null);
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(Object.keys(bad.errors).sort()).toEqual(['date_of_birth', 'loyalty_programs.0.number']);
  });
});
