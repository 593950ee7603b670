import type { Db, Queryable } from '../../db/db.ts';
import { listDocumentRequests } from './document-requests.ts';
import { findApplication } from './draft.ts';
import { reviewApplication } from './submit.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const OPS_REVIEW_USAGE = 'Usage: npm run ops:review -- <application_id> [approve|reject]';

/**
 * `npm run ops:review -- <application_id> [approve|reject]` (lead's decision 4: no HTTP call reaches
 * it). With the id alone: the application's status, its document requests and what the applicant
 * uploaded for each (document-requests.ts). With an action: operations clear an application waiting
 * in MANUAL_REVIEW, in one transaction; approve makes its business as a clean submit would, reject
 * ends it. Answers the text to print, or throws the reason (bad arguments, no such application,
 * not in manual review).
 */
export async function runOpsReview(db: Db, args: readonly string[], now: Date): Promise<string> {
  const [id, action] = args;
  if (!id || !UUID.test(id) || args.length > 2) throw new Error(OPS_REVIEW_USAGE);
  if (args.length === 1) return describeForReview(db, id);
  if (action !== 'approve' && action !== 'reject') throw new Error(OPS_REVIEW_USAGE);
  const answer = await db.transaction((tx) => reviewApplication(tx, id, action, now));
  return answer.status === 'APPROVED'
    ? `Application ${id} approved: business ${answer.business_id}.`
    : `Application ${id} rejected.`;
}

type Upload = { doc_type: string; person: string; pages: number; uploaded_at: string };

async function describeForReview(db: Queryable, id: string): Promise<string> {
  const app = await findApplication(db, id);
  if (!app) throw new Error(`There is no application ${id}.`);
  const requests = await listDocumentRequests(db, id);
  const uploads = await db.query<Upload>(
    `SELECT d.doc_type, trim(coalesce(k.first_name, '') || ' ' || coalesce(k.last_name, '')) AS person, count(*)::int AS pages,
            ll_iso(max(p.created_at)) AS uploaded_at
       FROM application_documents d JOIN kyc_individuals k ON k.id = d.kyc_individual_id
       JOIN application_document_pages p ON p.document_id = d.id
      WHERE d.financing_application_id = $1 GROUP BY d.id, d.doc_type, k.first_name, k.last_name ORDER BY max(p.created_at), d.id`, [id]);
  const lines = [`Application ${id} (${app.business_name ?? 'no name yet'}): ${app.status}.`];
  if (requests.length === 0) lines.push('No document requests.');
  for (const r of requests) {
    lines.push(`Request ${r.id} ${r.doc_type}: ${r.status} (asked ${r.created_at}). ${r.note}`);
    const answered = uploads.filter((u) => u.doc_type === r.doc_type && u.uploaded_at >= r.created_at);
    if (answered.length === 0) lines.push('  Nothing uploaded yet.');
    for (const u of answered) lines.push(`  ${u.person || 'Unnamed person'}: ${u.pages} page${u.pages === 1 ? '' : 's'}, last uploaded ${u.uploaded_at}.`);
  }
  return lines.join('\n');
}
