import { useCallback, useMemo, useState } from 'react';
import { getRouteApi } from '@tanstack/react-router';
import type { SpendUser } from '../../../schema/entities/spend-user.ts';
import { canReviewReimbursements } from '../../../schema/roles.ts';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import type { Command } from '../../lib/commands.ts';
import { useListPage } from '../../lib/list/use-list-page.ts';
import { usePageCommands } from '../../lib/page-commands.ts';
import { useReferenceData } from '../../lib/reference-data.ts';
import { useInstantSearch } from '../../lib/use-instant-search.ts';
import type { InboxRow } from './approval-rows.ts';
import { inboxColumns, inboxSpec } from './approvals-list.tsx';
import { useDelegatedFor } from './use-delegated-for.ts';
import { searchTerms } from './inbox-search.ts';
import { inboxQuery, type ApprovalsSearch, type InboxTab } from './search-params.ts';
import { useInboxDecisions, type InboxDialog } from './use-inbox-decisions.ts';
import { inboxIds, useInboxRows } from './use-inbox-rows.ts';

const routeApi = getRouteApi('/_app/approvals');

/**
 * The inbox's state: the URL (tab, Type, q, the open approval), the rows of the tab narrowed by
 * the search (over the mirror), the list (selection, current row, keys), the decisions and their
 * dialog, the palette's commands, and the list's spec.
 */
export function useInbox(viewer: SpendUser) {
  const search = routeApi.useSearch();
  const navigate = routeApi.useNavigate();
  const client = useDataClient();
  const dataVersion = useAppState((s) => s.dataVersion);
  const referenceVersion = useAppState((s) => s.referenceVersion);
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const mirrored = useAppState((s) => s.status?.mirrored ?? false);
  const reference = useReferenceData(client, referenceVersion);
  const userName = reference.names.user;
  const tab: InboxTab = search.tab ?? 'pending';
  const setSearch = useCallback(
    (patch: Partial<ApprovalsSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true }),
    [navigate],
  );
  const writeQ = useCallback((next: string | undefined) => setSearch({ q: next }), [setSearch]);
  const [q, setQ] = useInstantSearch(search.q, writeQ);
  const terms = searchTerms(q);
  const vendors = reference.data.vendors;
  const textSearch = useMemo(() => {
    const names = new Map(vendors.map((v) => [v.id, v.name]));
    return { q, names: { vendor: (id: string) => names.get(id) ?? '' } };
  }, [q, vendors]);
  const query = useMemo(() => inboxQuery(tab, viewer.id, search.type), [tab, viewer.id, search.type]);
  const rows = useInboxRows(client, query, dataVersion + referenceVersion, userName, textSearch);
  const key = terms.length > 0 ? `${query.key}|${terms.join(' ')}` : query.key;
  const matchingIds = useCallback(() => inboxIds(client, query, textSearch, userName), [client, query, textSearch, userName]);
  const [dialog, setDialog] = useState<InboxDialog>(null);
  const onOpen = useCallback((row: InboxRow) => setSearch({ open: row.id }), [setSearch]);
  const onClose = useCallback(() => setSearch({ open: undefined }), [setSearch]);
  const list = useListPage({ key, rows, openId: search.open, onOpen, onClose, dialogOpen: dialog !== null, matchingIds });
  const decisions = useInboxDecisions({ client, online, viewer, userName, list, setDialog });
  const { approve, askReject } = decisions;

  usePageCommands(
    useMemo<Command[]>(
      () => [
        { id: 'approvals.approveSelected', label: 'Approve selected', group: 'Approvals', keywords: ['approve', 'review', 'claims', 'card requests', 'bills'], shortcut: 'approvals.approve', run: () => void approve() },
        { id: 'approvals.rejectSelected', label: 'Reject selected', group: 'Approvals', keywords: ['reject', 'decline', 'review'], shortcut: 'approvals.reject', run: () => void askReject() },
      ],
      [approve, askReject],
    ),
  );

  const clearSearch = useCallback(() => setQ(''), [setQ]);
  const delegatedFor = useDelegatedFor();
  const columns = useMemo(() => inboxColumns(userName, delegatedFor), [userName, delegatedFor]);
  const searching = terms.length > 0;
  const empty = rows.total === 0 && !rows.waiting;
  const reviewer = canReviewReimbursements(viewer);
  const spec = useMemo(
    () => inboxSpec({
      tab, type: search.type, q, searching, mirrored, reviewer, empty, columns, userName, matchingIds,
      approve: () => void approve(), reject: () => void askReject(), clearSearch,
    }),
    [tab, search.type, q, searching, mirrored, reviewer, empty, columns, userName, matchingIds, approve, askReject, clearSearch],
  );
  return { search, setSearch, client, dataVersion, reference, q, setQ, tab, list, spec, dialog, setDialog, decisions };
}
