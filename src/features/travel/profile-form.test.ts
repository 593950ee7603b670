import { describe, expect, it } from 'vitest';
import { profileBody, profileValues } from './profile-form.ts';

const saved = {
  legal_first_name: 'Ana', legal_middle_name: null, legal_last_name: 'Ruiz', date_of_birth_masked: '••••-••-14', known_traveler_number_last_four: '4567',
  loyalty_programs: [{ airline_code: 'UA', number_last_four: '7766' }], seat_preference: 'AISLE' as const, updated_at: '2026-11-20T09:00:00Z',
};

describe('profileBody', () => {
  it('leaves blank sensitive fields out of a save over a stored profile, so the server keeps them', () => {
    const r = profileBody(profileValues(saved), true);
    expect(r).toEqual({ ok: true, body: { legal_first_name: 'Ana', legal_last_name: 'Ruiz', seat_preference: 'AISLE' } });
  });
  it('sends what is typed, and an emptied loyalty list as none', () => {
    const v = { ...profileValues(saved), date_of_birth: '1990-04-14', known_traveler_number: 'tt 1234567', loyalty: [{ airline_code: 'dl', number: '12345678' }] };
    expect(profileBody(v, true)).toMatchObject({ ok: true, body: { date_of_birth: '1990-04-14', known_traveler_number: 'TT1234567', loyalty_programs: [{ airline_code: 'DL', number: '12345678' }] } });
    expect(profileBody({ ...profileValues(saved), loyalty: [] }, true)).toMatchObject({ ok: true, body: { loyalty_programs: [] } });
  });
  it('requires the date of birth on the first save', () => {
    const v = { ...profileValues(null), legal_first_name: 'Ana', legal_last_name: 'Ruiz' };
    expect(profileBody(v, false)).toEqual({ ok: false, errors: { date_of_birth: 'Date of birth is required' } });
  });
});
