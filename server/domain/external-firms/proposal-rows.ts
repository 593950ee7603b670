import type { AdvisorRight } from '../../../schema/entities/external-firm.ts';
import type { FirmProposal, ProposalStatus } from '../../../schema/entities/firm-proposal.ts';
import { proposalRefusalMessage, proposalTransition, type ProposalAction, type ProposalSide } from '../../../schema/firm-proposals.ts';
import { sendMail, type MailDeps } from '../../auth/email-otp.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { bindFirmUsers } from './hidden-users.ts';
import { iso } from './sql.ts';

/** Proposal rows as the wire doc, and the one acceptance both sides use (issue 31). */
export const PROPOSAL_DOC = `p.id::text, p.firm_id::text, f.name AS firm_name, p.direction, p.client_email, p.client_name, p.business_id::text,
  p.rights, p.firm_user_ids::text[] AS firm_user_ids, p.status, p.batch_id::text, ${iso('p.created_at')} AS created_at,
  ${iso('p.decided_at')} AS decided_at`;
export const PROPOSAL_FROM = 'external_firm_proposals p JOIN external_firms f ON f.id = p.firm_id';

export async function proposalById(db: Queryable, id: string): Promise<FirmProposal> {
  const [row] = await db.query<FirmProposal>(`SELECT ${PROPOSAL_DOC} FROM ${PROPOSAL_FROM} WHERE p.id = $1`, [id]);
  return row!;
}

/** The next status, or the refusal: FIRM_7002 (decided/revoked, nothing written), 404 when not the side's to take. */
export function nextStatus(status: ProposalStatus, action: ProposalAction, side: ProposalSide): ProposalStatus {
  const next = proposalTransition(status, action, side);
  if (next === 'NOT_YOURS') throw new ApiError('REQUEST_7004');
  if (next === 'FIRM_7002') throw new ApiError('FIRM_7002', proposalRefusalMessage(status, action));
  return next;
}

export async function setStatus(tx: Queryable, id: string, status: ProposalStatus, decidedBy: string | null, now: number): Promise<FirmProposal> {
  const decided = status === 'ACCEPTED' || status === 'REJECTED' || status === 'REVOKED';
  await tx.query('UPDATE external_firm_proposals SET status = $2, decided_by = $3, decided_at = $4 WHERE id = $1', [
    id, status, decided ? decidedBy : null, decided ? new Date(now) : null,
  ]);
  return proposalById(tx, id);
}

/** Mails every ACTIVE admin of a firm. */
export async function mailFirmAdmins(deps: MailDeps, tx: Queryable, firmId: string, subject: string, body: string): Promise<void> {
  const admins = await tx.query<{ email: string }>(
    `SELECT email FROM external_firm_users WHERE firm_id = $1 AND status = 'ACTIVE' AND role = 'EXTERNAL_FIRM_ADMIN' ORDER BY id`, [firmId],
  );
  for (const a of admins) await sendMail(deps, tx, a.email, subject, body);
}

type Acceptance = {
  proposalId: string; firmId: string; businessId: string; rights: AdvisorRight[]; firmUserIds: string[]; decidedBy: string;
};

/**
 * Accepts in the caller's one transaction (the proposal row already locked and checked PENDING):
 * the authorization (FIRM_7001 when the firm already works with the business: the partial unique
 * index decides between two racing accepts of different proposals), the hidden spend users, the
 * proposal ACCEPTED. Mailing the firm is the caller's (it is inside the same transaction too).
 */
export async function accept(tx: Queryable, a: Acceptance, now: number): Promise<{ authorizationId: string; proposal: FirmProposal }> {
  const [auth] = await tx.query<{ id: string }>(
    `INSERT INTO external_firm_authorizations (id, firm_id, business_id, proposal_id, rights, created_at)
     VALUES (gen_random_uuid(), $1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING id::text`,
    [a.firmId, a.businessId, a.proposalId, a.rights, new Date(now)],
  );
  if (!auth) throw new ApiError('FIRM_7001');
  await bindFirmUsers(tx, a.firmId, a.businessId, auth.id, a.firmUserIds);
  await tx.query('UPDATE external_firm_proposals SET business_id = $2, rights = $3 WHERE id = $1', [a.proposalId, a.businessId, a.rights]);
  const proposal = await setStatus(tx, a.proposalId, 'ACCEPTED', a.decidedBy, now);
  return { authorizationId: auth.id, proposal };
}
