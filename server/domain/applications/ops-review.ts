import type { Db } from '../../db/db.ts';
import { reviewApplication } from './submit.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const OPS_REVIEW_USAGE = 'Usage: npm run ops:review -- <application_id> approve|reject';

/**
 * `npm run ops:review -- <application_id> approve|reject` (lead's decision 4: no HTTP call reaches
 * it): operations clear an application waiting in MANUAL_REVIEW, in one transaction. Approve makes
 * its business as a clean submit would; reject ends it. Answers the line to print, or throws the
 * reason (bad arguments, no such application, not in manual review).
 */
export async function runOpsReview(db: Db, args: readonly string[], now: Date): Promise<string> {
  const [id, action] = args;
  if (!id || !UUID.test(id) || (action !== 'approve' && action !== 'reject') || args.length !== 2) throw new Error(OPS_REVIEW_USAGE);
  const answer = await db.transaction((tx) => reviewApplication(tx, id, action, now));
  return answer.status === 'APPROVED'
    ? `Application ${id} approved: business ${answer.business_id}.`
    : `Application ${id} rejected.`;
}
