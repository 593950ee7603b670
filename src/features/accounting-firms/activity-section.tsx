import { useEffect, useState } from 'react';
import { useDataClient } from '../../data-access/data-context.tsx';
import { Button } from '../../components/button.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Section } from '../../components/section.tsx';
import { Skeleton } from '../../components/skeleton.tsx';
import { errorText } from '../../lib/error-text.ts';
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
 * when — newest first, a page at a time, narrowed to one kind of change or to accounting firms.
 */
export function ActivitySection({ online }: { online: boolean }) {
  const client = useDataClient();
  const [call, setCall] = useState('');
  const [firmsOnly, setFirmsOnly] = useState(false);
  const [page, setPage] = useState<{ rows: AuditLogRow[]; next: string | null } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [more, setMore] = useState(false);

  useEffect(() => {
    let live = true;
    void client.auditLog(undefined, call || undefined).then((r) => {
      if (!live) return;
      if (r.ok) {
        setPage({ rows: r.rows, next: r.next });
        setError(null);
      } else setError(errorText(r.error));
    });
    return () => {
      live = false;
    };
  }, [client, call, online]);

  async function loadMore() {
    if (!page?.next) return;
    setMore(true);
    const r = await client.auditLog(page.next, call || undefined);
    setMore(false);
    if (r.ok) setPage({ rows: [...page.rows, ...r.rows], next: r.next });
    else setError(errorText(r.error));
  }

  const rows = (page?.rows ?? []).filter((r) => !firmsOnly || r.actor.external_firm_id);
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
      <FormError message={error} />
      {!page && !error && <Skeleton height={80} />}
      {page && rows.length === 0 && <p className="muted">Nothing to show for this filter.</p>}
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
      {page?.next && (
        <Button size="sm" loading={more} disabled={!online} onClick={() => void loadMore()}>
          Show older
        </Button>
      )}
    </Section>
  );
}
