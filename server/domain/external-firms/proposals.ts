import { randomUUID } from 'node:crypto';
import type { AdvisorRight } from '../../../schema/entities/external-firm.ts';
import type { FirmProposal, ProposalStatus } from '../../../schema/entities/firm-proposal.ts';
import type { ProposalAction } from '../../../schema/firm-proposals.ts';
import { sendMail, type MailDeps } from '../../auth/email-otp.ts';
import { ApiError, validationError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { eachOnItsOwn, type BulkItem } from '../bulk-items.ts';
import { assertFirmAdmin, type FirmCaller } from './firm-caller.ts';
import { accept, mailFirmAdmins, nextStatus, PROPOSAL_DOC, PROPOSAL_FROM, proposalById, setStatus } from './proposal-rows.ts';

/** The firm's side of proposals (issue 31): create, validate (mails the client), revoke, bulk, list, accept a business's. */
type ProposalBody = { client_email: string; client_name: string; rights: AdvisorRight[]; firm_user_ids: string[]; client_key?: string | undefined };

/** FIRM_7001: a business whose owner or admin has this address already works with the firm. */
async function assertNotAClientYet(tx: Queryable, firmId: string, email: string): Promise<void> {
  const rows = await tx.query(
    `SELECT 1 FROM external_firm_authorizations a JOIN spend_users s ON s.business_id = a.business_id
      WHERE a.firm_id = $1 AND a.status = 'ACTIVE' AND lower(s.email) = $2 AND NOT s.deleted
        AND s.role IN ('BUSINESS_OWNER', 'BUSINESS_ADMIN') LIMIT 1`,
    [firmId, email],
  );
  if (rows.length > 0) throw new ApiError('FIRM_7001');
}

async function checkFirmUsers(tx: Queryable, firmId: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const found = await tx.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM external_firm_users WHERE firm_id = $1 AND status = 'ACTIVE' AND id = ANY($2::uuid[])`, [firmId, [...new Set(ids)]],
  );
  if (found[0]!.n !== new Set(ids).size) throw validationError({ firm_user_ids: 'firm_user_ids must be members of your firm' });
}

export async function createProposal(tx: Queryable, caller: FirmCaller, body: ProposalBody, now: number, batchId: string | null = null): Promise<FirmProposal> {
  assertFirmAdmin(caller);
  const email = body.client_email.trim().toLowerCase();
  await checkFirmUsers(tx, caller.firmId, body.firm_user_ids);
  await assertNotAClientYet(tx, caller.firmId, email);
  const firmUserIds = body.firm_user_ids.length > 0 ? [...new Set(body.firm_user_ids)] : [caller.firmUserId];
  const id = randomUUID();
  // The partial unique index holds one open proposal per client address: a second is FIRM_7001 too.
  const inserted = await tx.query(
    `INSERT INTO external_firm_proposals (id, firm_id, direction, client_email, client_name, rights, firm_user_ids, status, created_by,
                                          batch_id, client_key, created_at)
     VALUES ($1, $2, 'FIRM_TO_BUSINESS', $3, $4, $5, $6, 'DRAFT', $7, $8, $9, $10) ON CONFLICT DO NOTHING RETURNING 1`,
    [id, caller.firmId, email, body.client_name, body.rights, firmUserIds, caller.identityId, batchId, body.client_key ?? null, new Date(now)],
  );
  if (inserted.length === 0) throw new ApiError('FIRM_7001', 'Your firm already has an open proposal to this client.');
  return proposalById(tx, id);
}

/** The firm's own proposal, locked; another firm's id answers 404. */
async function lockOwn(tx: Queryable, caller: FirmCaller, id: string): Promise<FirmProposal> {
  const [row] = await tx.query<{ id: string }>('SELECT id::text FROM external_firm_proposals WHERE id = $1 AND firm_id = $2 FOR UPDATE', [id, caller.firmId]);
  if (!row) throw new ApiError('REQUEST_7004');
  return proposalById(tx, id);
}

/** validate (DRAFT → PENDING, mails the client's address) or revoke (DRAFT|PENDING → REVOKED). */
export async function decideOwn(
  deps: MailDeps, tx: Queryable, caller: FirmCaller, id: string, action: Extract<ProposalAction, 'validate' | 'revoke'>, now: number, links: (p: string) => string,
): Promise<FirmProposal> {
  assertFirmAdmin(caller);
  const p = await lockOwn(tx, caller, id);
  if (p.direction !== 'FIRM_TO_BUSINESS') throw new ApiError('REQUEST_7004');
  const next = nextStatus(p.status, action, 'proposer');
  const updated = await setStatus(tx, id, next, caller.identityId, now);
  if (action === 'validate') {
    await sendMail(deps, tx, p.client_email, `${p.firm_name} would like to work on your books`,
      `${p.firm_name} proposes to work with ${p.client_name} on Ledgerline (${p.rights.join(', ')}). ` +
      `Review it in Settings → Accounting firms: ${links('/settings/accounting-firms')}`);
  }
  return updated;
}

export async function bulkDecide(
  deps: MailDeps, tx: Queryable, caller: FirmCaller, action: 'validate' | 'revoke', ids: readonly string[], now: number, links: (p: string) => string,
): Promise<BulkItem<FirmProposal>[]> {
  assertFirmAdmin(caller);
  return eachOnItsOwn(tx, ids, (id) => decideOwn(deps, tx, caller, id, action, now, links));
}

export async function listProposals(db: Queryable, caller: FirmCaller, status: ProposalStatus | undefined): Promise<FirmProposal[]> {
  assertFirmAdmin(caller);
  return db.query<FirmProposal>(
    `SELECT ${PROPOSAL_DOC} FROM ${PROPOSAL_FROM} WHERE p.firm_id = $1 AND ($2::text IS NULL OR p.status = $2)
      ORDER BY p.created_at DESC, p.id LIMIT 500`,
    [caller.firmId, status ?? null],
  );
}

/** A business's proposal to this firm, accepted by a firm admin (who is bound to the client). */
export async function acceptBusinessProposal(deps: MailDeps, tx: Queryable, caller: FirmCaller, id: string, now: number): Promise<FirmProposal> {
  assertFirmAdmin(caller);
  const p = await lockOwn(tx, caller, id);
  if (p.direction !== 'BUSINESS_TO_FIRM' || !p.business_id) throw new ApiError('REQUEST_7004');
  nextStatus(p.status, 'accept', 'receiver');
  const { proposal } = await accept(tx, {
    proposalId: id, firmId: caller.firmId, businessId: p.business_id, rights: p.rights,
    firmUserIds: [caller.firmUserId], decidedBy: caller.identityId,
  }, now);
  await mailFirmAdmins(deps, tx, caller.firmId, `${p.client_name} is now a client`, `${p.client_name} is now a client of ${p.firm_name} on Ledgerline.`);
  return proposal;
}
