import { randomBytes, randomUUID } from 'node:crypto';
import type { MailTemplateValues } from '../../mail/templates.ts';
import { linkTransition, networkEmailRefusal, type LinkStatus } from '../../../schema/vendor-network.ts';
import { foldEmail } from '../../auth/email-address.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { hashToken } from '../admin-users.ts';
import { writeMirrored } from '../collections.ts';
import { findVendor } from '../vendors.ts';
import { stampVendor } from './shared.ts';

/**
 * Inviting a payer's vendor to the network and joining it (issue 31, §2.4). The invite is mailed
 * with a link token (sha256 at rest, `network_vendor_links.invite_token_hash`); whoever opens the
 * link proves the mailbox. Joining makes (or reuses) the identity's network vendor, its admin row,
 * the payer's link ACTIVE and a hidden VENDOR_NETWORK_ADMIN spend user in the paying business
 * (ACTIVE at once: §4's invite-pending exception), written through the mirrored write path.
 */
export type NetworkInvite = { vendor_id: string; invited_email: string; status: 'INVITED' | 'ACTIVE' | 'DECLINED'; invited_at: string };
export type IssuedNetworkInvite = { invite: NetworkInvite; token: string; vendorName: string; payerName: string };

/** BILL_PAY_7017 (nothing written) for an address the network cannot invite. */
export async function assertNetworkEmail(db: Queryable, businessId: string, email: string): Promise<string> {
  const members = await db.query<{ email: string }>('SELECT lower(email) AS email FROM spend_users WHERE business_id = $1 AND NOT deleted', [businessId]);
  const reason = networkEmailRefusal(email, members.map((m) => m.email));
  if (reason) throw new ApiError('BILL_PAY_7017', reason, { email: reason });
  return foldEmail(email);
}

/**
 * Invites (or re-invites with a fresh link) the payer's live vendor; an ACTIVE link is refused
 * (the vendor already joined). Stamps the vendor (its doc's `network` changes). Call inside a transaction.
 */
export async function inviteVendor(tx: Queryable, user: ActingUser, vendorId: string, email: string, now: Date): Promise<IssuedNetworkInvite> {
  const folded = await assertNetworkEmail(tx, user.business_id, email);
  return writeMirrored(tx, user.business_id, 1, async ({ seqs }) => {
    const vendor = await findVendor(tx, user.business_id, vendorId, true);
    const [link] = await tx.query<{ status: string }>('SELECT status FROM network_vendor_links WHERE vendor_id = $1 FOR UPDATE', [vendorId]);
    if (link?.status === 'ACTIVE') throw new ApiError('REQUEST_7001', 'This vendor has already joined the vendor network.', { email: 'This vendor has already joined the vendor network.' });
    const token = randomBytes(32).toString('base64url');
    const at = now.toISOString();
    await tx.query(
      `INSERT INTO network_vendor_links (id, vendor_id, business_id, invited_email, invited_by, invite_token_hash, status, invited_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'INVITED', $7)
       ON CONFLICT (vendor_id) DO UPDATE SET invited_email = EXCLUDED.invited_email, invited_by = EXCLUDED.invited_by,
         invite_token_hash = EXCLUDED.invite_token_hash, status = 'INVITED', invited_at = EXCLUDED.invited_at`,
      [randomUUID(), vendorId, user.business_id, folded, user.id, hashToken(token), at],
    );
    await stampVendor(tx, vendorId, seqs.last);
    const [payer] = await tx.query<{ name: string }>('SELECT name FROM businesses WHERE id = $1', [user.business_id]);
    return { invite: { vendor_id: vendorId, invited_email: folded, status: 'INVITED', invited_at: at }, token, vendorName: vendor.name, payerName: payer?.name ?? '' };
  });
}

/** The invite mail's values (template `vendor_network_invite`): the link is the only place the token travels. */
export function inviteMail(issued: IssuedNetworkInvite, link: (path: string) => string): MailTemplateValues['vendor_network_invite'] {
  return { payer: issued.payerName, vendor: issued.vendorName, link: link(`/vendor-portal/invite#token=${issued.token}`) };
}

type LinkRow = { id: string; vendor_id: string; business_id: string; invited_email: string; status: NetworkInvite['status']; vendor_name: string; payer_name: string };
const LINK_SQL = `SELECT l.id::text, l.vendor_id::text, l.business_id::text, l.invited_email, l.status, v.name AS vendor_name, b.name AS payer_name
  FROM network_vendor_links l JOIN vendors v ON v.id = l.vendor_id JOIN businesses b ON b.id = l.business_id WHERE l.invite_token_hash = $1`;

/** The link of a token; an unknown token (or a deleted vendor's) is 404. */
export async function findLink(db: Queryable, token: string): Promise<LinkRow> {
  const [row] = await db.query<LinkRow & { deleted: boolean }>(LINK_SQL.replace('v.name AS vendor_name', 'v.name AS vendor_name, v.deleted'), [hashToken(token)]);
  if (!row || row.deleted) throw new ApiError('REQUEST_7004', 'This invite was not found.');
  return row;
}

export const maskEmail = (email: string) => {
  const at = email.indexOf('@');
  return `${email.slice(0, 1)}***${email.slice(at)}`;
};

export async function lookupInvite(db: Queryable, token: string) {
  const link = await findLink(db, token);
  const known = await db.query('SELECT 1 FROM identities WHERE lower(email) = $1', [link.invited_email]);
  return { payer_name: link.payer_name, vendor_name: link.vendor_name, masked_email: maskEmail(link.invited_email), status: link.status, existing_account: known.length > 0 };
}

/**
 * Joins the link of `token` for `identityId` (whose email the caller has matched to the invite):
 * the business row first (writeMirrored), then the link re-read FOR UPDATE, so of two accepts of
 * one invite the second sees it ACTIVE and is refused, writing nothing. Answers the network vendor.
 */
export async function joinNetwork(tx: Queryable, token: string, identityId: string, names: { first_name: string; last_name: string }): Promise<string> {
  const seen = await findLink(tx, token);
  // Two seqs: the hidden spend user's (users) and the vendor's (refs), each row its own.
  return writeMirrored(tx, seen.business_id, 2, async ({ seqs }) => {
    const [link] = await tx.query<{ status: LinkStatus }>('SELECT status FROM network_vendor_links WHERE id = $1 FOR UPDATE', [seen.id]);
    if (!link || linkTransition(link.status, 'join') === null) throw new ApiError('REQUEST_7001', 'This invite has already been used.');
    const networkVendorId = await networkVendorOf(tx, identityId, seen);
    const spendUserId = await hiddenAdmin(tx, seen.business_id, identityId, seen.invited_email, names, seqs.first);
    await tx.query(
      `UPDATE network_vendor_links SET status = 'ACTIVE', network_vendor_id = $2, joined_at = now(), spend_user_id = $3 WHERE id = $1`,
      [seen.id, networkVendorId, spendUserId],
    );
    await stampVendor(tx, seen.vendor_id, seqs.last);
    return networkVendorId;
  });
}

/** The identity's network vendor (a second payer's invite links the same one), else a new one it administers. */
async function networkVendorOf(tx: Queryable, identityId: string, link: LinkRow): Promise<string> {
  const [own] = await tx.query<{ id: string }>(
    'SELECT network_vendor_id::text AS id FROM network_vendor_admins WHERE identity_id = $1 ORDER BY created_at, network_vendor_id LIMIT 1',
    [identityId],
  );
  if (own) return own.id;
  const id = randomUUID();
  await tx.query('INSERT INTO network_vendors (id, legal_name, email) VALUES ($1, $2, $3)', [id, link.vendor_name, link.invited_email]);
  await tx.query('INSERT INTO network_vendor_admins (network_vendor_id, identity_id) VALUES ($1, $2)', [id, identityId]);
  return id;
}

/** The hidden VENDOR_NETWORK_ADMIN user in the paying business (one per identity there: reused for its next link). */
async function hiddenAdmin(
  tx: Queryable, businessId: string, identityId: string, email: string, names: { first_name: string; last_name: string }, seq: number,
): Promise<string> {
  const [existing] = await tx.query<{ id: string }>(
    'SELECT id::text FROM spend_users WHERE business_id = $1 AND identity_id = $2', [businessId, identityId],
  );
  if (existing) return existing.id;
  const id = randomUUID();
  await tx.query(
    `INSERT INTO spend_users (id, business_id, identity_id, role, first_name, last_name, email, status, has_accepted_cardholder_agreement, change_seq)
     VALUES ($1, $2, $3, 'VENDOR_NETWORK_ADMIN', $4, $5, $6, 'ACTIVE', false, $7)`,
    [id, businessId, identityId, names.first_name, names.last_name, email, seq],
  );
  return id;
}
