import { reimbursementEntity } from '../../schema/entities/reimbursement.ts';
import { specCollection } from './spec-collection.ts';
import { engineReimbursements, serverReimbursements, storedReimbursements } from './generated/reimbursements.ts';

/**
 * Reimbursements in the worker: built from the definition alone (spec-engine.ts: the spec's
 * filter, comparators and search text; row shapers generated from its columns,
 * generated/reimbursements.ts). A claim list is small (a person's or a team's claims), so no
 * typed sort keys are needed.
 */
export const reimbursementCollection = specCollection(reimbursementEntity, {
  server: serverReimbursements, engine: engineReimbursements, stored: storedReimbursements,
});
