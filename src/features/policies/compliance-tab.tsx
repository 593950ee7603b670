import { useState } from 'react';
import type { ComplianceAnswer } from '../../../workers/api.ts';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { DateField } from '../../components/date-field.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { FormError } from '../../components/form-error.tsx';
import { SelectField } from '../../components/select-field.tsx';
import { ListSkeleton } from '../../components/skeleton.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { formatCount, formatLocalDateTime } from '../../lib/format.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { useAnswer } from '../../lib/use-answer.ts';
import { complianceRate, remindOutcome } from './compliance-words.ts';
import type { PoliciesSearch } from './search-params.ts';

export interface ComplianceTabProps {
  client: DataClient;
  online: boolean;
  /** Admins send reminders; the business-wide readers only read. */
  canRemind: boolean;
  search: PoliciesSearch;
  onSearch(patch: Partial<PoliciesSearch>): void;
}

type Read = { ok: true; compliance: ComplianceAnswer } | { ok: false; error: { message: string; error_code: string } };

/**
 * Compliance (online: the server counts every item of the range): per person or department, the
 * items checked, those with violations, what is still missing and the rate; admins tick people
 * and "Send reminder" (confirmed first: one mail each listing their missing items).
 */
export function ComplianceTab({ client, online, canRemind, search, onSearch }: ComplianceTabProps) {
  const group = search.group ?? 'person';
  const [reload, setReload] = useState(0);
  const [picked, setPicked] = useState<string[]>([]);
  const [confirming, setConfirming] = useState(false);
  const [outcome, setOutcome] = useState<string | null>(null);
  const read = useAnswer<Read | null>(
    () => (online ? client.policyCompliance({ group_by: group, ...(search.from ? { from: search.from } : {}), ...(search.to ? { to: search.to } : {}) }) : Promise.resolve(null)),
    [client, online, group, search.from, search.to, reload],
  );
  if (!online) {
    return <EmptyState title="Connect to see compliance">Compliance is counted by the server over everyone’s items. Policies still show offline.</EmptyState>;
  }
  const answer = read?.ok ? read.compliance : null;
  const people = answer?.group_by === 'person' ? answer.rows.filter((r) => r.id !== null && r.missing_items > 0) : [];

  return (
    <div className="compliance">
      <div className="compliance-controls">
        <SelectField label="Group by" value={group} options={[{ value: 'person', label: 'Person' }, { value: 'department', label: 'Department' }]}
          onChange={(v) => onSearch({ group: v === 'department' ? 'department' : undefined })} />
        <DateField label="From" value={search.from ?? answer?.from ?? ''} onChange={(v) => onSearch({ from: v || undefined })} />
        <DateField label="To" value={search.to ?? answer?.to ?? ''} onChange={(v) => onSearch({ to: v || undefined })} />
        <span className="spacer" />
        {canRemind && group === 'person' && (
          <Button variant="primary" disabled={picked.length === 0} onClick={() => setConfirming(true)}>
            Send reminder{picked.length > 0 ? ` (${picked.length})` : ''}
          </Button>
        )}
      </div>
      {read && !read.ok && <FormError message={errorText(read.error)} />}
      {outcome && <p className="notice" role="status" data-testid="remind-outcome">{outcome}</p>}
      {!read ? (
        <ListSkeleton what="compliance" />
      ) : answer && answer.rows.length === 0 ? (
        <EmptyState title="Nothing to count">No card charges or claims in this range.</EmptyState>
      ) : answer && (
        <>
          <div className="compliance-table-wrap">
            <table className="compliance-table">
              <caption className="sr-only">Compliance by {group}, {answer.from} to {answer.to}</caption>
              <thead>
                <tr>
                  {canRemind && group === 'person' && <th scope="col"><span className="sr-only">Select</span></th>}
                  <th scope="col">{group === 'person' ? 'Person' : 'Department'}</th>
                  <th scope="col" className="num">Items</th>
                  <th scope="col" className="num">With violations</th>
                  <th scope="col" className="num">Missing</th>
                  <th scope="col" className="num">Compliance</th>
                  {group === 'person' && <th scope="col">Last reminded</th>}
                </tr>
              </thead>
              <tbody>
                {answer.rows.map((r) => (
                  <tr key={r.id ?? 'none'}>
                    {canRemind && group === 'person' && (
                      <td>
                        {r.id && r.missing_items > 0 && (
                          <input type="checkbox" aria-label={`Remind ${r.name}`} checked={picked.includes(r.id)}
                            onChange={(e) => setPicked((p) => (e.target.checked ? [...p, r.id!] : p.filter((x) => x !== r.id)))} />
                        )}
                      </td>
                    )}
                    <th scope="row">{r.name}</th>
                    <td className="num">{formatCount(r.items)}</td>
                    <td className="num">{formatCount(r.items_with_violations)}</td>
                    <td className="num">{formatCount(r.missing_items)}</td>
                    <td className="num">{complianceRate(r.compliance_rate)}</td>
                    {group === 'person' && <td>{r.last_reminded_at ? formatLocalDateTime(r.last_reminded_at) : '—'}</td>}
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  {canRemind && group === 'person' && <td />}
                  <th scope="row">Total</th>
                  <td className="num">{formatCount(answer.totals.items)}</td>
                  <td className="num">{formatCount(answer.totals.items_with_violations)}</td>
                  <td className="num">{formatCount(answer.totals.missing_items)}</td>
                  <td className="num">{complianceRate(answer.totals.items === 0 ? 1 : 1 - answer.totals.items_with_violations / answer.totals.items)}</td>
                  {group === 'person' && <td />}
                </tr>
              </tfoot>
            </table>
          </div>
          <p className="muted compliance-includes">{answer.includes}</p>
          {canRemind && group === 'person' && people.length > 0 && picked.length === 0 && (
            <Button size="sm" onClick={() => setPicked(people.map((p) => p.id!))}>Select everyone with missing items ({people.length})</Button>
          )}
        </>
      )}
      {confirming && (
        <ConfirmDialog
          title="Send reminders?"
          description={`Email ${picked.length === 1 ? '1 person' : `${picked.length} people`} a list of their missing items. Anyone already reminded today is skipped.`}
          confirmLabel={picked.length === 1 ? 'Email 1 person' : `Email ${picked.length} people`}
          cancelLabel="Cancel"
          onClose={() => setConfirming(false)}
          onConfirm={async () => {
            const r = await client.remindMissingItems(picked);
            if (!r.ok) {
              setOutcome(errorText(r.error));
              return true;
            }
            const words = remindOutcome(r.answer, answer?.rows ?? []);
            setOutcome(words);
            toastInfo(words);
            setPicked([]);
            setReload((n) => n + 1);
            return true;
          }}
        />
      )}
    </div>
  );
}
