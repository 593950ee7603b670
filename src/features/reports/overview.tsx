import { Link } from '@tanstack/react-router';
import { Skeleton } from '../../components/skeleton.tsx';
import { formatCount, formatMoney } from '../../lib/format.ts';
import { overviewTiles } from './report-model.ts';
import type { CardProps } from './report-frame.ts';
import { useReport, type ReportState } from './use-report.ts';

/** The figures at the top: amount, count and average of the selected currency, and the to-do tiles. */
export function Overview({ state, currency, frame, client, version, base }: CardProps & { state: ReportState; currency: string | null }) {
  const receipts = useReport(client, frame.view === 'transactions' ? base('none', 'count', 'span', { missing_receipt: true }) : null, version);
  const coding = useReport(client, frame.view === 'transactions' || frame.view === 'reimbursements' ? base('gl_account', 'count', 'span') : null, version);
  if (state.state === 'loading') return <div className="kpis"><Skeleton className="kpi" /><Skeleton className="kpi" /><Skeleton className="kpi" /></div>;
  if (state.state === 'error') return <p className="form-error">These figures could not be computed: {state.message}</p>;
  const tiles = overviewTiles(state.answer.rows, currency, frame.view);
  const range = { ...(frame.from ? { from: frame.from } : {}), to: frame.to };
  const uncoded = coding.state === 'ready' ? coding.answer.rows.find((r) => r.key === null)?.value ?? 0 : null;
  const missingReceipts = receipts.state === 'ready' ? receipts.answer.rows[0]?.value ?? 0 : null;
  return (
    <div className="kpi-block">
    <dl className="kpis" aria-describedby="kpi-scope">
      <Kpi label={tiles.amountLabel} value={currency && tiles.sum !== null ? formatMoney(tiles.sum, currency) : '–'} />
      <Kpi label={tiles.countLabel} value={formatCount(tiles.count)} />
      <Kpi label={tiles.averageLabel} value={currency && tiles.average !== null ? formatMoney(tiles.average, currency) : '–'} />
      {missingReceipts !== null && (
        <Kpi
          label="Missing receipts"
          value={formatCount(missingReceipts)}
          link={missingReceipts > 0 ? { to: '/transactions', search: { ...range, states: 'PENDING,CLEARED', missing_receipt: true } } : undefined}
        />
      )}
      {uncoded !== null && (
        <Kpi
          label="Missing coding"
          value={formatCount(uncoded)}
          link={uncoded > 0 && frame.view === 'transactions' ? { to: '/transactions', search: { ...range, states: 'PENDING,CLEARED', missing_coding: true } } : undefined}
        />
      )}
    </dl>
    <p className="kpi-scope muted" id="kpi-scope" data-testid="kpi-scope">
      {tiles.scope}
      {(missingReceipts !== null || uncoded !== null) && ' Missing receipts and coding count every currency.'}
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
