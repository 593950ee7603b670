/** Moved down to `lib/reference-data.ts` (reimbursements code claims with the same lists). */
export { buildReferenceView, useReferenceData, type ReferenceNames, type ReferenceView } from '../../lib/reference-data.ts';
