import { Link } from '@tanstack/react-router';
import { missingTiles } from '../../../schema/report-tiles.ts';
import { Skeleton } from '../../components/skeleton.tsx';
import { formatCount, formatMoney } from '../../lib/format.ts';
import { overviewTiles } from './report-model.ts';
import type { CardProps } from './report-frame.ts';
import { useReport, type ReportState } from './use-report.ts';

/**
 * The figures at the top: amount, count and average of the selected currency, and the to-do
 * tiles (missing receipts, missing coding) of the same currency and states (issue 25), each a
 * link to exactly the items it counts.
 */
export function Overview({ state, currency, frame, client, version, base }: CardProps & { state: ReportState; currency: string | null }) {
  // Sum reports: one row per currency, whose count is that currency's items (a count report has none).
  const receipts = useReport(client, frame.view === 'transactions' ? base('none', 'sum', 'span', { missing_receipt: true }) : null, version);
  const coding = useReport(client, frame.view === 'transactions' || frame.view === 'reimbursements' ? base('gl_account', 'sum', 'span') : null, version);
  if (state.state === 'loading') return <div className="kpis"><Skeleton className="kpi" /><Skeleton className="kpi" /><Skeleton className="kpi" /></div>;
  if (state.state === 'error') return <p className="form-error">These figures could not be computed: {state.message}</p>;
  const tiles = overviewTiles(state.answer.rows, currency, frame.view);
  const missing = missingTiles(
    receipts.state === 'ready' ? receipts.answer.rows : null,
    coding.state === 'ready' ? coding.answer.rows : null,
    currency,
    frame.view,
  );
  // The list a to-do tile opens: the same range, states and currency as the count.
  const listOf = (what: 'missing_receipt' | 'missing_coding') => ({
    to: '/transactions',
    search: { ...(frame.from ? { from: frame.from } : {}), to: frame.to, states: 'PENDING,CLEARED', ...(currency ? { currency } : {}), [what]: true },
  });
  const { receipts: noReceipt, coding: uncoded } = missing;
  return (
    <div className="kpi-block">
    <dl className="kpis" aria-describedby="kpi-scope">
      <Kpi label={tiles.amountLabel} value={currency && tiles.sum !== null ? formatMoney(tiles.sum, currency) : '–'} />
      <Kpi label={tiles.countLabel} value={formatCount(tiles.count)} />
      <Kpi label={tiles.averageLabel} value={currency && tiles.average !== null ? formatMoney(tiles.average, currency) : '–'} />
      {noReceipt && <Kpi label={noReceipt.label} value={formatCount(noReceipt.count)} link={noReceipt.count > 0 ? listOf('missing_receipt') : undefined} />}
      {uncoded && (
        <Kpi label={uncoded.label} value={formatCount(uncoded.count)} link={uncoded.count > 0 && frame.view === 'transactions' ? listOf('missing_coding') : undefined} />
      )}
    </dl>
    <p className="kpi-scope muted" id="kpi-scope" data-testid="kpi-scope">
      {tiles.scope}
      {missing.caption && ` ${missing.caption}`}
    </p>
    </div>
  );
}

function Kpi({ label, value, link }: { label: string; value: string; link?: { to: string; search: Record<string, unknown> } | undefined }) {
  return (
    <div className="kpi">
      <dt>{label}</dt>
      <dd>
        {link ? (
          <Link to={link.to} search={link.search as never} className="kpi-link">
            {value}
          </Link>
        ) : (
          value
        )}
      </dd>
    </div>
  );
}
