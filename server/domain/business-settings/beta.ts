import { BETA_PROGRAMMES, BETA_PROGRAMME_IDS, type BetaEnrollment, type BetaProgrammeId } from '../../../schema/business-settings.ts';
import type { MailDeps } from '../../auth/email-otp.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { assertBusinessAdmin, noticeSecurityContact } from './contact.ts';

/**
 * Issue 32, beta enrollment (business_beta_enrollments, migration 085): every member reads the
 * programmes (the flags page says which flags a programme holds on); owners and admins join and
 * leave. While joined, a programme's flags are on (server/auth/settings.ts featureFlagsOf). The
 * programmes turn on access flags (who may be given which role), so the security contact is told.
 */
const ONLY_ADMINS = 'Only owners and administrators can join or leave beta programmes.';

export async function readBetaEnrollment(db: Queryable, businessId: string): Promise<BetaEnrollment> {
  const rows = await db.query<{ programme: string; at: string }>(
    'SELECT programme, ll_iso(enrolled_at) AS at FROM business_beta_enrollments WHERE business_id = $1', [businessId],
  );
  const joined = new Map(rows.map((r) => [r.programme, r.at]));
  return {
    programmes: BETA_PROGRAMME_IDS.map((id) => ({
      id, name: BETA_PROGRAMMES[id].name, description: BETA_PROGRAMMES[id].description,
      flags: [...BETA_PROGRAMMES[id].flags], enrolled_at: joined.get(id) ?? null,
    })),
  };
}

const names = (ids: readonly string[]) => ids.map((id) => BETA_PROGRAMMES[id as BetaProgrammeId]?.name ?? id).join(', ');

export async function joinBetaProgrammes(
  tx: Queryable, mail: MailDeps, user: ActingUser, programmes: readonly BetaProgrammeId[], now: Date,
): Promise<BetaEnrollment> {
  assertBusinessAdmin(user, ONLY_ADMINS);
  const added = await tx.query<{ programme: string }>(
    `INSERT INTO business_beta_enrollments (business_id, programme, enrolled_by, enrolled_at)
     SELECT $1, p, $2, $3 FROM unnest($4::text[]) p ON CONFLICT DO NOTHING RETURNING programme`,
    [user.business_id, user.id, now.toISOString(), [...new Set(programmes)]],
  );
  if (added.length > 0) {
    await noticeSecurityContact(tx, mail, user.business_id, 'Your business joined a beta programme',
      `an administrator joined ${names(added.map((a) => a.programme))} on Ledgerline, which turns on: ${added.flatMap((a) => BETA_PROGRAMMES[a.programme as BetaProgrammeId].flags).join(', ')}.`);
  }
  return readBetaEnrollment(tx, user.business_id);
}

/** Leaves every programme; the reset itself, with no check. Returns the programmes left. */
export async function clearBetaEnrollment(tx: Queryable, mail: MailDeps, businessId: string): Promise<string[]> {
  const left = await tx.query<{ programme: string }>('DELETE FROM business_beta_enrollments WHERE business_id = $1 RETURNING programme', [businessId]);
  if (left.length > 0) {
    await noticeSecurityContact(tx, mail, businessId, 'Your business left its beta programmes',
      `an administrator left ${names(left.map((l) => l.programme))} on Ledgerline; the flags they turned on are back to the business's own settings.`);
  }
  return left.map((l) => l.programme);
}

/** DELETE beta-enrollment: leaves every programme (404 when in none). */
export async function leaveBetaProgrammes(tx: Queryable, mail: MailDeps, user: ActingUser): Promise<BetaEnrollment> {
  assertBusinessAdmin(user, ONLY_ADMINS);
  const left = await clearBetaEnrollment(tx, mail, user.business_id);
  if (left.length === 0) throw new ApiError('REQUEST_7004', 'This business is not in any beta programme.');
  return readBetaEnrollment(tx, user.business_id);
}
