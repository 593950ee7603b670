import { isPossibleDuplicate, type DuplicateProbe } from '../../../schema/reimbursement-duplicates.ts';
import { REIMBURSEMENT_STATUSES, type Reimbursement } from '../../../schema/entities/reimbursement.ts';
import type { DataClient } from '../../data-access/types.ts';

const PAGE = 500;

/**
 * The claimant's possible duplicates of a claim about to be submitted, from the mirror (so the
 * warning works offline), by the rule the server's duplicate check applies. Their claims are read
 * newest claim date first and the walk stops at the first older than the probe's date.
 */
export async function findLocalDuplicates(client: DataClient, probe: DuplicateProbe): Promise<Reimbursement[]> {
  const statuses = REIMBURSEMENT_STATUSES.filter((s) => s !== 'CANCELED');
  const found: Reimbursement[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await client.query('reimbursements', { filter: { user_ids: [probe.user_id], statuses: [...statuses] }, sort: 'date_desc', offset, limit: PAGE });
    for (const row of page.rows as Reimbursement[]) {
      if (row.transaction_date < probe.transaction_date) return found;
      if (isPossibleDuplicate(probe, row)) found.push(row);
    }
    if (page.rows.length < PAGE) return found;
  }
}
