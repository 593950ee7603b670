import type { z } from 'zod';
import { validationMessages } from '../../../schema/errors.ts';
import { travelerProfileBodySchema, type TravelerProfile, type TravelerProfileBody } from '../../../schema/travel-policy.ts';

/**
 * The traveller profile form, pure: the masked profile the server answers fills the names and
 * the seat; the sensitive values (date of birth, known traveller number, loyalty numbers) are
 * never sent back to the device, so a blank one is left out of the save and the server keeps the
 * saved one (the date of birth is required on the first save). The known traveller number is
 * cleared by sending null (the PUT schema allows it). Tested.
 *
 * Loyalty programs: the PUT takes the list whole (`loyalty_programs` replaces the saved list, left
 * out keeps it) and has no way to keep one saved number while changing another. So the rows are
 * left out while every saved row is as it was; once one is added, edited or removed the whole list
 * is sent, and a saved row kept as it was needs its number typed again (said on that row).
 */
export interface LoyaltyRow {
  airline_code: string;
  number: string;
  /** A saved program as the server shows it (null: a row added here). */
  saved: { airline_code: string; number_last_four: string } | null;
  /** Its fields are open (a new row, or a saved one being changed). */
  editing: boolean;
}

export interface ProfileValues {
  legal_first_name: string;
  legal_middle_name: string;
  legal_last_name: string;
  date_of_birth: string;
  known_traveler_number: string;
  /** Remove the saved known traveller number (sent as null). */
  clear_known_traveler_number: boolean;
  loyalty: LoyaltyRow[];
  seat_preference: TravelerProfileBody['seat_preference'];
}

export function profileValues(p: TravelerProfile | null): ProfileValues {
  return {
    legal_first_name: p?.legal_first_name ?? '',
    legal_middle_name: p?.legal_middle_name ?? '',
    legal_last_name: p?.legal_last_name ?? '',
    date_of_birth: '',
    known_traveler_number: '',
    clear_known_traveler_number: false,
    loyalty: p ? p.loyalty_programs.map((l) => ({ airline_code: l.airline_code, number: '', saved: l, editing: false })) : [],
    seat_preference: p?.seat_preference ?? 'NO_PREFERENCE',
  };
}

/** A new, open loyalty row. */
export const newLoyaltyRow = (): LoyaltyRow => ({ airline_code: '', number: '', saved: null, editing: true });

const upper = (s: string) => s.trim().toUpperCase().replace(/\s+/g, '');

/** A saved row nobody changed: same program, no number typed. */
const untouched = (l: LoyaltyRow) => l.saved !== null && upper(l.airline_code) === l.saved.airline_code && upper(l.number) === '';

/** Whether the loyalty list differs from the saved one (a row added, changed or removed). */
export function loyaltyChanged(v: Pick<ProfileValues, 'loyalty'>, savedCount: number): boolean {
  return v.loyalty.length !== savedCount || !v.loyalty.every(untouched);
}

export const RETYPE_NUMBER = 'Type this number again: the list is saved whole, and saved numbers never come back to this device';

/**
 * The PUT body, or errors per field. `saved`: the stored profile (null on the first save), whose
 * blank date of birth, known traveller number and unchanged loyalty list are left out and kept.
 */
export function profileBody(v: ProfileValues, saved: TravelerProfile | null): { ok: true; body: TravelerProfileBody } | { ok: false; errors: Record<string, string> } {
  const middle = v.legal_middle_name.trim();
  const ktn = upper(v.known_traveler_number);
  const clearKtn = v.clear_known_traveler_number && saved !== null;
  const sendLoyalty = saved === null || loyaltyChanged(v, saved.loyalty_programs.length);
  const input = {
    legal_first_name: v.legal_first_name.trim(),
    ...(middle ? { legal_middle_name: middle } : {}),
    legal_last_name: v.legal_last_name.trim(),
    ...(v.date_of_birth ? { date_of_birth: v.date_of_birth } : {}),
    ...(clearKtn ? { known_traveler_number: null } : ktn ? { known_traveler_number: ktn } : {}),
    ...(sendLoyalty ? { loyalty_programs: v.loyalty.map((l) => ({ airline_code: upper(l.airline_code), number: upper(l.number) })) } : {}),
    seat_preference: v.seat_preference,
  };
  const parsed = travelerProfileBodySchema.safeParse(input);
  const errors = parsed.success ? {} : validationMessages(parsed.error as z.ZodError, input);
  if (sendLoyalty) {
    v.loyalty.forEach((l, i) => {
      if (l.saved !== null && upper(l.number) === '') errors[`loyalty_programs.${i}.number`] = RETYPE_NUMBER;
    });
  }
  if (!saved && !v.date_of_birth) errors.date_of_birth ??= 'Date of birth is required';
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, body: parsed.data };
}
