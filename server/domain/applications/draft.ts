import { decryptBankValue } from '../../auth/vendor-bank-crypto.ts';
import { isValidSsn, submitRefusal, type ApplicationSnapshot, type ApplicationStatus, type SubmitRefusal } from '../../../schema/application-rules.ts';
import type { FinancingApplication } from '../../../schema/entities/financing-application.ts';
import type { Queryable } from '../../db/db.ts';

/**
 * Reading a financing application (issue 31): the whole draft as its applicant sees it (SSN and
 * bank numbers as last four only) and the snapshot the pure rules read (schema/application-rules.ts).
 * Ciphers use the vendor bank key with AAD `financing_application:<row id>:<field>`.
 */
export const applicationContext = (rowId: string, field: 'ssn' | 'routing_number' | 'account_number') =>
  `financing_application:${rowId}:${field}`;

export type ApplicationRow = {
  id: string; status: ApplicationStatus; version: number; business_name: string | null; current_step: string | null;
  answers: Record<string, unknown>; decision: { outcome: string; reasons: string[] } | null; business_id: string | null;
  submitted_at: string | null; created_at: string; survey: unknown; created_by_identity_id: string; external_firm_id: string | null;
};

export async function findApplication(db: Queryable, id: string, lock = false): Promise<ApplicationRow | null> {
  const [row] = await db.query<ApplicationRow>(
    `SELECT id::text, status, version, business_name, current_step, answers, decision, business_id::text, ll_iso(submitted_at) AS submitted_at,
            ll_iso(created_at) AS created_at, survey, created_by_identity_id::text, external_firm_id::text
       FROM financing_applications WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return row ?? null;
}

type IndividualRow = FinancingApplication['kyc_individuals'][number] & { ssn_cipher: string | null };

async function parts(db: Queryable, id: string) {
  const owners = await db.query<FinancingApplication['owners'][number]>(
    `SELECT id::text, kind, name, email, percent_bp, kyc_individual_id::text FROM application_owners
      WHERE financing_application_id = $1 ORDER BY created_at, id`, [id]);
  const individuals = await db.query<IndividualRow>(
    `SELECT id::text, first_name, last_name, email, title, to_char(dob, 'YYYY-MM-DD') AS dob, ssn_last_four, ssn_cipher, address,
            citizenship, is_control_person, ll_iso(completed_at) AS completed_at
       FROM kyc_individuals WHERE financing_application_id = $1 ORDER BY created_at, id`, [id]);
  const documents = await db.query<FinancingApplication['documents'][number]>(
    `SELECT d.id::text, d.kind, d.doc_type, d.kyc_individual_id::text,
            coalesce((SELECT array_agg(p.page ORDER BY p.page) FROM application_document_pages p WHERE p.document_id = d.id), '{}') AS pages
       FROM application_documents d WHERE d.financing_application_id = $1 ORDER BY d.created_at, d.id`, [id]);
  const accounts = await db.query<FinancingApplication['bank_accounts'][number] & { routing_cipher: string }>(
    `SELECT id::text, holder_name, type, routing_last_four, account_last_four, routing_cipher FROM application_bank_accounts
      WHERE financing_application_id = $1 ORDER BY created_at, id`, [id]);
  const invites = await db.query<FinancingApplication['invites'][number]>(
    `SELECT id::text, email, kyc_individual_id::text, ll_iso(expires_at) AS expires_at FROM application_invites
      WHERE financing_application_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL ORDER BY created_at, id`, [id]);
  return { owners, individuals, documents, accounts, invites };
}

const answer = <T>(row: ApplicationRow, key: string) => (row.answers[key] ?? null) as T | null;

/** The snapshot the rules read; `decrypt` turns a stored cipher back (only decide needs routing numbers and SSNs). */
export async function applicationSnapshot(
  db: Queryable, row: ApplicationRow, key: Buffer | null,
): Promise<ApplicationSnapshot> {
  const p = await parts(db, row.id);
  const [applicant] = await db.query<{ name: string }>(
    `SELECT first_name || ' ' || last_name AS name FROM financing_application_users
      WHERE financing_application_id = $1 AND role = 'APPLICANT' ORDER BY created_at LIMIT 1`, [row.id]);
  return {
    applicant_name: applicant?.name ?? '',
    business_details: answer(row, 'business_details'),
    financial_details: answer(row, 'financial_details'),
    company: answer(row, 'company'),
    leadership: answer(row, 'leadership'),
    products: answer(row, 'products'),
    checkbox: answer(row, 'checkbox'),
    owners: p.owners,
    individuals: p.individuals.map((i) => ({
      id: i.id, first_name: i.first_name, last_name: i.last_name, dob: i.dob, is_control_person: i.is_control_person,
      completed: i.completed_at !== null,
      ssn_valid: i.ssn_cipher !== null && (key === null || isValidSsn(decryptBankValue(key, i.ssn_cipher, applicationContext(i.id, 'ssn')))),
      kyc_document_pages: Math.max(0, ...p.documents.filter((d) => d.kyc_individual_id === i.id).map((d) => d.pages.length)),
    })),
    kyb_document_pages: p.documents.filter((d) => d.kind === 'KYB').map((d) => d.pages.length),
    bank_accounts: p.accounts.map((a) => ({
      id: a.id, routing_number: key ? decryptBankValue(key, a.routing_cipher, applicationContext(a.id, 'routing_number')) : '',
    })),
  };
}

/** APPLICATION_7002's `errors`: one message per step and per owner (`owners.<id>`, `owners.control_person`). */
export function refusalErrors(refusal: SubmitRefusal): Record<string, string> {
  return {
    ...Object.fromEntries(Object.entries(refusal.steps).map(([step, m]) => [step, m.join(' ')])),
    ...Object.fromEntries(Object.entries(refusal.owners).map(([owner, m]) => [`owners.${owner}`, m.join(' ')])),
  };
}

/** The whole draft with `missing` (what submit would refuse now; SSNs were checked when stored). */
export async function draftOf(db: Queryable, row: ApplicationRow, today: string): Promise<FinancingApplication> {
  const p = await parts(db, row.id);
  const snapshot = await applicationSnapshot(db, row, null);
  const refusal = row.status === 'DRAFT' ? submitRefusal(snapshot, today) : null;
  return {
    id: row.id, status: row.status, version: row.version, business_name: row.business_name, current_step: row.current_step,
    business_details: answer(row, 'business_details'), financial_details: answer(row, 'financial_details'),
    company: answer(row, 'company'), leadership: answer(row, 'leadership'), products: answer(row, 'products'),
    checkbox: answer(row, 'checkbox'),
    owners: p.owners,
    kyc_individuals: p.individuals.map(({ ssn_cipher: _cipher, ...i }) => i),
    documents: p.documents,
    bank_accounts: p.accounts.map(({ routing_cipher: _cipher, ...a }) => a),
    invites: p.invites,
    decision: row.decision ? { outcome: row.decision.outcome as 'APPROVED', reasons: row.decision.reasons } : null,
    business_id: row.business_id,
    submitted_at: row.submitted_at,
    created_at: row.created_at,
    missing: refusal ? Object.fromEntries(Object.entries(refusalErrors(refusal)).map(([k, v]) => [k, [v]])) : {},
  };
}
