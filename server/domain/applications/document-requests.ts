import type { Queryable } from '../../db/db.ts';
import type { ApplicationRow } from './draft.ts';

/**
 * Issue 31, operations document requests (planned.ts "operations document requests and uploaded
 * files"): a MANUAL_REVIEW decision asks for a document (a sanctions hit asks for a government ID of
 * each person named). The applicant answers with the KYC document calls, which a submitted
 * application otherwise refuses (APPLICATION_7001): while the application waits in MANUAL_REVIEW, a
 * new KYC document of a type an OPEN request asks for, and its pages, are taken. The request is tied
 * to those documents by its `doc_type` and becomes FULFILLED once every person named on the
 * application (each KYC individual) has a page of that type uploaded since it was asked.
 */
export type DocumentRequestRow = { id: string; doc_type: string; note: string; status: 'OPEN' | 'FULFILLED'; created_at: string };

export async function listDocumentRequests(db: Queryable, appId: string): Promise<DocumentRequestRow[]> {
  return db.query<DocumentRequestRow>(
    `SELECT id::text, doc_type, note, status, ll_iso(created_at) AS created_at FROM operations_document_requests
      WHERE financing_application_id = $1 ORDER BY created_at, id`, [appId]);
}

/** Whether an application in review has an OPEN request for each of these document types. */
export async function requestsAsk(tx: Queryable, app: ApplicationRow, docTypes: readonly string[]): Promise<boolean> {
  if (app.status !== 'MANUAL_REVIEW' || docTypes.length === 0) return false;
  const open = await tx.query<{ doc_type: string }>(
    "SELECT DISTINCT doc_type FROM operations_document_requests WHERE financing_application_id = $1 AND status = 'OPEN'", [app.id]);
  const asked = new Set(open.map((r) => r.doc_type));
  return docTypes.every((t) => asked.has(t));
}

/** The type of one of the application's KYC documents (null: no such document). */
export async function kycDocumentType(tx: Queryable, appId: string, documentId: string): Promise<string | null> {
  const [doc] = await tx.query<{ doc_type: string }>(
    "SELECT doc_type FROM application_documents WHERE id = $1 AND financing_application_id = $2 AND kind = 'KYC'", [documentId, appId]);
  return doc?.doc_type ?? null;
}

/** Marks FULFILLED each OPEN request whose type every KYC individual has uploaded a page of since it was asked. */
export async function fulfilDocumentRequests(tx: Queryable, appId: string): Promise<void> {
  await tx.query(
    `UPDATE operations_document_requests r SET status = 'FULFILLED'
      WHERE r.financing_application_id = $1 AND r.status = 'OPEN'
        AND EXISTS (SELECT 1 FROM kyc_individuals k WHERE k.financing_application_id = $1)
        AND NOT EXISTS (
          SELECT 1 FROM kyc_individuals k WHERE k.financing_application_id = $1 AND NOT EXISTS (
            SELECT 1 FROM application_documents d JOIN application_document_pages p ON p.document_id = d.id
             WHERE d.kyc_individual_id = k.id AND d.doc_type = r.doc_type AND p.created_at >= r.created_at))`, [appId]);
}
