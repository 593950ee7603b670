import type { SecurityContact, SecurityContactInput } from '../../../schema/business-settings.ts';
import { isAdmin } from '../../../schema/roles.ts';
import { sendMail, type MailDeps } from '../../auth/email-otp.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';

/**
 * Issue 32, the business's security contact (business_security_contacts, migration 085): owners
 * and admins read and set it. A change is itself a security event: the contact named is told, and
 * the one replaced or removed is told too (mail enqueued in the write's transaction).
 */
const ONLY_ADMINS = 'Only owners and administrators can manage the security contact.';

export function assertBusinessAdmin(user: ActingUser, message: string): void {
  if (!isAdmin(user)) throw new ApiError('FORBIDDEN_7003', message);
}

type Row = { name: string; email: string; phone: string | null; updated_at: string };

async function contactRow(db: Queryable, businessId: string, lock = false): Promise<Row | null> {
  const [row] = await db.query<Row>(
    `SELECT name, email, phone, ll_iso(updated_at) AS updated_at FROM business_security_contacts WHERE business_id = $1${lock ? ' FOR UPDATE' : ''}`,
    [businessId],
  );
  return row ?? null;
}

/** The contact as stored (for the mail layer and the settings list), with no permission check. */
export async function storedSecurityContact(db: Queryable, businessId: string): Promise<SecurityContact['contact']> {
  return contactRow(db, businessId);
}

export async function readSecurityContact(db: Queryable, user: ActingUser): Promise<SecurityContact> {
  assertBusinessAdmin(user, ONLY_ADMINS);
  return { contact: await contactRow(db, user.business_id) };
}

async function businessName(db: Queryable, businessId: string): Promise<string> {
  const [row] = await db.query<{ name: string }>('SELECT name FROM businesses WHERE id = $1', [businessId]);
  return row?.name ?? 'your business';
}

export async function setSecurityContact(
  tx: Queryable, mail: MailDeps, user: ActingUser, input: SecurityContactInput, now: Date,
): Promise<SecurityContact> {
  assertBusinessAdmin(user, ONLY_ADMINS);
  const old = await contactRow(tx, user.business_id, true);
  await tx.query(
    `INSERT INTO business_security_contacts (business_id, name, email, phone, updated_by, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (business_id) DO UPDATE SET name = $2, email = $3, phone = $4, updated_by = $5, updated_at = $6`,
    [user.business_id, input.name, input.email, input.phone, user.id, now.toISOString()],
  );
  const business = await businessName(tx, user.business_id);
  if (old?.email.toLowerCase() !== input.email.toLowerCase()) {
    await sendMail(mail, tx, input.email, `You are the security contact for ${business}`,
      `${input.name}, an administrator of ${business} named you its security contact on Ledgerline. You will get an email when its security settings change. If this is a mistake, reply to your administrator.`);
    if (old) await noticeRemoved(tx, mail, old, business);
  }
  return { contact: await contactRow(tx, user.business_id) };
}

async function noticeRemoved(tx: Queryable, mail: MailDeps, old: Row, business: string): Promise<void> {
  await sendMail(mail, tx, old.email, `You are no longer the security contact for ${business}`,
    `${old.name}, an administrator of ${business} removed you as its security contact on Ledgerline. You will no longer get its security emails.`);
}

/** Removes the contact (404 when none), telling the one removed. */
export async function deleteSecurityContact(tx: Queryable, mail: MailDeps, user: ActingUser): Promise<SecurityContact> {
  assertBusinessAdmin(user, ONLY_ADMINS);
  const removed = await clearSecurityContact(tx, mail, user.business_id);
  if (!removed) throw new ApiError('REQUEST_7004', 'This business has no security contact.');
  return { contact: null };
}

/** The reset itself (no check): whether there was one. */
export async function clearSecurityContact(tx: Queryable, mail: MailDeps, businessId: string): Promise<boolean> {
  const old = await contactRow(tx, businessId, true);
  if (!old) return false;
  await tx.query('DELETE FROM business_security_contacts WHERE business_id = $1', [businessId]);
  await noticeRemoved(tx, mail, old, await businessName(tx, businessId));
  return true;
}

/** Tells the security contact, if the business has one, about a security change (in the write's transaction). */
export async function noticeSecurityContact(tx: Queryable, mail: MailDeps, businessId: string, subject: string, body: string): Promise<void> {
  const contact = await contactRow(tx, businessId);
  if (contact) await sendMail(mail, tx, contact.email, subject, `${contact.name}, ${body} You get this email as the business's security contact.`);
}
