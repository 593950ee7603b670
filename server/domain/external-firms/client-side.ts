import { randomUUID } from 'node:crypto';
import type { AdvisorRight } from '../../../schema/entities/external-firm.ts';
import type { FirmAuthorization } from '../../../schema/entities/firm-authorization.ts';
import type { FirmProposal } from '../../../schema/entities/firm-proposal.ts';
import { narrowedRights } from '../../../schema/firm-proposals.ts';
import { isAdmin } from '../../../schema/roles.ts';
import type { MailDeps } from '../../auth/email-otp.ts';
import type { Actor } from '../../core/actor.ts';
import { ApiError, validationError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { unbindFirmUsers } from './hidden-users.ts';
import { accept, mailFirmAdmins, nextStatus, PROPOSAL_DOC, PROPOSAL_FROM, proposalById, setStatus } from './proposal-rows.ts';
import { iso } from './sql.ts';

/**
 * The client business's side (issue 31, BUSINESS surface, owners and admins): the proposals
 * addressed to it (FIRM_TO_BUSINESS to one of its admins' addresses, or its own BUSINESS_TO_FIRM),
 * accept / reject, its own proposal to a firm, the firms working for it and ending their access.
 */
function assertBusinessAdmin(actor: Actor): void {
  if (!isAdmin(actor.user)) throw new ApiError('FORBIDDEN_7003', 'Only owners and administrators can manage accounting firms.');
}

/** Proposals this business may see: addressed to one of its owners' or admins' emails, or its own. */
const VISIBLE = `p.status <> 'DRAFT' AND (p.business_id = $1 OR (p.direction = 'FIRM_TO_BUSINESS' AND lower(p.client_email) IN (
  SELECT lower(s.email) FROM spend_users s WHERE s.business_id = $1 AND NOT s.deleted AND s.role IN ('BUSINESS_OWNER', 'BUSINESS_ADMIN'))))`;

export async function listClientProposals(db: Queryable, actor: Actor): Promise<FirmProposal[]> {
  assertBusinessAdmin(actor);
  return db.query<FirmProposal>(`SELECT ${PROPOSAL_DOC} FROM ${PROPOSAL_FROM} WHERE ${VISIBLE} ORDER BY p.created_at DESC, p.id LIMIT 500`, [actor.businessId]);
}

async function lockVisible(tx: Queryable, actor: Actor, id: string): Promise<FirmProposal> {
  assertBusinessAdmin(actor);
  const [row] = await tx.query<{ id: string }>(`SELECT p.id::text FROM external_firm_proposals p WHERE p.id = $2 AND ${VISIBLE} FOR UPDATE OF p`, [actor.businessId, id]);
  if (!row) throw new ApiError('REQUEST_7004');
  return proposalById(tx, id);
}

/** Accepts a firm's proposal in one transaction (FIRM_7002 for a decided or revoked one: nothing written). */
export async function acceptClientProposal(deps: MailDeps, tx: Queryable, actor: Actor, id: string, rights: AdvisorRight[] | undefined, now: number): Promise<FirmProposal> {
  const p = await lockVisible(tx, actor, id);
  if (p.direction !== 'FIRM_TO_BUSINESS') throw new ApiError('REQUEST_7004');
  nextStatus(p.status, 'accept', 'receiver');
  const granted = narrowedRights(p.rights, rights);
  if (!granted) throw validationError({ rights: 'rights must be some of the proposal\'s rights, READ included' });
  const { proposal } = await accept(tx, {
    proposalId: id, firmId: p.firm_id, businessId: actor.businessId, rights: granted, firmUserIds: p.firm_user_ids, decidedBy: actor.identityId,
  }, now);
  await mailFirmAdmins(deps, tx, p.firm_id, `${p.client_name} accepted your proposal`,
    `${p.client_name} accepted ${p.firm_name}'s proposal on Ledgerline (${granted.join(', ')}). The client is in your console.`);
  return proposal;
}

export async function rejectClientProposal(deps: MailDeps, tx: Queryable, actor: Actor, id: string, now: number): Promise<FirmProposal> {
  const p = await lockVisible(tx, actor, id);
  if (p.direction !== 'FIRM_TO_BUSINESS') throw new ApiError('REQUEST_7004');
  const updated = await setStatus(tx, id, nextStatus(p.status, 'reject', 'receiver'), actor.identityId, now);
  await mailFirmAdmins(deps, tx, p.firm_id, `${p.client_name} declined your proposal`, `${p.client_name} declined ${p.firm_name}'s proposal on Ledgerline.`);
  return updated;
}

/** The business proposes to a firm, found by one of its admins' email (404 when none). */
export async function proposeToFirm(deps: MailDeps, tx: Queryable, actor: Actor, body: { firm_admin_email: string; rights: AdvisorRight[] }, now: number): Promise<FirmProposal> {
  assertBusinessAdmin(actor);
  const [firm] = await tx.query<{ id: string }>(
    `SELECT f.id::text FROM external_firm_users u JOIN external_firms f ON f.id = u.firm_id
      WHERE lower(u.email) = $1 AND u.status = 'ACTIVE' AND u.role = 'EXTERNAL_FIRM_ADMIN' AND f.status = 'ACTIVE' ORDER BY u.created_at LIMIT 1`,
    [body.firm_admin_email.trim().toLowerCase()],
  );
  if (!firm) throw new ApiError('REQUEST_7004', 'No accounting firm on Ledgerline has an administrator with this email.');
  const live = await tx.query(`SELECT 1 FROM external_firm_authorizations WHERE firm_id = $1 AND business_id = $2 AND status = 'ACTIVE'`, [firm.id, actor.businessId]);
  if (live.length > 0) throw new ApiError('FIRM_7001');
  const [me] = await tx.query<{ email: string; name: string }>(
    'SELECT s.email, b.name FROM spend_users s JOIN businesses b ON b.id = s.business_id WHERE s.id = $1', [actor.user.id],
  );
  const id = randomUUID();
  const inserted = await tx.query(
    `INSERT INTO external_firm_proposals (id, firm_id, direction, client_email, client_name, business_id, rights, status, created_by, created_at)
     VALUES ($1, $2, 'BUSINESS_TO_FIRM', $3, $4, $5, $6, 'PENDING', $7, $8) ON CONFLICT DO NOTHING RETURNING 1`,
    [id, firm.id, me!.email.toLowerCase(), me!.name, actor.businessId, body.rights, actor.identityId, new Date(now)],
  );
  if (inserted.length === 0) throw new ApiError('FIRM_7001', 'There is already an open proposal between this firm and you.');
  await mailFirmAdmins(deps, tx, firm.id, `${me!.name} would like your firm to work on its books`,
    `${me!.name} asks your firm to work with it on Ledgerline (${body.rights.join(', ')}). Accept it in your console's proposals.`);
  return proposalById(tx, id);
}

const AUTH_DOC = `a.id::text, a.firm_id::text, f.name AS firm_name, a.business_id::text, a.rights, a.status, a.ended_by,
  ${iso('a.created_at')} AS created_at, ${iso('a.ended_at')} AS ended_at,
  coalesce((SELECT json_agg(json_build_object('firm_user_id', u.id, 'first_name', u.first_name, 'last_name', u.last_name, 'email', u.email)
              ORDER BY u.last_name, u.id)
     FROM external_firm_authorization_users au JOIN external_firm_users u ON u.id = au.firm_user_id WHERE au.authorization_id = a.id), '[]') AS users`;

export async function listClientFirms(db: Queryable, actor: Actor): Promise<FirmAuthorization[]> {
  assertBusinessAdmin(actor);
  return db.query<FirmAuthorization>(
    `SELECT ${AUTH_DOC} FROM external_firm_authorizations a JOIN external_firms f ON f.id = a.firm_id
      WHERE a.business_id = $1 ORDER BY (a.status = 'ACTIVE') DESC, a.created_at DESC, a.id LIMIT 200`,
    [actor.businessId],
  );
}

/**
 * Ends an authorization (client or firm): ENDED, its hidden users deleted, so every token of them
 * answers FIRM_7005 from the next request (authenticate.ts reads the binding live).
 */
export async function endAuthorization(tx: Queryable, authorizationId: string, scope: { businessId?: string; firmId?: string }, by: 'CLIENT' | 'FIRM', now: number): Promise<FirmAuthorization> {
  const [row] = await tx.query<{ id: string }>(
    `UPDATE external_firm_authorizations SET status = 'ENDED', ended_by = $4, ended_at = $5
      WHERE id = $1 AND status = 'ACTIVE' AND business_id = coalesce($2::uuid, business_id) AND firm_id = coalesce($3::uuid, firm_id) RETURNING id::text`,
    [authorizationId, scope.businessId ?? null, scope.firmId ?? null, by, new Date(now)],
  );
  if (!row) throw new ApiError('REQUEST_7004');
  const [doc] = await tx.query<FirmAuthorization>(`SELECT ${AUTH_DOC} FROM external_firm_authorizations a JOIN external_firms f ON f.id = a.firm_id WHERE a.id = $1`, [authorizationId]);
  await unbindFirmUsers(tx, 'au.authorization_id = $1', [authorizationId]);
  return doc!;
}

export async function endClientFirm(deps: MailDeps, tx: Queryable, actor: Actor, authorizationId: string, now: number): Promise<FirmAuthorization> {
  assertBusinessAdmin(actor);
  const doc = await endAuthorization(tx, authorizationId, { businessId: actor.businessId }, 'CLIENT', now);
  const [biz] = await tx.query<{ name: string }>('SELECT name FROM businesses WHERE id = $1', [actor.businessId]);
  await mailFirmAdmins(deps, tx, doc.firm_id, `${biz!.name} ended your firm's access`, `${biz!.name} ended ${doc.firm_name}'s access on Ledgerline.`);
  return doc;
}
