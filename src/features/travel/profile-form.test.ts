import { describe, expect, it } from 'vitest';
import { loyaltyChanged, newLoyaltyRow, profileBody, profileValues, RETYPE_NUMBER } from './profile-form.ts';

const saved = {
  legal_first_name: 'Ana', legal_middle_name: null, legal_last_name: 'Ruiz', date_of_birth_masked: '••••-••-14', known_traveler_number_last_four: '4567',
  loyalty_programs: [{ airline_code: 'UA', number_last_four: '7766' }, { airline_code: 'DL', number_last_four: '1122' }], seat_preference: 'AISLE' as const,
  updated_at: '2026-11-20T09:00:00Z',
};

describe('profileBody', () => {
  it('leaves blank sensitive fields and an unchanged loyalty list out of a save over a stored profile, so the server keeps them', () => {
    const r = profileBody(profileValues(saved), saved);
    expect(r).toEqual({ ok: true, body: { legal_first_name: 'Ana', legal_last_name: 'Ruiz', seat_preference: 'AISLE' } });
    const opened = profileValues(saved);
    opened.loyalty[0]!.editing = true;
    expect(profileBody(opened, saved)).toMatchObject({ ok: true, body: { legal_first_name: 'Ana' } });
    expect(loyaltyChanged(opened, 2)).toBe(false);
  });

  it('sends what is typed, and an emptied loyalty list as none', () => {
    const v = {
      ...profileValues(saved), date_of_birth: '1990-04-14', known_traveler_number: 'tt 1234567',
      loyalty: [{ ...newLoyaltyRow(), airline_code: 'dl', number: '12345678' }],
    };
    expect(profileBody(v, saved)).toMatchObject({ ok: true, body: { date_of_birth: '1990-04-14', known_traveler_number: 'TT1234567', loyalty_programs: [{ airline_code: 'DL', number: '12345678' }] } });
    expect(profileBody({ ...profileValues(saved), loyalty: [] }, saved)).toMatchObject({ ok: true, body: { loyalty_programs: [] } });
  });

  it('clears the saved known traveler number with null', () => {
    const r = profileBody({ ...profileValues(saved), known_traveler_number: 'TT1234567', clear_known_traveler_number: true }, saved);
    expect(r).toEqual({ ok: true, body: { legal_first_name: 'Ana', legal_last_name: 'Ruiz', known_traveler_number: null, seat_preference: 'AISLE' } });
  });

  it('removing one saved program sends the list whole: the kept one asks for its number again instead of vanishing', () => {
    const v = profileValues(saved);
    const removed = { ...v, loyalty: v.loyalty.slice(1) };
    expect(loyaltyChanged(removed, 2)).toBe(true);
    expect(profileBody(removed, saved)).toEqual({ ok: false, errors: { 'loyalty_programs.0.number': RETYPE_NUMBER } });
    removed.loyalty[0] = { ...removed.loyalty[0]!, number: '55661122' };
    expect(profileBody(removed, saved)).toMatchObject({ ok: true, body: { loyalty_programs: [{ airline_code: 'DL', number: '55661122' }] } });
  });

  it('editing one saved program’s airline or adding a program is a change, never silently dropped', () => {
    const v = profileValues(saved);
    const edited = { ...v, loyalty: v.loyalty.map((l, i) => (i === 0 ? { ...l, airline_code: 'AA', editing: true } : l)) };
    expect(profileBody(edited, saved)).toMatchObject({ ok: false, errors: { 'loyalty_programs.0.number': RETYPE_NUMBER, 'loyalty_programs.1.number': RETYPE_NUMBER } });
    const added = { ...v, loyalty: [...v.loyalty, { ...newLoyaltyRow(), airline_code: 'BA', number: '99887766' }] };
    expect(loyaltyChanged(added, 2)).toBe(true);
  });

  it('requires the date of birth on the first save', () => {
    const v = { ...profileValues(null), legal_first_name: 'Ana', legal_last_name: 'Ruiz' };
    expect(profileBody(v, null)).toEqual({ ok: false, errors: { date_of_birth: 'Date of birth is required' } });
  });
});
