import { reimbursementEntity, type Reimbursement } from '../../schema/entities/reimbursement.ts';
import { specCollection } from './spec-collection.ts';
import { engineReimbursements, serverReimbursements, storedReimbursements } from './generated/reimbursements.ts';

/**
 * Reimbursements in the worker: built from the definition alone (spec-engine.ts: the spec's
 * filter, comparators and search text; row shapers generated from its columns,
 * generated/reimbursements.ts). A claim list is small (a person's or a team's claims), so no
 * typed sort keys are needed.
 */

/** A claim as the worker meets it: stored (no `deleted`, with the negated date), wire, or engine row. */
export type AnyReimbursementRow = Omit<Reimbursement, 'deleted'> & { deleted?: boolean; date_desc?: number; server?: Reimbursement };
/** The engine's row: the claim as shown, with the confirmed server row underneath while commands are on top. */
export type ReimbursementEngineRow = Reimbursement & { server: Reimbursement | undefined };

export const reimbursementCollection = specCollection<'reimbursements', AnyReimbursementRow, ReimbursementEngineRow>(reimbursementEntity, {
  server: serverReimbursements,
  engine: engineReimbursements,
  stored: storedReimbursements,
});
