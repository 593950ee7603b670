import { useState } from 'react';
import { useDataClient } from '../../data-access/data-context.tsx';
import { Button } from '../../components/button.tsx';
import { Pager } from '../../components/pager.tsx';
import { Section } from '../../components/section.tsx';
import { Skeleton } from '../../components/skeleton.tsx';
import { usePagedQuery } from '../../lib/use-paged-query.ts';
import type { AuditLogRow } from '../../../workers/api.ts';
import { auditWhat } from './firm-rights.ts';

const CALLS: { id: string; label: string }[] = [
  { id: '', label: 'Everything' },
  { id: 'transactions.patch', label: 'Transaction changes' },
  { id: 'businesses.firmProposals.accept', label: 'Firms accepted' },
  { id: 'businesses.firms.end', label: 'Firm access ended' },
];

/**
 * Settings → Activity (issue 31, admins): the audit log — who (a firm user as "Name (Firm)"), what,
 * when — newest first, a page at a time (`usePagedQuery`), narrowed to one kind of change or to accounting firms.
 */
export function ActivitySection({ online }: { online: boolean }) {
  const client = useDataClient();
  const [call, setCall] = useState('');
  const [firmsOnly, setFirmsOnly] = useState(false);
  // One page of 50 at a time (the worker's page size); a new "Show" starts again at page 1.
  const paged = usePagedQuery<AuditLogRow>({
    search: { call },
    pageSize: 50,
    online,
    load: ({ start, call: only }) => client.auditLog(start, only),
  });
  const page = paged.list;

  const rows = (page.state === 'ready' ? page.rows : []).filter((r) => !firmsOnly || r.actor.external_firm_id);
  return (
    <Section title="Activity" description="Every change made in your business: who, what and when. People working for an accounting firm are named with their firm.">
      <div className="activity-filters">
        <label className="field">
          <span className="field-label">Show</span>
          <select value={call} onChange={(e) => setCall(e.target.value)}>
            {CALLS.map((c) => (
              <option key={c.id} value={c.id}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
        <label className="check">
          <input type="checkbox" checked={firmsOnly} onChange={(e) => setFirmsOnly(e.target.checked)} />
          Only accounting firms
        </label>
      </div>
      {page.state === 'error' && (
        <div className="notice notice-error" role="alert">
          <span>The activity could not be read: {page.message}</span>
          <span>
            <Button size="sm" onClick={paged.reload}>Try again</Button>
          </span>
        </div>
      )}
      {page.state === 'offline' && <p className="muted">The activity is kept on the server. Connect to read it.</p>}
      {page.state === 'loading' && (
        <div aria-busy="true">
          <span className="sr-only">Loading activity…</span>
          <Skeleton height={80} />
        </div>
      )}
      {page.state === 'ready' && rows.length === 0 && (
        <p className="muted">{paged.pageIndex > 0 ? 'Nothing to show on this page for this filter.' : 'Nothing to show for this filter.'}</p>
      )}
      {rows.length > 0 && (
        <table className="table activity-table">
          <caption className="sr-only">Activity</caption>
          <thead>
            <tr>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">When</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id}>
                <td>{r.actor.name}{r.impersonator_email ? ` (through ${r.impersonator_email})` : ''}</td>
                <td>{auditWhat(r.call_id, r.method, r.path)}</td>
                <td>
                  <time dateTime={r.at}>{new Date(r.at).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' })}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager paged={paged} what="Activity" disabled={!online} />
    </Section>
  );
}
