import { useCallback } from 'react';
import { getRouteApi, Link } from '@tanstack/react-router';
import type { ReportDimension, ReportMeasure, ReportQuery, TimeGrain } from '../../../schema/reports.ts';
import { canManageBillPayAccounting } from '../../../schema/roles.ts';
import { buttonClass } from '../../components/button.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { useAppState } from '../../data-access/data-context.tsx';
import { usePageData } from '../../lib/use-page-data.ts';
import { useReferenceData } from '../../lib/reference-data.ts';
import { isPartial } from '../../lib/sync-status-text.ts';
import { CustomReport } from './custom-report.tsx';
import { DashboardStrip, DashboardView } from './dashboards.tsx';
import { Overview } from './overview.tsx';
import { ReportControls } from './report-controls.tsx';
import { resolveFrame } from './report-frame.ts';
import { Breakdown, MissingItems, OverTime, standardBreakdowns } from './report-cards.tsx';
import { currenciesOf, INCLUDED_TEXT, REPORT_VIEWS, todayUtc, VIEW_LABELS, type ReportsSearch } from './report-model.ts';
import { useReport } from './use-report.ts';

const routeApi = getRouteApi('/_app/reports');

/**
 * Issue 12: /reports. Every figure is computed in the data worker over this device's mirror
 * (schema/reports.ts), so reports open at once, offline, and follow edits as they are made. Each
 * chart has its table beside it; a click on a bar, a point or a row opens the matching rows.
 * The cards live beside it: overview.tsx (the tiles), report-cards.tsx (over time, breakdowns,
 * missing items), custom-report.tsx, report-controls.tsx (the settings).
 */
export function ReportsPage() {
  const search = routeApi.useSearch();
  const navigate = routeApi.useNavigate();
  const { client, user, dataVersion } = usePageData();
  const partial = useAppState((s) => isPartial(s.status));
  const reference = useReferenceData(client, useAppState((s) => s.referenceVersion));

  const views = REPORT_VIEWS.filter((v) => v !== 'bills' || (user !== null && canManageBillPayAccounting(user)));
  const { frame, preset, grains } = resolveFrame(search, views, todayUtc());
  const { view, from, to } = frame;

  const dashboards = reference.data.dashboards;
  const dashboard = search.dashboard ? dashboards.find((d) => d.id === search.dashboard) : undefined;

  const set = useCallback(
    (patch: Partial<ReportsSearch>) => void navigate({ search: (prev: ReportsSearch) => ({ ...prev, ...patch }), replace: true }),
    [navigate],
  );

  const base = useCallback(
    (dimension: ReportDimension, measure: ReportMeasure, g: TimeGrain, filters?: Record<string, unknown>): ReportQuery => ({
      collection: view, time_grain: g, dimension, measure, ...(from ? { from } : {}), to, ...(filters ? { filters } : {}),
    }),
    [view, from, to],
  );

  // The totals first: they give the currencies every other chart can show.
  const totals = useReport(client, base('none', 'sum', 'span'), dataVersion);
  const currencies = totals.state === 'ready' ? currenciesOf(totals.answer.rows) : [];
  const currency = search.currency && currencies.includes(search.currency) ? search.currency : (currencies[0] ?? null);

  return (
    <div className="reports">
      <div className="page-header">
        <div>
          {dashboard ? (
            <>
              <Link to="/reports" className="back-link">
                ← Reports
              </Link>
              <h1>{dashboard.name}</h1>
            </>
          ) : (
            <h1>Reports</h1>
          )}
          <p className="muted page-subtitle">Computed on this device from your synced data, so they open instantly and work offline.</p>
        </div>
        <span className="spacer" />
        {/* Issue 32: the monthly card and business statements (PDF or CSV) are where people look for them. */}
        <Link to="/statements" className={buttonClass({ variant: 'secondary' })}>
          Monthly statements
        </Link>
      </div>
      <DashboardStrip dashboards={dashboards} current={dashboard?.id} />
      <ReportControls
        search={search}
        set={set}
        frame={frame}
        preset={preset}
        views={views}
        grains={grains}
        currencies={currencies}
        currency={currency}
        onDashboard={dashboard !== undefined}
      />
      {partial && (
        <p className="notice" role="status">
          Only part of your data is on this device yet, so these figures are partial. They fill in as the download finishes.
        </p>
      )}
      {search.dashboard && !dashboard ? (
        <EmptyState title="This dashboard is not on this device">
          <p>
            It was deleted, or it belongs to someone else. <Link to="/reports">Back to Reports</Link>
          </p>
        </EmptyState>
      ) : dashboard ? (
        <DashboardView
          client={client}
          dashboard={dashboard}
          reports={reference.data.saved_reports}
          range={{ from, to, text: frame.rangeText }}
          currency={currency}
          version={dataVersion}
          reference={reference}
          onDeleted={() => void navigate({ search: {}, replace: true })}
        />
      ) : (
        <>
      <Overview state={totals} currency={currency} frame={frame} client={client} version={dataVersion} base={base} />
        {totals.state === 'ready' && totals.answer.rows.length === 0 ? (
          <EmptyState title={`No ${VIEW_LABELS[view].toLowerCase()} in ${frame.rangeText}`}>
            <p>Choose a longer range, or another kind of data above. Reports count what this device holds: {INCLUDED_TEXT[view]}.</p>
          </EmptyState>
        ) : (
          <div className="report-grid">
            <OverTime frame={frame} currency={currency} client={client} version={dataVersion} base={base} />
            {standardBreakdowns(view).map((dimension) => (
              <Breakdown key={dimension} dimension={dimension} frame={frame} currency={currency} client={client} version={dataVersion} base={base} reference={reference} />
            ))}
            {view === 'transactions' && <MissingItems frame={frame} currency={currency} client={client} version={dataVersion} base={base} />}
            <CustomReport search={search} set={set} frame={frame} currency={currency} client={client} version={dataVersion} base={base} reference={reference} />
          </div>
        )}
        </>
      )}
    </div>
  );
}
