import { z } from 'zod';
import type { TravelerProfile, TravelerProfileBody } from '../../../schema/travel-policy.ts';
import type { ActingUser } from '../../core/actor.ts';
import type { Queryable } from '../../db/db.ts';
import { validationError } from '../../core/errors.ts';
import { decryptBankValue, encryptBankValue, loadServerKey } from '../../auth/vendor-bank-crypto.ts';

/**
 * The traveller's profile (issue 27): one per user, read and written by that user alone (the
 * call takes no user id). The date of birth, known traveller number and loyalty numbers are
 * encrypted together at rest (AES-256-GCM, the vendor bank numbers' helper, the user id as
 * additional data so a ciphertext copied to another row fails to open); the masked forms kept
 * beside them are all any read answers. Writing needs the `sensitive` scope (after step-up),
 * which the call's auth spec enforces before the handler runs.
 *
 * The key: TRAVEL_PROFILE_KEY (32 bytes, hex or base64) when set, else one random key in server_keys.
 */
const KEY_NAME = 'traveler_profile';
const context = (userId: string) => `traveler_profile:${userId}`;
const loadKey = (db: Queryable) => loadServerKey(db, KEY_NAME, process.env.TRAVEL_PROFILE_KEY);

/** The encrypted part, as the booking sends it on to the airline. */
const secretSchema = z.object({
  date_of_birth: z.iso.date(),
  known_traveler_number: z.string().nullable(),
  loyalty_programs: z.array(z.object({ airline_code: z.string(), number: z.string() })),
});
export type TravelerSecret = z.infer<typeof secretSchema>;

type Masked = Pick<TravelerProfile, 'date_of_birth_masked' | 'known_traveler_number_last_four' | 'loyalty_programs'>;

/** The trailing characters a masked number shows: at most four, and never more than it hides ('' up to four long). */
function shownTail(n: string): string {
  const shown = Math.min(4, Math.max(0, n.length - 4));
  return shown === 0 ? '' : n.slice(-shown);
}

/** Only the day of the birth date, and at most the last four of each number (`shownTail`). */
function maskTravelerSecret(s: TravelerSecret): Masked {
  return {
    date_of_birth_masked: `••••-••-${s.date_of_birth.slice(8, 10)}`,
    known_traveler_number_last_four: s.known_traveler_number ? shownTail(s.known_traveler_number) : null,
    loyalty_programs: s.loyalty_programs.map((l) => ({ airline_code: l.airline_code, number_last_four: shownTail(l.number) })),
  };
}

type Row = {
  legal_first_name: string; legal_middle_name: string | null; legal_last_name: string; seat_preference: TravelerProfile['seat_preference'];
  masked: Masked; updated_at: string;
};
const READ = `legal_first_name, legal_middle_name, legal_last_name, seat_preference, masked, ll_iso(updated_at) AS updated_at`;
const answer = (r: Row): TravelerProfile => ({
  legal_first_name: r.legal_first_name, legal_middle_name: r.legal_middle_name, legal_last_name: r.legal_last_name,
  ...r.masked, seat_preference: r.seat_preference, updated_at: r.updated_at,
});

export async function getTravelerProfile(db: Queryable, user: ActingUser): Promise<TravelerProfile | null> {
  const [row] = await db.query<Row>(`SELECT ${READ} FROM traveler_profiles WHERE user_id = $1 AND business_id = $2`, [user.id, user.business_id]);
  return row ? answer(row) : null;
}

/**
 * Writes the caller's profile: the names and seat as sent; a sensitive field left out (undefined)
 * keeps the stored value, since the device never has it to send back. The date of birth is
 * required when there is no stored profile (422 on it).
 */
export async function putTravelerProfile(db: Queryable, user: ActingUser, body: TravelerProfileBody): Promise<TravelerProfile> {
  const stored = await travelerSecretOf(db, user.business_id, user.id);
  const dateOfBirth = body.date_of_birth ?? stored?.date_of_birth;
  if (dateOfBirth === undefined) throw validationError({ date_of_birth: 'date_of_birth is required' });
  const secret: TravelerSecret = {
    date_of_birth: dateOfBirth,
    known_traveler_number: body.known_traveler_number === undefined ? (stored?.known_traveler_number ?? null) : body.known_traveler_number,
    loyalty_programs: body.loyalty_programs ?? stored?.loyalty_programs ?? [],
  };
  const cipher = encryptBankValue(await loadKey(db), JSON.stringify(secret), context(user.id));
  const [row] = await db.query<Row>(
    `INSERT INTO traveler_profiles AS p (user_id, business_id, legal_first_name, legal_middle_name, legal_last_name, seat_preference, secret, masked, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, now())
     ON CONFLICT (user_id) DO UPDATE SET legal_first_name = EXCLUDED.legal_first_name, legal_middle_name = EXCLUDED.legal_middle_name,
       legal_last_name = EXCLUDED.legal_last_name, seat_preference = EXCLUDED.seat_preference, secret = EXCLUDED.secret,
       masked = EXCLUDED.masked, updated_at = now()
     RETURNING ${READ}`,
    [user.id, user.business_id, body.legal_first_name, body.legal_middle_name ?? null, body.legal_last_name, body.seat_preference,
      cipher, JSON.stringify(maskTravelerSecret(secret))],
  );
  return answer(row!);
}

/** The full sensitive fields of a traveller's profile (for the booking), or null without one. */
export async function travelerSecretOf(db: Queryable, businessId: string, userId: string): Promise<TravelerSecret | null> {
  const [row] = await db.query<{ secret: string }>('SELECT secret FROM traveler_profiles WHERE user_id = $1 AND business_id = $2', [userId, businessId]);
  return row ? secretSchema.parse(JSON.parse(decryptBankValue(await loadKey(db), row.secret, context(userId)))) : null;
}
