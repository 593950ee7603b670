import { COMMANDS, commandDef } from '../../../schema/commands/index.ts';
import {
  compareReimbursements, matchesReimbursementFilter, reimbursementEntity, type Reimbursement, type ReimbursementFilter, type ReimbursementType,
} from '../../../schema/entities/reimbursement.ts';
import type { OutboxEntry } from '../../data-access/types.ts';
import type { SyncMarkRow } from '../../components/sync-mark.tsx';
import { CREATE_COMMANDS, blankClaim } from './claim-form.ts';
import type { ClaimView } from './claim-labels.ts';

/**
 * Claims created on this device and not yet confirmed by the server, built from the outbox.
 *
 * Why here: the worker shows a command's effect by re-deriving a row it already holds
 * (collection-feed `refresh` skips ids it has no row for), so a create made offline would not
 * show until the server answers. Until the worker inserts created rows itself, the list and the
 * drawer build them from the same pure `apply` of each queued command, in outbox order, on the
 * blank claim the server starts from. A refused create stays visible, marked "Failed" with the
 * server's reason: the person's input is not lost. Pure; tested.
 */

const CREATE_TYPES = new Map<string, ReimbursementType>(
  Object.entries(CREATE_COMMANDS).map(([type, name]) => [name, type as ReimbursementType]),
);
const APPLIED: readonly OutboxEntry['state'][] = ['pending', 'sending', 'needs_step_up'];

export interface ClaimOwner {
  user_id: string;
  business_id: string;
}

export function pendingCreates(entries: readonly OutboxEntry[], owner: ClaimOwner): ClaimView[] {
  const byId = new Map<string, OutboxEntry[]>();
  for (const e of entries) {
    if (e.state === 'done' || COMMANDS[e.command].collection !== 'reimbursements') continue;
    const id = e.entity_ids[0];
    if (id) byId.set(id, [...(byId.get(id) ?? []), e]);
  }
  const claims: ClaimView[] = [];
  for (const [id, list] of byId) {
    const ordered = [...list].sort((a, b) => a.created_at - b.created_at);
    const type = CREATE_TYPES.get(ordered[0]!.command);
    if (!type) continue; // an edit of a claim the mirror holds: the worker shows it
    let row: Reimbursement = { ...blankClaim(id, type, new Date(ordered[0]!.created_at)), ...owner };
    let failure: { entry: OutboxEntry; message: string } | null = null;
    for (const e of ordered) {
      const applied = APPLIED.includes(e.state);
      if (!applied) failure = { entry: e, message: e.last_error?.message ?? 'Refused by the server' };
      // A refused edit is rolled back; the create is applied even when refused (else nothing shows).
      if (!applied && e !== ordered[0]) continue;
      // The moment of a write is the row's updated_at, stamped before `apply` (as the worker does).
      row = commandDef(e.command).apply({ ...row, updated_at: new Date(e.created_at).toISOString() }, e.args) as Reimbursement;
    }
    const pending = (failure?.entry ?? ordered[ordered.length - 1]!).state as SyncMarkRow['pending'];
    claims.push({ ...row, pending, failure: failure && { command_id: failure.entry.id, message: failure.message } });
  }
  return claims;
}

/** Every term must be inside the claim's own search text (the definition's fields), as the worker's search. */
function matchesText(c: Reimbursement, q: string | undefined): boolean {
  if (!q) return true;
  const text = reimbursementEntity.searchText.map((f) => c[f] ?? '').join(' ').toLowerCase();
  return q.toLowerCase().split(/\s+/).filter(Boolean).every((term) => text.includes(term));
}

/** The pending creates a list with this filter shows, newest first. */
export function visiblePendingCreates(claims: readonly ClaimView[], filter: ReimbursementFilter): ClaimView[] {
  return claims.filter((c) => matchesReimbursementFilter(c, filter) && matchesText(c, filter.q)).sort(compareReimbursements('date_desc'));
}
