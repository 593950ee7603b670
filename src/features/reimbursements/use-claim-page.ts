import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ReimbursementFilter, ReimbursementType } from '../../../schema/entities/reimbursement.ts';
import type { DataClient } from '../../data-access/types.ts';
import type { Command } from '../../lib/commands.ts';
import { matchingIds } from '../../lib/list/collection-reads.ts';
import { usePageCommands } from '../../lib/page-commands.ts';
import { errorText } from '../../lib/error-text.ts';
import { toastError } from '../../lib/toast-store.ts';
import { localToday } from './claim-form.ts';
import { clearNewClaimRequest, newClaimCommands, peekNewClaimRequest } from './commands.ts';
import { receiptClaimRequest, tripPerDiemRequest, type FormRequest } from './form-request.ts';
import { SORT, type ReimbursementsSearch } from './search-params.ts';

export interface ClaimFormsOptions {
  client: DataClient;
  /** The business's currency (a prefilled form's default). */
  currency: string;
  search: Pick<ReimbursementsSearch, 'new' | 'receipt' | 'location' | 'start' | 'end' | 'trip'>;
  setSearch(patch: Partial<ReimbursementsSearch>): void;
}

/**
 * The page's claim form: which one is open (`null`: none), opened by the New menu, 'n', the
 * palette's "New …" commands (on this page, or run from another one before it mounted), or a
 * link from the Receipts inbox (`?new=out_of_pocket&receipt=…`: that receipt and its reading), or
 * a trip's "Add per diem" (`?new=per_diem&location=…&start=…&end=…&trip=…`).
 */
export function useClaimForms({ client, currency, search, setSearch }: ClaimFormsOptions) {
  // A "New …" command run from another page asked for its form: open it with the list.
  const [form, setForm] = useState<FormRequest | null>(() => {
    const requested = peekNewClaimRequest();
    if (requested) return { type: requested };
    // A trip's "Add per diem" opened this page: its form, once (the URL is cleared below).
    return search.new === 'per_diem' ? tripPerDiemRequest(search) : null;
  });
  const openNew = useCallback((type: ReimbursementType) => setForm({ type }), []);
  useEffect(clearNewClaimRequest, []);
  useEffect(() => {
    if (search.new === 'per_diem') setSearch({ new: undefined, location: undefined, start: undefined, end: undefined, trip: undefined });
  }, [search.new, setSearch]);
  useEffect(() => {
    if (search.new !== 'out_of_pocket') return;
    const receipt = search.receipt;
    setSearch({ new: undefined, receipt: undefined });
    const inbox = receipt ? client.receiptInbox() : Promise.resolve([]);
    void inbox.then(
      (inbox) => setForm(receiptClaimRequest(inbox, receipt, currency, localToday())),
      () => setForm(receiptClaimRequest([], receipt, currency, localToday())),
    );
  }, [search.new, search.receipt, setSearch, client, currency]);
  usePageCommands(useMemo<Command[]>(() => newClaimCommands((type) => openNew(type)), [openNew]));
  return { form, setForm, openNew };
}

export interface LocateOptions {
  client: DataClient;
  filter: ReimbursementFilter;
  filtered: boolean;
  /** The list's count so far. */
  total: number;
  /** Makes a row current (and scrolls to it). */
  setActive(index: number): void;
  setSearch(patch: Partial<ReimbursementsSearch>): void;
}

/**
 * A claim just created is shown at once wherever the list's order puts it (newest date first,
 * so an older receipt lands further down): the list scrolls to its row, made current. When the
 * search or tab hides it, they are cleared first (its drawer stays open). Returns `locate(id)`.
 */
export function useLocateCreated({ client, filter, filtered, total, setActive, setSearch }: LocateOptions): (id: string) => void {
  const [located, setLocated] = useState<string | null>(null);
  useEffect(() => {
    if (!located) return;
    let stale = false;
    void matchingIds(client, 'reimbursements', filter, SORT).then((ids) => {
      if (stale) return;
      const index = ids.indexOf(located);
      if (index < 0) {
        if (filtered) setSearch({ q: undefined, status: undefined, open: located });
        else setLocated(null);
        return;
      }
      if (index >= total) return; // the list has not counted it yet: again with the next total
      setActive(index);
      setLocated(null);
    });
    return () => {
      stale = true;
    };
  }, [located, client, filter, filtered, total, setActive, setSearch]);
  return setLocated;
}

/**
 * Issue 27: a claim created from a trip is linked to it. Both are commands: the link is ordered
 * after the claim's create by the claim's id (`trip.linkSpend`'s `after`), so offline too it
 * reaches the server once, after the claim.
 */
export async function linkClaimToTrip(client: DataClient, tripId: string, claimId: string): Promise<void> {
  const result = await client.run('trip.linkSpend', { trip_id: tripId, transaction_ids: [], reimbursement_ids: [claimId] });
  if (!result.ok) toastError(`The claim was saved but not linked to the trip: ${errorText(result.error)}`);
}
