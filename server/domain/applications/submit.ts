import { randomUUID } from 'node:crypto';
import { applicationTransition, decide, submitRefusal, type Decision } from '../../../schema/application-rules.ts';
import { SANCTIONS_LIST, type SanctionsEntry } from '../../../schema/sanctions.ts';
import { loadVendorBankKey } from '../../auth/vendor-bank-crypto.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { approveIntoBusiness } from './approve.ts';
import { applicationSnapshot, findApplication, refusalErrors, type ApplicationRow } from './draft.ts';

type SubmitAnswer = { status: ApplicationRow['status']; decision: { outcome: Decision['outcome']; reasons: string[] } | null; business_id: string | null };

const answerOf = (row: ApplicationRow): SubmitAnswer => ({
  status: row.status,
  decision: row.decision ? { outcome: row.decision.outcome as Decision['outcome'], reasons: row.decision.reasons } : null,
  business_id: row.business_id,
});

/**
 * Submits an application exactly once (design §5), in the caller's transaction with the row
 * locked: a repeat (or the loser of a race, which waits on the lock) answers the decision already
 * made. An unfinished draft is refused with APPLICATION_7002 and `errors` per step and owner,
 * nothing written. Otherwise the engine decides: MANUAL_REVIEW flags the applicant's identity and
 * every matched KYC individual (and the identity of the same email) for sanctions and asks for an
 * ID (an operations document request); APPROVED becomes a business in this same transaction.
 */
export async function submitApplication(
  tx: Queryable, appId: string, now: Date, list: readonly SanctionsEntry[] = SANCTIONS_LIST,
): Promise<SubmitAnswer> {
  const app = await findApplication(tx, appId, true);
  if (!app) throw new ApiError('REQUEST_7004', 'There is no such application.');
  if (app.status !== 'DRAFT') return answerOf(app);
  const today = now.toISOString().slice(0, 10);
  const snapshot = await applicationSnapshot(tx, app, await loadVendorBankKey(tx));
  const refusal = submitRefusal(snapshot, today);
  if (refusal) throw new ApiError('APPLICATION_7002', undefined, refusalErrors(refusal));
  const decision = decide(snapshot, list, today);
  const status = decision.outcome;
  await tx.query(
    `UPDATE financing_applications SET status = $2, submitted_at = $3, decided_at = $3, decision = $4, ofac_status = $5, updated_at = $3
      WHERE id = $1 AND status = 'DRAFT'`,
    [app.id, status === 'APPROVED' ? 'SUBMITTED' : status, now, JSON.stringify({ outcome: decision.outcome, reasons: decision.reasons }),
      decision.ofac.application]);
  for (const [id, ofac] of Object.entries(decision.ofac.individuals)) {
    await tx.query('UPDATE kyc_individuals SET ofac_status = $2 WHERE id = $1', [id, ofac]);
  }
  if (status === 'MANUAL_REVIEW') await flagForReview(tx, app, decision);
  if (status === 'APPROVED') await approveIntoBusiness(tx, { ...app, answers: app.answers }, snapshot, now);
  return answerOf((await findApplication(tx, app.id))!);
}

async function flagForReview(tx: Queryable, app: ApplicationRow, decision: Decision): Promise<void> {
  const matched = Object.entries(decision.ofac.individuals).filter(([, s]) => s === 'MANUAL_REVIEW').map(([id]) => id);
  await tx.query(
    `UPDATE identities SET ofac_status = 'MANUAL_REVIEW'
      WHERE id IN (SELECT identity_id FROM financing_application_users WHERE financing_application_id = $1 AND role = 'APPLICANT')
         OR lower(email) IN (SELECT lower(email) FROM kyc_individuals WHERE id = ANY($2::uuid[]) AND email IS NOT NULL)`,
    [app.id, matched]);
  await tx.query(
    'INSERT INTO operations_document_requests (id, financing_application_id, doc_type, note) VALUES ($1, $2, $3, $4)',
    [randomUUID(), app.id, 'GOVERNMENT_ID', 'Upload a government-issued photo ID for each person named on the application so we can finish a sanctions review.']);
}

/**
 * Operations clear a MANUAL_REVIEW (the `npm run ops:review` CLI; no HTTP call reaches it): approve
 * makes the business as a clean submit would, reject ends it; the identities' flags are cleared
 * (PASSED) on approve, kept on reject. Another status is refused.
 */
export async function reviewApplication(tx: Queryable, appId: string, action: 'approve' | 'reject', now: Date): Promise<SubmitAnswer> {
  const app = await findApplication(tx, appId, true);
  if (!app) throw new Error(`There is no application ${appId}.`);
  if (app.status !== 'MANUAL_REVIEW' || !applicationTransition(app.status, action)) throw new Error(`Application ${appId} is ${app.status}, not in manual review.`);
  const reasons = [...(app.decision?.reasons ?? []), `Operations ${action === 'approve' ? 'approved' : 'rejected'} it after review.`];
  await tx.query('UPDATE financing_applications SET decision = $2, decided_at = $3, ofac_status = $4, updated_at = $3 WHERE id = $1', [
    app.id, JSON.stringify({ outcome: action === 'approve' ? 'APPROVED' : 'REJECTED', reasons }), now,
    action === 'approve' ? 'PASSED' : 'FAILED_MANUAL_CHECK']);
  if (action === 'reject') {
    await tx.query("UPDATE financing_applications SET status = 'REJECTED' WHERE id = $1", [app.id]);
  } else {
    await tx.query(
      `UPDATE identities SET ofac_status = 'PASSED' WHERE ofac_status = 'MANUAL_REVIEW'
          AND id IN (SELECT identity_id FROM financing_application_users WHERE financing_application_id = $1)`, [app.id]);
    const snapshot = await applicationSnapshot(tx, app, await loadVendorBankKey(tx));
    await approveIntoBusiness(tx, app, snapshot, now);
  }
  return answerOf((await findApplication(tx, app.id))!);
}
