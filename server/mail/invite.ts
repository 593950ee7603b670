import type { Queryable } from '../db/db.ts';
import { enqueueMail, type MailQueueDeps } from './outbox.ts';
import { mailDate } from './templates.ts';

/**
 * The one invite mail (issue 32): the Team page (admin-users), SCIM and the HRIS import all send
 * it, in the same words, naming who invited (a person) or which integration added the person.
 * Enqueued in the caller's transaction like every mail, so a refused invite mails nothing.
 */

/** Who sent the invite: a person of the business, or an integration by its name ("Okta", "BambooHR"). */
export type InviteSender = { kind: 'person'; userId: string } | { kind: 'integration'; name: string };

/** What the invite mail needs of an issued invite (domain/admin-users.ts IssuedInvite is one). */
export type InviteToMail = { email: string; token: string; invite: { expires_at: string } };

/** The invite's last day, as a reader says it ("7 December 2026"), in UTC like every server date. */
export const inviteExpiry = (expiresAt: string): string => mailDate(expiresAt);

async function inviterName(db: Queryable, businessId: string, by: InviteSender): Promise<string> {
  if (by.kind === 'integration') return by.name;
  const [u] = await db.query<{ name: string; email: string }>(
    `SELECT trim(first_name || ' ' || last_name) AS name, email FROM spend_users WHERE business_id = $1 AND id = $2`,
    [businessId, by.userId],
  );
  return u?.name || u?.email || '';
}

/**
 * Mails an issued invite: `link` turns the app path `/invites/<token>` into the absolute link
 * (the request's origin, or the configured public URL). A business or inviter that cannot be
 * named refuses (MailTemplateError) rather than mail a blank.
 */
export async function sendInviteMail(
  deps: MailQueueDeps, db: Queryable, businessId: string, issued: InviteToMail, by: InviteSender, link: (path: string) => string,
): Promise<void> {
  const [business] = await db.query<{ name: string }>('SELECT name FROM businesses WHERE id = $1', [businessId]);
  await enqueueMail(deps, db, {
    to: issued.email,
    template: 'invite',
    values: {
      business: business?.name ?? '',
      invited_by: await inviterName(db, businessId, by),
      via: by.kind,
      link: link(`/invites/${issued.token}`),
      expires: inviteExpiry(issued.invite.expires_at),
    },
  });
}
