import { randomUUID } from 'node:crypto';
import type { FirmClientApplication } from '../../../schema/api/calls-financing-starts.ts';
import { applicationTransition, type ApplicationStatus } from '../../../schema/application-rules.ts';
import { financingApplicationLabel } from '../../../schema/identity-rules.ts';
import { foldEmail } from '../../auth/email-address.ts';
import { sendMail, type MailDeps } from '../../auth/email-otp.ts';
import { encryptBankValue, loadVendorBankKey } from '../../auth/vendor-bank-crypto.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { identityOfEmail } from '../admin-users.ts';
import { assertFirmAdmin, type FirmCaller } from '../external-firms/firm-caller.ts';
import { networkVendorRow, openNetwork } from '../vendor-network/shared.ts';
import { applicationContext } from './draft.ts';

/**
 * Issue 31, financing applications started for someone else (schema/api/calls-financing-starts.ts):
 * a firm admin starts one for a client, whose applicant finishes it after a mailed code
 * (`application.start`/`verify`: verify resumes the newest draft the identity is the APPLICANT of);
 * a network vendor's portal user starts one for its own company, prefilled from the portal profile.
 * The client's `id` makes a PUT idempotent: the row is inserted `ON CONFLICT (id) DO NOTHING`, so of
 * two PUTs of one id (even at once) one creates and the other answers what it created. The
 * applicant's names sit on `financing_application_users` as `application.start` leaves them, where
 * the decision engine screens them against the sanctions list at submit.
 */
type Links = (path: string) => string;
type FirmPut = { id: string; client_name: string; applicant_email: string; applicant_first_name: string; applicant_last_name: string };
const notFound = () => new ApiError('REQUEST_7004', 'There is no such application.');

type FirmApplicationRow = {
  id: string; business_name: string | null; applicant_email: string | null; status: ApplicationStatus; business_id: string | null;
  created_at: string; submitted_at: string | null;
};
const FIRM_APPLICATION_SQL = `SELECT a.id::text, a.business_name, a.status, a.business_id::text, ll_iso(a.created_at) AS created_at,
    ll_iso(a.submitted_at) AS submitted_at,
    (SELECT i.email FROM financing_application_users u JOIN identities i ON i.id = u.identity_id
      WHERE u.financing_application_id = a.id AND u.role = 'APPLICANT' ORDER BY u.created_at LIMIT 1) AS applicant_email
  FROM financing_applications a`;

const firmApplicationDoc = (r: FirmApplicationRow): FirmClientApplication => ({
  id: r.id,
  label: financingApplicationLabel(r),
  client_name: r.business_name ?? '',
  applicant_email: r.applicant_email ?? '',
  status: r.status,
  business_id: r.business_id,
  created_at: r.created_at,
  submitted_at: r.submitted_at,
});

/** One of the firm's applications, or 404 (another firm's, or one no firm started: no oracle). */
async function firmApplication(db: Queryable, firmId: string, id: string): Promise<FirmClientApplication> {
  const [row] = await db.query<FirmApplicationRow>(`${FIRM_APPLICATION_SQL} WHERE a.id = $1 AND a.external_firm_id = $2`, [id, firmId]);
  if (!row) throw notFound();
  return firmApplicationDoc(row);
}

/** The firm's applications, newest first (any member of the firm may read them). */
export async function listFirmApplications(db: Queryable, caller: FirmCaller): Promise<FirmClientApplication[]> {
  const rows = await db.query<FirmApplicationRow>(
    `${FIRM_APPLICATION_SQL} WHERE a.external_firm_id = $1 ORDER BY a.created_at DESC, a.id DESC`, [caller.firmId]);
  return rows.map(firmApplicationDoc);
}

/**
 * A firm admin starts an application for a client (one transaction): a DRAFT named after the
 * client with the firm on it and the admin as its creator (approval assigns them to the business),
 * the applicant's identity (created without a password when new) as APPLICANT with the given names,
 * and a mail to the applicant with the link to continue. The same id again answers the same
 * application and mails nothing; an id that is not one of this firm's applications is 404.
 */
export async function putFirmApplication(
  deps: MailDeps, tx: Queryable, caller: FirmCaller, body: FirmPut, now: number, links: Links,
): Promise<FirmClientApplication> {
  assertFirmAdmin(caller);
  const at = new Date(now);
  const created = await tx.query(
    `INSERT INTO financing_applications (id, business_name, external_firm_id, created_by_identity_id, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (id) DO NOTHING RETURNING id`,
    [body.id, body.client_name, caller.firmId, caller.identityId, at]);
  if (created.length === 0) return firmApplication(tx, caller.firmId, body.id);
  const email = foldEmail(body.applicant_email);
  const identityId = await identityOfEmail(tx, email);
  await tx.query(
    `INSERT INTO financing_application_users (financing_application_id, identity_id, role, first_name, last_name, created_at)
     VALUES ($1, $2, 'APPLICANT', $3, $4, $5)`,
    [body.id, identityId, body.applicant_first_name, body.applicant_last_name, at]);
  const [firm] = await tx.query<{ name: string }>('SELECT name FROM external_firms WHERE id = $1', [caller.firmId]);
  await sendMail(deps, tx, email, `${firm!.name} started your Ledgerline financing application`,
    `${firm!.name} started a Ledgerline financing application for ${body.client_name} and named you, ${body.applicant_first_name}, as the applicant. `
    + `Continue it here: ${links(`/application/start?email=${encodeURIComponent(email)}`)} (we will email you a code to sign in). `
    + 'If you do not expect it, ignore this email.');
  return firmApplication(tx, caller.firmId, body.id);
}

/**
 * The firm withdraws one of its applications before a decision (the status machine's DRAFT →
 * WITHDRAWN; APPLICATION_7001 once submitted or decided): the applicant no longer holds it, so its
 * tokens end at once. Withdrawing a withdrawn one answers it again; another firm's is 404.
 */
export async function withdrawFirmApplication(tx: Queryable, caller: FirmCaller, id: string, now: number): Promise<FirmClientApplication> {
  assertFirmAdmin(caller);
  const [row] = await tx.query<{ status: ApplicationStatus }>(
    'SELECT status FROM financing_applications WHERE id = $1 AND external_firm_id = $2 FOR UPDATE', [id, caller.firmId]);
  if (!row) throw notFound();
  if (row.status !== 'WITHDRAWN') {
    const next = applicationTransition(row.status, 'withdraw');
    if (!next) throw new ApiError('APPLICATION_7001');
    await tx.query('UPDATE financing_applications SET status = $2, version = version + 1, updated_at = $3 WHERE id = $1', [id, next, new Date(now)]);
  }
  return firmApplication(tx, caller.firmId, id);
}

export type VendorApplicationAnswer = { financing_application_id: string; status: ApplicationStatus; prefilled: string[] };

/** The steps of an application holding what the portal profile fills (the answer to a repeated PUT). */
async function filledSteps(db: Queryable, id: string): Promise<string[]> {
  const [row] = await db.query<{ named: boolean; accounts: number }>(
    `SELECT a.business_name IS NOT NULL AS named, (SELECT count(*)::int FROM application_bank_accounts b WHERE b.financing_application_id = a.id) AS accounts
       FROM financing_applications a WHERE a.id = $1`, [id]);
  return [...(row?.named ? ['business_name'] : []), ...((row?.accounts ?? 0) > 0 ? ['bank_accounts'] : [])];
}

/** The portal user's names: those of its hidden spend user in a payer of this network vendor (held by the portal's membership). */
async function portalUserNames(db: Queryable, networkVendorId: string, identityId: string) {
  const [names] = await db.query<{ first_name: string; last_name: string }>(
    `SELECT su.first_name, su.last_name FROM network_vendor_links l JOIN spend_users su ON su.id = l.spend_user_id
      WHERE l.network_vendor_id = $1 AND su.identity_id = $2 AND NOT su.deleted ORDER BY l.joined_at, l.vendor_id LIMIT 1`,
    [networkVendorId, identityId]);
  return names ?? { first_name: '', last_name: '' };
}

/** The network vendor's ACH account as the application's bank account: the ciphers opened and sealed again under the application's AAD. */
async function copyAchAccount(tx: Queryable, appId: string, nv: Awaited<ReturnType<typeof networkVendorRow>>, at: Date): Promise<boolean> {
  if (!nv.bank_type || !nv.bank_routing_cipher || !nv.bank_account_cipher || !nv.bank_routing_last_four || !nv.bank_account_last_four) return false;
  const key = await loadVendorBankKey(tx);
  const accountId = randomUUID();
  const routing = await openNetwork(tx, nv.id, 'routing_number', nv.bank_routing_cipher);
  const account = await openNetwork(tx, nv.id, 'account_number', nv.bank_account_cipher);
  await tx.query(
    `INSERT INTO application_bank_accounts (id, financing_application_id, holder_name, type, routing_cipher, account_cipher,
            routing_last_four, account_last_four, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [accountId, appId, (nv.bank_holder_name || nv.legal_name).slice(0, 200), nv.bank_type,
      encryptBankValue(key, routing, applicationContext(accountId, 'routing_number')),
      encryptBankValue(key, account, applicationContext(accountId, 'account_number')), nv.bank_routing_last_four, nv.bank_account_last_four, at]);
  return true;
}

/**
 * A network vendor's company applies (one transaction): a DRAFT whose APPLICANT is the portal
 * user, named after the vendor's legal name, with its ACH account as the first bank account.
 * `prefilled` names what the profile filled. The same id again answers the same application (the
 * steps it holds now); an id that is not an application this identity applies for is 404.
 */
export async function putVendorApplication(
  tx: Queryable, identityId: string, networkVendorId: string, id: string, now: number,
): Promise<VendorApplicationAnswer> {
  const at = new Date(now);
  const nv = await networkVendorRow(tx, networkVendorId);
  const created = await tx.query(
    `INSERT INTO financing_applications (id, business_name, created_by_identity_id, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $4) ON CONFLICT (id) DO NOTHING RETURNING id`,
    [id, nv.legal_name.slice(0, 200), identityId, at]);
  if (created.length === 0) {
    const [mine] = await tx.query<{ status: ApplicationStatus }>(
      `SELECT a.status FROM financing_applications a JOIN financing_application_users u ON u.financing_application_id = a.id
        WHERE a.id = $1 AND a.external_firm_id IS NULL AND u.identity_id = $2 AND u.role = 'APPLICANT'`, [id, identityId]);
    if (!mine) throw notFound();
    return { financing_application_id: id, status: mine.status, prefilled: await filledSteps(tx, id) };
  }
  const names = await portalUserNames(tx, networkVendorId, identityId);
  await tx.query(
    `INSERT INTO financing_application_users (financing_application_id, identity_id, role, first_name, last_name, created_at)
     VALUES ($1, $2, 'APPLICANT', $3, $4, $5)`, [id, identityId, names.first_name, names.last_name, at]);
  const banked = await copyAchAccount(tx, id, nv, at);
  return { financing_application_id: id, status: 'DRAFT', prefilled: ['business_name', ...(banked ? ['bank_accounts'] : [])] };
}
