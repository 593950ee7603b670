import { useMemo } from 'react';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { inboxQuery } from './search-params.ts';
import { usePendingCount } from './use-inbox-rows.ts';

/** How many approvals wait for the viewer's decision (0 while unknown). */
function useWaitingCount(): number {
  const client = useDataClient();
  const viewerId = useAppState((s) => s.session?.user.id ?? '');
  const dataVersion = useAppState((s) => s.dataVersion);
  const query = useMemo(() => inboxQuery('pending', viewerId), [viewerId]);
  return usePendingCount(client, query, dataVersion) ?? 0;
}

/** Whether anything waits for the viewer's decision (the nav shows Approvals to a named approver then). */
export function useHasWaitingApprovals(): boolean {
  return useWaitingCount() > 0;
}

/** The nav link's count of approvals waiting for the viewer (none: nothing shown). */
export function PendingApprovalsBadge() {
  const count = useWaitingCount();
  if (!count) return null;
  return (
    <span className="nav-badge">
      <span className="sr-only">, </span>
      {count > 99 ? '99+' : count}
      <span className="sr-only"> waiting</span>
    </span>
  );
}
