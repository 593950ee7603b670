import { useCallback, useEffect, useRef } from 'react';
import type { SpendUser } from '../../../schema/entities/spend-user.ts';
import type { DataClient } from '../../data-access/types.ts';
import { canDecide } from '../../lib/claim-actions.ts';
import { formatMoney } from '../../lib/format.ts';
import type { ListPageState } from '../../lib/list/use-list-page.ts';
import type { ListRows } from '../../lib/list/use-rows.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import type { InboxRow } from './approval-rows.ts';
import { needsApprovalConfirm } from './approve-confirm.ts';
import { decide } from './decide.ts';
import { readApprovalRows, readInboxRow } from './use-inbox-rows.ts';

/** The inbox's open dialog: bills' approval confirmed with the amounts, or a rejection's reason. */
export type InboxDialog = { kind: 'approve'; targets: InboxRow[] } | { kind: 'reject'; targets: InboxRow[]; subject: string | undefined } | null;

/** The reject dialog's subject for one row ("Alex Kim: Lyft, $24.00"); none for many or a row without an amount. */
export function rejectSubject(chosen: readonly InboxRow[], userName: (id: string) => string): string | undefined {
  const one = chosen.length === 1 ? chosen[0] : undefined;
  if (!one || one.amount === null || !one.currency) return undefined;
  const who = userName(one.approval.user_id) || one.claimant;
  return one.kind === 'card_request' ? `${who}: ${one.summary}` : `${who}: ${one.summary}, ${formatMoney(one.amount, one.currency)}`;
}

/** The rows loaded in the list's windows, by id. */
function loadedRows(rows: ListRows<InboxRow>, total: number): Map<string, InboxRow> {
  const loaded = new Map<string, InboxRow>();
  for (let i = 0; i < total; i++) {
    const r = rows.row(i);
    if (r) loaded.set(r.id, r);
  }
  return loaded;
}

export interface InboxDecisionsOptions {
  client: DataClient;
  online: boolean;
  viewer: SpendUser;
  userName(id: string): string;
  list: ListPageState<InboxRow>;
  setDialog(dialog: InboxDialog): void;
}

/**
 * Approve and reject, one or many: what a / r / the bar / the palette act on is the selection,
 * else the current row, and only what the viewer may decide. Approving runs at once, except
 * bills: they move money, so they are confirmed with the amounts first. Each decision is a
 * command through the worker (decide.ts), shown at once with its sync mark, offline too.
 */
export function useInboxDecisions({ client, online, viewer, userName, list, setDialog }: InboxDecisionsOptions) {
  const decidable = useCallback((row: InboxRow) => canDecide(row.approval, viewer), [viewer]);
  // The list as it is now (selection, current row, loaded rows): the decisions stay the same functions while j/k move.
  const now = useRef({ list, decidable });
  useEffect(() => {
    now.current = { list, decidable };
  });

  const targets = useCallback(async (): Promise<InboxRow[] | null> => {
    const { list: { selection, rows, total, active }, decidable: may } = now.current;
    const ids = [...selection.ids];
    let picked: InboxRow[];
    if (ids.length > 0) {
      const loaded = loadedRows(rows, total);
      // Selected rows outside the loaded windows are read by id: their status, submitter and kind.
      const read = new Map((await readApprovalRows(client, ids.filter((id) => !loaded.has(id)), userName)).map((r) => [r.id, r]));
      picked = ids.flatMap((id) => loaded.get(id) ?? read.get(id) ?? []);
    } else {
      const row = active.index >= 0 ? rows.row(active.index) : undefined;
      picked = row ? [row] : [];
    }
    if (picked.length === 0) {
      toastInfo('Select claims, card requests or bills to review');
      return null;
    }
    const open = picked.filter(may);
    if (open.length === 0) {
      toastInfo('Only pending approvals can be decided');
      return null;
    }
    return open;
  }, [client, userName]);

  const approve = useCallback(
    async (picked?: InboxRow[]) => {
      const chosen = picked ?? (await targets());
      if (!chosen) return;
      if (needsApprovalConfirm(chosen)) {
        // A bill selected outside the loaded windows was read without its bill: read it for the amounts.
        const full = await Promise.all(chosen.map(async (r) => (r.kind === 'bill' && !r.bill ? ((await readInboxRow(client, r.id, userName)) ?? r) : r)));
        setDialog({ kind: 'approve', targets: full });
        return;
      }
      const done = await decide(client, chosen, { kind: 'approve' }, online);
      if (done.length > 0) now.current.list.selection.clear();
    },
    [client, online, targets, userName, setDialog],
  );

  const askReject = useCallback(
    async (picked?: InboxRow[]) => {
      const chosen = picked ?? (await targets());
      if (chosen) setDialog({ kind: 'reject', targets: chosen, subject: rejectSubject(chosen, userName) });
    },
    [targets, userName, setDialog],
  );

  /** The dialog's decision: the confirmed approval, or the rejection with its reason. */
  const finish = useCallback(
    async (chosen: readonly InboxRow[], decision: { kind: 'approve' } | { kind: 'reject'; reason: string }) => {
      const done = await decide(client, chosen, decision, online);
      if (done.length > 0) now.current.list.selection.clear();
      setDialog(null);
    },
    [client, online, setDialog],
  );

  return { decidable, approve, askReject, finish };
}
