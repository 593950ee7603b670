import type { z } from 'zod';
import { validationMessages } from '../../../schema/errors.ts';
import { travelerProfileBodySchema, type TravelerProfile, type TravelerProfileBody } from '../../../schema/travel-policy.ts';

/**
 * The traveller profile form, pure: the masked profile the server answers fills the names and
 * the seat; the sensitive values (date of birth, known traveller number, loyalty numbers) are
 * never sent back to the device, so a blank one is left out of the save and the server keeps the
 * saved one (the date of birth is required on the first save). Tested.
 */
export interface ProfileValues {
  legal_first_name: string;
  legal_middle_name: string;
  legal_last_name: string;
  date_of_birth: string;
  known_traveler_number: string;
  loyalty: { airline_code: string; number: string }[];
  seat_preference: TravelerProfileBody['seat_preference'];
}

export function profileValues(p: TravelerProfile | null): ProfileValues {
  return {
    legal_first_name: p?.legal_first_name ?? '',
    legal_middle_name: p?.legal_middle_name ?? '',
    legal_last_name: p?.legal_last_name ?? '',
    date_of_birth: '',
    known_traveler_number: '',
    loyalty: p ? p.loyalty_programs.map((l) => ({ airline_code: l.airline_code, number: '' })) : [],
    seat_preference: p?.seat_preference ?? 'NO_PREFERENCE',
  };
}

const upper = (s: string) => s.trim().toUpperCase().replace(/\s+/g, '');

/**
 * The PUT body, or errors per field. `saved`: a profile is stored, so a blank date of birth, known
 * traveller number or set of loyalty numbers (every row's number blank) is left out and kept.
 */
export function profileBody(v: ProfileValues, saved: boolean): { ok: true; body: TravelerProfileBody } | { ok: false; errors: Record<string, string> } {
  const middle = v.legal_middle_name.trim();
  const ktn = upper(v.known_traveler_number);
  const keepLoyalty = v.loyalty.length > 0 && v.loyalty.every((l) => upper(l.number) === '');
  const input = {
    legal_first_name: v.legal_first_name.trim(),
    ...(middle ? { legal_middle_name: middle } : {}),
    legal_last_name: v.legal_last_name.trim(),
    ...(v.date_of_birth ? { date_of_birth: v.date_of_birth } : {}),
    ...(ktn ? { known_traveler_number: ktn } : {}),
    ...(keepLoyalty ? {} : { loyalty_programs: v.loyalty.map((l) => ({ airline_code: upper(l.airline_code), number: upper(l.number) })) }),
    seat_preference: v.seat_preference,
  };
  const parsed = travelerProfileBodySchema.safeParse(input);
  const errors = parsed.success ? {} : validationMessages(parsed.error as z.ZodError, input);
  if (!saved && !v.date_of_birth) errors.date_of_birth ??= 'Date of birth is required';
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, body: parsed.data };
}
