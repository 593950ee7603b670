import { useState } from 'react';
import type { HrisImport } from '../../../schema/api/calls-hris.ts';
import { hrisDiffCounts, hrisDiffIsEmpty, type HrisDiff } from '../../../schema/hris.ts';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { FormError } from '../../components/form-error.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';

const FIELD_LABELS: Record<string, string> = {
  first_name: 'First name', last_name: 'Last name', title: 'Title', department: 'Department', location: 'Location', manager: 'Manager',
};
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "3 new hires, 2 changes, 1 leaver": what Apply is about to do, in words. */
export function diffSummary(d: HrisDiff): string {
  const c = hrisDiffCounts(d);
  const parts = [
    c.new_hires && plural(c.new_hires, 'new hire'), c.changes && plural(c.changes, 'change'), c.leavers && plural(c.leavers, 'leaver'),
    c.departments && plural(c.departments, 'new department'), c.locations && plural(c.locations, 'new location'),
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'Nothing to change';
}

function Group({ title, count, children }: { title: string; count: number; children: React.ReactNode }) {
  if (count === 0) return null;
  return (
    <section className="hris-group" aria-label={title}>
      <h3>{title} <span className="muted">({count})</span></h3>
      <ul>{children}</ul>
    </section>
  );
}

/** One import: its errors (nothing applied), or its diff grouped for review with Apply (asks first). */
export function HrisReview({ client, imp, online, onChanged }: { client: DataClient; imp: HrisImport; online: boolean; onChanged(i: HrisImport): void }) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const d = imp.diff;
  if (imp.status === 'invalid') {
    return (
      <div className="hris-review">
        <p className="notice notice-warn" role="status">{imp.file_name} was not imported: fix {plural(imp.errors.length, 'problem')} below and upload it again. Nothing was changed.</p>
        <table className="hris-errors">
          <thead><tr><th scope="col">Row</th><th scope="col">Column</th><th scope="col">Problem</th></tr></thead>
          <tbody>
            {imp.errors.map((e, i) => (
              <tr key={i}><td>{e.row === 0 ? 'File' : e.row}</td><td>{e.column ?? '—'}</td><td>{e.message}</td></tr>
            ))}
          </tbody>
        </table>
      </div>
    );
  }
  if (!d) return null;
  const apply = async () => {
    setError(null);
    const r = await client.applyHrisImport(imp.id);
    if (!r.ok) { setError(errorText(r.error)); return true; }
    onChanged(r.import);
    return true;
  };
  return (
    <div className="hris-review">
      {imp.status === 'applied' && <p className="notice" role="status">Applied{imp.applied_at ? ` on ${new Date(imp.applied_at).toLocaleString()}` : ''}: {diffSummary(d)}.</p>}
      {imp.status === 'stale' && <p className="notice notice-warn" role="status">Not applied: people changed after this diff was made. Upload the file again to see what it changes now.</p>}
      {imp.status === 'ready' && (
        <div className="hris-apply-bar">
          <p><strong>{diffSummary(d)}</strong>{d.unchanged > 0 && <span className="muted"> · {d.unchanged} unchanged</span>}</p>
          <Button variant="primary" disabled={!online || hrisDiffIsEmpty(d)} onClick={() => setConfirming(true)}>Apply changes</Button>
        </div>
      )}
      <FormError message={error} />
      <Group title="New hires (invited)" count={d.new_hires.length}>
        {d.new_hires.map((p) => (
          <li key={p.employee_id}><strong>{p.name}</strong> <span className="muted">{p.email}</span>
            <span className="hris-detail">{[p.title, p.department, p.location, p.manager && `reports to ${p.manager}`].filter(Boolean).join(' · ')}</span></li>
        ))}
      </Group>
      <Group title="Changes" count={d.changes.length}>
        {d.changes.map((p) => (
          <li key={p.employee_id}><strong>{p.name}</strong> <span className="muted">{p.email}</span>
            <ul className="hris-fields">{p.fields.map((f) => (
              <li key={f.field}>{FIELD_LABELS[f.field]}: <s>{f.from ?? 'none'}</s> → {f.to ?? 'none'}</li>
            ))}</ul></li>
        ))}
      </Group>
      <Group title="Leavers (suspended)" count={d.leavers.length}>
        {d.leavers.map((p) => <li key={p.employee_id}><strong>{p.name}</strong> <span className="muted">{p.email}{p.end_date && ` · left ${p.end_date}`}</span></li>)}
      </Group>
      <Group title="New departments and locations" count={d.departments_to_create.length + d.locations_to_create.length}>
        {d.departments_to_create.map((n) => <li key={`d-${n}`}>Department <strong>{n}</strong></li>)}
        {d.locations_to_create.map((n) => <li key={`l-${n}`}>Location <strong>{n}</strong></li>)}
      </Group>
      <Group title="Left as they are" count={d.skipped.length}>
        {d.skipped.map((p, i) => <li key={i}><strong>{p.name}</strong> <span className="muted">{p.email}</span><span className="hris-detail">{p.reason}</span></li>)}
      </Group>
      {confirming && (
        <ConfirmDialog title="Apply these changes?" confirmLabel="Apply changes" onClose={() => setConfirming(false)} onConfirm={apply}
          description={`${diffSummary(d)}. New hires get an invite by email; leavers are signed out and suspended. Everything is applied together or not at all.`} />
      )}
    </div>
  );
}
