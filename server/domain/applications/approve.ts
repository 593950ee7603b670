import { randomUUID } from 'node:crypto';
import type { ApplicationSnapshot } from '../../../schema/application-rules.ts';
import { decryptBankValue, loadVendorBankKey } from '../../auth/vendor-bank-crypto.ts';
import { allocateSeqs, announceChange } from '../../db/change-seq.ts';
import type { Queryable } from '../../db/db.ts';
import { createManualAccount } from '../banking/bank-accounts.ts';
import { bindFirmUsers } from '../external-firms/hidden-users.ts';
import { applicationContext, type ApplicationRow } from './draft.ts';

/**
 * An approved application becomes a business, in the submit's one transaction (design §5): the
 * business (legal name, USD, its address) and its seq counter, the applicant's BUSINESS_OWNER spend
 * user (named by their KYC individual when they are the control person, else by the names they
 * started with; seq taken and announced), the tax info (EIN), the primary entity with the address,
 * each bank account linked UNVERIFIED (awaiting the debit check, issue 30: the business starts it
 * from Banking) with its EXTERNAL_BANK ledger account, and the feature-flag row. An application a
 * firm started (`external_firm_id`) also gives that firm an ACTIVE READ + CODE authorization in the
 * new business (authorizeStartingFirm). Answers the business id.
 */
export async function approveIntoBusiness(tx: Queryable, app: ApplicationRow, snapshot: ApplicationSnapshot, now: Date): Promise<string> {
  const details = snapshot.business_details!;
  const address = (app.answers.business_details as { address?: unknown } | undefined)?.address ?? null;
  const businessId = randomUUID();
  // A firm's referral code the applicant started with (GET /external-firm/referrals) names the
  // firm that referred the business (§7 referrals); a deleted or unknown code names none.
  await tx.query(
    `INSERT INTO businesses (id, name, currency, address, created_at, referred_by_firm_id)
     VALUES ($1, $2, $3, $4, $5, (SELECT r.firm_id FROM financing_applications a
                                    JOIN external_firm_referrals r ON r.code = a.referral_code AND r.deleted_at IS NULL
                                   WHERE a.id = $6))`,
    [businessId, details.legal_name, 'USD', address === null ? null : JSON.stringify(address), now, app.id]);
  const [applicant] = await tx.query<{ identity_id: string; email: string; first_name: string; last_name: string }>(
    `SELECT u.identity_id::text, i.email, u.first_name, u.last_name FROM financing_application_users u JOIN identities i ON i.id = u.identity_id
      WHERE u.financing_application_id = $1 AND u.role = 'APPLICANT' ORDER BY u.created_at LIMIT 1`, [app.id]);
  if (!applicant) throw new Error(`application ${app.id} has no applicant`);
  const control = snapshot.leadership?.control_person as { first_name: string; last_name: string; is_applicant?: boolean } | undefined;
  const names = control?.is_applicant ? control : applicant;
  const ownerId = randomUUID();
  const seq = (await allocateSeqs(tx, businessId, 2))?.first ?? 1;
  await tx.query(
    `INSERT INTO spend_users (id, business_id, identity_id, role, first_name, last_name, email, has_finished_onboarding, change_seq)
     VALUES ($1, $2, $3, 'BUSINESS_OWNER', $4, $5, $6, true, $7)`,
    [ownerId, businessId, applicant.identity_id, names.first_name, names.last_name, applicant.email, seq]);
  await announceChange(tx, businessId, seq);
  await tx.query('INSERT INTO business_tax_info (business_id, legal_name, tin) VALUES ($1, $2, $3)', [businessId, details.legal_name, details.ein]);
  const entityId = randomUUID();
  await tx.query('INSERT INTO business_entities (id, business_id, name, country, currency, address, change_seq) VALUES ($1, $2, $3, $4, $5, $6, $7)',
    [entityId, businessId, details.legal_name, 'US', 'USD', address === null ? null : JSON.stringify(address), seq + 1]);
  await announceChange(tx, businessId, seq + 1);
  await tx.query('INSERT INTO business_feature_flags (business_id, overrides) VALUES ($1, $2) ON CONFLICT (business_id) DO NOTHING', [businessId, '{}']);
  await linkBankAccounts(tx, app.id, { id: ownerId, business_id: businessId, role: 'BUSINESS_OWNER', is_manager: false, user_permissions: [], manager_id: null }, entityId, now);
  if (app.external_firm_id) await authorizeStartingFirm(tx, app, businessId, now);
  await tx.query(
    `UPDATE financing_applications SET business_id = $2, status = 'APPROVED', decided_at = coalesce(decided_at, $3), updated_at = $3 WHERE id = $1`,
    [app.id, businessId, now]);
  return businessId;
}

async function linkBankAccounts(
  tx: Queryable, appId: string, owner: Parameters<typeof createManualAccount>[1], entityId: string, now: Date,
): Promise<void> {
  const rows = await tx.query<{ id: string; holder_name: string; type: 'CHECKING' | 'SAVINGS'; routing_cipher: string; account_cipher: string }>(
    'SELECT id::text, holder_name, type, routing_cipher, account_cipher FROM application_bank_accounts WHERE financing_application_id = $1 ORDER BY created_at, id',
    [appId]);
  if (rows.length === 0) return;
  const key = await loadVendorBankKey(tx);
  for (const r of rows) {
    await createManualAccount(tx, owner, {
      name: r.holder_name.slice(0, 100),
      account_type: r.type,
      routing_number: decryptBankValue(key, r.routing_cipher, applicationContext(r.id, 'routing_number')),
      account_number: decryptBankValue(key, r.account_cipher, applicationContext(r.id, 'account_number')),
      entity_id: entityId,
    }, now);
  }
}

/** The rights a firm gets in the business an application it started became (§5: the proposal's READ and CODE). */
const STARTING_FIRM_RIGHTS = ['READ', 'CODE'] as const;

/**
 * The firm that started the application works for the new business at once: an ACTIVE
 * authorization (READ + CODE, no proposal behind it) with the firm admin who started it assigned
 * through a hidden spend user, as an accepted proposal binds its firm users (bindFirmUsers). When
 * that admin is no longer an ACTIVE member, the firm's ACTIVE admins are assigned instead, so the
 * authorization always has someone to open the client.
 */
async function authorizeStartingFirm(tx: Queryable, app: ApplicationRow, businessId: string, now: Date): Promise<void> {
  const firmId = app.external_firm_id!;
  const starters = await tx.query<{ id: string }>(
    `SELECT id::text FROM external_firm_users WHERE firm_id = $1 AND status = 'ACTIVE'
        AND (identity_id = $2 OR (role = 'EXTERNAL_FIRM_ADMIN' AND NOT EXISTS (
          SELECT 1 FROM external_firm_users s WHERE s.firm_id = $1 AND s.identity_id = $2 AND s.status = 'ACTIVE')))
      ORDER BY id`,
    [firmId, app.created_by_identity_id]);
  const authorizationId = randomUUID();
  await tx.query(
    `INSERT INTO external_firm_authorizations (id, firm_id, business_id, proposal_id, rights, created_at) VALUES ($1, $2, $3, NULL, $4, $5)`,
    [authorizationId, firmId, businessId, [...STARTING_FIRM_RIGHTS], now]);
  await bindFirmUsers(tx, firmId, businessId, authorizationId, starters.map((s) => s.id));
}
