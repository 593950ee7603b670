import { randomUUID } from 'node:crypto';
import type { FirmApplication } from '../../../schema/entities/external-firm.ts';
import { screenNames } from '../../../schema/sanctions.ts';
import { checkEmailOtp, issueEmailOtp, useEmailOtp, type MailDeps } from '../../auth/email-otp.ts';
import { markEmailVerified } from '../../auth/email-verification.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { identityOfEmail } from '../admin-users.ts';
import { iso } from './sql.ts';

/**
 * The firm application (issue 31, §4 "advisor console application"): a mailed code proves the
 * mailbox; the names are screened (schema/sanctions.ts); no hit → the firm exists at once with the
 * applicant as its admin, a hit → MANUAL_REVIEW for a person to clear (design §8 Q5).
 */
type ApplyBody = { firm_name: string; email: string; first_name: string; last_name: string };

/** The identity of an address, created (unusable password, mailbox unproven) when new. */
/** Records the (unverified) application and mails its code; earlier unverified ones of the identity go. */
export async function startApplication(deps: MailDeps, tx: Queryable, body: ApplyBody, nowMs: number): Promise<void> {
  const identityId = await identityOfEmail(tx, body.email);
  await tx.query('DELETE FROM external_firm_applications WHERE identity_id = $1 AND verified_at IS NULL', [identityId]);
  await tx.query(
    `INSERT INTO external_firm_applications (id, identity_id, firm_name, admin_first_name, admin_last_name, created_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [randomUUID(), identityId, body.firm_name, body.first_name, body.last_name, new Date(nowMs)],
  );
  await issueEmailOtp(deps, tx, identityId, body.email, nowMs, 'verify-email', (code) => ({
    template: 'firm_application_code', values: { firm: body.firm_name, code },
  }));
}

type Pending = { id: string; identity_id: string; firm_name: string; admin_first_name: string; admin_last_name: string; email: string };

/** Checks the code (a wrong guess is counted outside any transaction) and uses it up. */
export async function checkApplyCode(db: Queryable, email: string, code: string, nowMs: number): Promise<Pending> {
  const [pending] = await db.query<Pending>(
    `SELECT a.id::text, a.identity_id::text, a.firm_name, a.admin_first_name, a.admin_last_name, i.email
       FROM identities i JOIN external_firm_applications a ON a.identity_id = i.id AND a.verified_at IS NULL
      WHERE lower(i.email) = $1 ORDER BY a.created_at DESC LIMIT 1`,
    [email],
  );
  if (!pending) throw new ApiError('PROFILE_7017');
  const check = await checkEmailOtp(db, pending.identity_id, code, nowMs, 'verify-email');
  if (check.refusal) throw new ApiError(check.refusal);
  if (!(await useEmailOtp(db, check.otpId, nowMs))) throw new ApiError('PROFILE_7017');
  return pending;
}

/** Screens and decides, in the caller's transaction: the firm (APPROVED) or MANUAL_REVIEW. */
export async function decideApplication(tx: Queryable, p: Pending, nowMs: number): Promise<{ firmId: string; firmUserId: string } | { applicationId: string }> {
  const now = new Date(nowMs);
  await markEmailVerified(tx, p.identity_id, now);
  const hits = screenNames([p.firm_name, `${p.admin_first_name} ${p.admin_last_name}`]);
  if (hits.length > 0) {
    await tx.query(
      `UPDATE external_firm_applications SET verified_at = $2, status = 'MANUAL_REVIEW', reasons = $3 WHERE id = $1`,
      [p.id, now, ['A name on this application needs a manual check. We will email you once it is done.']],
    );
    return { applicationId: p.id };
  }
  const firmId = randomUUID();
  const firmUserId = randomUUID();
  await tx.query('INSERT INTO external_firms (id, name, created_at) VALUES ($1, $2, $3)', [firmId, p.firm_name, now]);
  await tx.query(
    `INSERT INTO external_firm_users (id, firm_id, identity_id, role, first_name, last_name, email, created_at)
     VALUES ($1, $2, $3, 'EXTERNAL_FIRM_ADMIN', $4, $5, $6, $7)`,
    [firmUserId, firmId, p.identity_id, p.admin_first_name, p.admin_last_name, p.email, now],
  );
  await tx.query(
    `UPDATE external_firm_applications SET verified_at = $2, status = 'APPROVED', firm_id = $3, decided_at = $2 WHERE id = $1`,
    [p.id, now, firmId],
  );
  return { firmId, firmUserId };
}

export async function readApplication(db: Queryable, id: string): Promise<FirmApplication> {
  const [row] = await db.query<FirmApplication>(
    `SELECT id::text, firm_name, status, reasons, firm_id::text,
            ${iso('created_at')} AS created_at, ${iso('decided_at')} AS decided_at
       FROM external_firm_applications WHERE id = $1`,
    [id],
  );
  if (!row) throw new ApiError('REQUEST_7004');
  return row;
}
