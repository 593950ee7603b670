import { useMemo } from 'react';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { inboxQuery } from './search-params.ts';
import { usePendingCount } from './use-inbox-rows.ts';

/** The nav link's count of approvals waiting for the viewer (none: nothing shown). */
export function PendingApprovalsBadge() {
  const client = useDataClient();
  const viewerId = useAppState((s) => s.session?.user.id ?? '');
  const dataVersion = useAppState((s) => s.dataVersion);
  const query = useMemo(() => inboxQuery('pending', viewerId), [viewerId]);
  const count = usePendingCount(client, query, dataVersion);
  if (!count) return null;
  return (
    <span className="nav-badge">
      <span className="sr-only">, </span>
      {count > 99 ? '99+' : count}
      <span className="sr-only"> waiting</span>
    </span>
  );
}
