import { Button } from '../../components/button.tsx';
import { StatusPill, type PillTone } from '../../components/status-pill.tsx';
import type { TreasuryPolicy } from '../../../workers/api.ts';
import { formatDay, formatMoney } from '../../lib/format.ts';
import { policyText } from './treasury-words.ts';

const RUN_WORDS: Record<TreasuryPolicy['runs'][number]['status'], { label: string; tone: PillTone }> = {
  MOVED: { label: 'Moved', tone: 'ok' },
  NOTHING_TO_DO: { label: 'Nothing to move', tone: 'neutral' },
  FAILED: { label: 'Failed', tone: 'danger' },
};

/** How many of a policy's last runs the card lists. */
export const RUNS_SHOWN = 5;

export interface PolicyCardProps {
  policy: TreasuryPolicy;
  name(id: string): string;
  busy: boolean;
  onEdit(): void;
  onDelete(): void;
  onAcknowledge(): void;
}

/** One automation: the rule in words, on/off, its last runs and unacknowledged failures (Acknowledge), Edit and Delete. */
export function PolicyCard({ policy: p, name, busy, onEdit, onDelete, onAcknowledge }: PolicyCardProps) {
  const words = policyText({ ...p, enabled: true }, name);
  const runs = p.runs.slice(0, RUNS_SHOWN);
  const headingId = `policy-${p.id}`;
  return (
    <li className="tr-policy">
      <article aria-labelledby={headingId}>
        <div className="tr-policy-head">
          <h2 id={headingId} className="tr-rule">{words}</h2>
          <StatusPill tone={p.enabled ? 'ok' : 'neutral'}>{p.enabled ? 'On' : 'Off'}</StatusPill>
          {p.unacknowledged_failures > 0 && (
            <StatusPill tone="danger">{p.unacknowledged_failures === 1 ? '1 failed run' : `${p.unacknowledged_failures} failed runs`}</StatusPill>
          )}
        </div>
        {runs.length === 0 ? (
          <p className="muted">No runs yet: it first runs with the next daily sweep, or when you run automations now.</p>
        ) : (
          <ul className="tr-runs" aria-label="Last runs">
            {runs.map((r) => (
              <li key={r.id}>
                <span>{formatDay(r.run_day)}</span>{' '}
                <StatusPill tone={RUN_WORDS[r.status].tone}>{RUN_WORDS[r.status].label}</StatusPill>
                {r.amount && <> {formatMoney(r.amount.amount, r.amount.currency)} {r.amount.currency}</>}
                {r.failure_reason && <span className="tr-run-reason"> — {r.failure_reason}{r.acknowledged_at ? ' (acknowledged)' : ''}</span>}
              </li>
            ))}
          </ul>
        )}
        <div className="row-actions">
          {p.unacknowledged_failures > 0 && (
            <Button size="sm" loading={busy} onClick={onAcknowledge}>Acknowledge failures<span className="sr-only"> of: {words}</span></Button>
          )}
          <Button size="sm" variant="ghost" onClick={onEdit}>Edit<span className="sr-only"> automation: {words}</span></Button>
          <Button size="sm" variant="ghost" onClick={onDelete}>Delete<span className="sr-only"> automation: {words}</span></Button>
        </div>
      </article>
    </li>
  );
}
