import { useState, type FormEvent } from 'react';
import { Link } from '@tanstack/react-router';
import type { Dashboard } from '../../../schema/entities/dashboard.ts';
import type { ReportChart, SavedReport } from '../../../schema/entities/saved-report.ts';
import type { ReportQuery } from '../../../schema/reports.ts';
import { Button } from '../../components/button.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import { SelectField } from '../../components/select-field.tsx';
import { TextField } from '../../components/text-field.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { ReportCard, TimeReportBody } from './report-parts.tsx';
import { GRAIN_LABELS, measureText, VIEW_LABELS } from './report-model.ts';
import { useReport } from './use-report.ts';

/**
 * Dashboards (issue 12): saved reports arranged by their owner, mirrored (reference data), so a
 * dashboard opens offline; saving, arranging and deleting go through the outbox (offline too).
 * A saved report keeps its grouping, measure, interval and filters but not its dates: a
 * dashboard shows every report over the dashboard's range, so "last 12 months" stays rolling.
 */

const CHART_LABELS: Record<ReportChart, string> = { line: 'Line chart', bar: 'Bar chart', table: 'Table only' };
const NEW_DASHBOARD = 'new';

export function DashboardStrip({ dashboards, current }: { dashboards: readonly Dashboard[]; current?: string | undefined }) {
  if (dashboards.length === 0) return null;
  return (
    <nav className="dashboard-strip" aria-label="Dashboards">
      <span className="muted">Dashboards:</span>
      {dashboards.map((d) => (
        <Link key={d.id} to="/reports" search={{ dashboard: d.id }} className={d.id === current ? 'dashboard-link current' : 'dashboard-link'} aria-current={d.id === current ? 'page' : undefined}>
          {d.name}
        </Link>
      ))}
    </nav>
  );
}

/** "Save to dashboard": names the report, picks its chart and the dashboard (or a new one). */
export function SaveReportDialog({ client, query, suggestedName, dashboards, onClose, onSaved }: {
  client: DataClient;
  query: ReportQuery;
  suggestedName: string;
  dashboards: readonly Dashboard[];
  onClose(): void;
  onSaved(dashboardId: string): void;
}) {
  const [name, setName] = useState(suggestedName);
  const [chart, setChart] = useState<ReportChart>('line');
  const [target, setTarget] = useState(dashboards[0]?.id ?? NEW_DASHBOARD);
  const [dashboardName, setDashboardName] = useState(dashboards.length === 0 ? 'My reports' : '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return setError('Give the report a name.');
    if (target === NEW_DASHBOARD && !dashboardName.trim()) return setError('Give the new dashboard a name.');
    setBusy(true);
    setError(null);
    // Dates come from the dashboard's range: the saved query keeps the rest.
    const { from: _from, to: _to, ...rest } = query;
    const reportId = crypto.randomUUID();
    const saved = await client.run('savedReport.save', { id: reportId, name: name.trim(), chart, query: rest });
    if (!saved.ok) {
      setBusy(false);
      return setError(errorText(saved.error));
    }
    const existing = dashboards.find((d) => d.id === target);
    const dashboardId = existing?.id ?? crypto.randomUUID();
    const items = [...(existing?.items ?? []), { report_id: reportId, size: 'full' as const }];
    const placed = await client.run('dashboard.save', { id: dashboardId, name: existing?.name ?? dashboardName.trim(), items });
    setBusy(false);
    if (!placed.ok) return setError(errorText(placed.error));
    toastInfo(`Saved “${name.trim()}” to ${existing?.name ?? dashboardName.trim()}.`);
    onSaved(dashboardId);
  };

  return (
    <Modal title="Save to a dashboard" description="Dashboards open on this device, offline too. The report keeps its grouping and measure; the dashboard's range sets its dates." onClose={onClose} onSubmit={submit}>
      <div className="modal-fields">
        <TextField label="Report name" value={name} onChange={setName} maxLength={120} autoFocus required />
        <SelectField label="Show as" value={chart} options={(['line', 'bar', 'table'] as const).map((c) => ({ value: c, label: CHART_LABELS[c] }))} onChange={(v) => setChart(v as ReportChart)} />
        <SelectField
          label="Dashboard"
          value={target}
          options={[...dashboards.map((d) => ({ value: d.id, label: d.name })), { value: NEW_DASHBOARD, label: 'New dashboard…' }]}
          onChange={setTarget}
        />
        {target === NEW_DASHBOARD && <TextField label="New dashboard name" value={dashboardName} onChange={setDashboardName} maxLength={120} required />}
      </div>
      <FormError message={error} />
      <div className="modal-actions">
        <Button type="button" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" disabled={busy}>
          Save report
        </Button>
      </div>
    </Modal>
  );
}

/** One dashboard: its reports in order, each over the dashboard's range; arrange, resize, remove. */
export function DashboardView({ client, dashboard, reports, range, currency, version, reference, onDeleted }: {
  client: DataClient;
  dashboard: Dashboard;
  reports: readonly SavedReport[];
  range: { from?: string | undefined; to: string; text: string };
  currency: string | null;
  version: number;
  reference: ReferenceView;
  onDeleted(): void;
}) {
  const [error, setError] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const byId = new Map(reports.map((r) => [r.id, r]));
  // A report deleted elsewhere leaves the dashboard once the feed says so; skip it meanwhile.
  const items = dashboard.items.filter((i) => byId.has(i.report_id));

  const arrange = async (next: Dashboard['items']) => {
    const r = await client.run('dashboard.save', { id: dashboard.id, name: dashboard.name, items: next });
    setError(r.ok ? null : errorText(r.error));
  };
  const move = (index: number, by: -1 | 1) => {
    const next = [...items];
    const [item] = next.splice(index, 1);
    next.splice(index + by, 0, item!);
    void arrange(next);
  };
  const remove = async (reportId: string) => {
    await arrange(items.filter((i) => i.report_id !== reportId));
    const r = await client.run('savedReport.delete', { id: reportId });
    if (!r.ok) setError(errorText(r.error));
  };

  return (
    <>
      <FormError message={error} />
      {items.length === 0 ? (
        <EmptyState title="This dashboard is empty">
          <p>
            Build a report in <Link to="/reports">Reports</Link> → Custom report, then “Save to dashboard”.
          </p>
        </EmptyState>
      ) : (
        <div className="report-grid">
          {items.map((item, i) => (
            <SavedReportCard
              key={item.report_id}
              client={client}
              report={byId.get(item.report_id)!}
              wide={item.size === 'full'}
              range={range}
              currency={currency}
              version={version}
              reference={reference}
              actions={
                <div className="report-card-actions" role="group" aria-label={`Arrange ${byId.get(item.report_id)!.name}`}>
                  <Button size="sm" variant="ghost" disabled={i === 0} onClick={() => move(i, -1)}>
                    Move up
                  </Button>
                  <Button size="sm" variant="ghost" disabled={i === items.length - 1} onClick={() => move(i, 1)}>
                    Move down
                  </Button>
                  <Button size="sm" variant="ghost" onClick={() => void arrange(items.map((x) => (x === item ? { ...x, size: x.size === 'full' ? 'half' : 'full' } : x)))}>
                    {item.size === 'full' ? 'Half width' : 'Full width'}
                  </Button>
                  <Button size="sm" variant="ghost" onClick={() => void remove(item.report_id)}>
                    Remove
                  </Button>
                </div>
              }
            />
          ))}
        </div>
      )}
      <div className="dashboard-footer">
        <Button variant="ghost" onClick={() => setConfirmDelete(true)}>
          Delete dashboard
        </Button>
      </div>
      {confirmDelete && (
        <Modal title={`Delete “${dashboard.name}”?`} description="Its reports are deleted with it. Your data is not touched." onClose={() => setConfirmDelete(false)}>
          <div className="modal-actions">
            <Button onClick={() => setConfirmDelete(false)}>Keep it</Button>
            <Button
              variant="danger"
              onClick={async () => {
                const r = await client.run('dashboard.delete', { id: dashboard.id });
                if (!r.ok) return setError(errorText(r.error));
                for (const item of items) await client.run('savedReport.delete', { id: item.report_id });
                setConfirmDelete(false);
                onDeleted();
              }}
            >
              Delete dashboard
            </Button>
          </div>
        </Modal>
      )}
    </>
  );
}

function SavedReportCard({ client, report, wide, range, currency, version, reference, actions }: {
  client: DataClient;
  report: SavedReport;
  wide: boolean;
  range: { from?: string | undefined; to: string; text: string };
  currency: string | null;
  version: number;
  reference: ReferenceView;
  actions: React.ReactNode;
}) {
  const q = report.query;
  const query: ReportQuery = { ...q, ...(range.from ? { from: range.from } : {}), to: range.to } as ReportQuery;
  const state = useReport(client, query, version);
  const description = `${VIEW_LABELS[q.collection]}: ${measureText(q.measure, q.dimension).toLowerCase()}, ${GRAIN_LABELS[q.time_grain].toLowerCase()}, ${range.text}.`;
  return (
    <ReportCard title={report.name} description={description} state={state} wide={wide} actions={actions}>
      {(rows, labels) => (
        <TimeReportBody
          rows={rows}
          labels={labels}
          view={q.collection}
          dimension={q.dimension}
          measure={q.measure}
          grain={q.time_grain}
          from={range.from}
          to={range.to}
          currency={currency}
          chart={report.chart}
          reference={reference}
          caption={report.name}
        />
      )}
    </ReportCard>
  );
}
