import { Button } from '../../components/button.tsx';
import type { SpendSuggestion, TripSpendSummary } from '../../../schema/travel-spend.ts';
import { formatMoney, formatShortDay } from '../../lib/format.ts';
import { moneyList } from './trip-view.ts';

/** "Total $1,240.00 + €25.00 of $2,000.00 budget · $760.00 left", what it includes, and a bar. */
export function SpendSummary({ summary }: { summary: TripSpendSummary }) {
  const b = summary.budget;
  const left = b ? (b.over ? `${formatMoney(-b.remaining, b.budget.currency)} over budget` : `${formatMoney(b.remaining, b.budget.currency)} left`) : null;
  return (
    <div className="trip-spend" data-testid="trip-total">
      <p className="trip-spend-total">
        <span className="field-label">Total</span> <strong>{moneyList(summary.totals)}</strong>
        {b && (
          <>
            {' '}
            of {formatMoney(b.budget.amount, b.budget.currency)} budget · <span className={b.over ? 'trip-over' : undefined}>{left}</span>
          </>
        )}
      </p>
      {b && (
        <div
          className={b.over ? 'trip-budget-bar over' : 'trip-budget-bar'}
          role="meter"
          aria-label="Budget used"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.min(b.percent, 100)}
          aria-valuetext={`${b.percent} % of the budget`}
        >
          <span className="trip-budget-fill" style={{ width: `${Math.min(b.percent, 100)}%` }} />
        </div>
      )}
      <p className="muted trip-spend-includes">
        Includes {summary.includes}
        {!summary.local && ' (as last synced: some linked items are not on this device)'}.
      </p>
    </div>
  );
}

export interface SuggestedSpendProps {
  suggestions: readonly SpendSuggestion[];
  /** Link one (the owner or an admin); absent: shown without buttons. */
  onLink?: ((s: SpendSuggestion) => void) | undefined;
}

/** The owner's card spend and claims dated within the trip (±1 day), linked to no trip, best first, with the reasons. */
export function SuggestedSpend({ suggestions, onLink }: SuggestedSpendProps) {
  if (suggestions.length === 0) {
    return <p className="muted">Nothing to suggest: no card spend or claim of the traveller around these dates is left unlinked.</p>;
  }
  return (
    <ul className="trip-suggestions">
      {suggestions.map((s) => (
        <li key={`${s.kind}:${s.id}`} className="trip-suggestion">
          <span className="itinerary-kind">{s.kind === 'transaction' ? 'Card' : 'Claim'}</span>
          <span className="trip-suggestion-main">
            <strong>{s.label}</strong> <span className="itinerary-amount">{formatMoney(s.amount, s.currency)}</span>
            <span className="muted trip-suggestion-why">
              {formatShortDay(s.date)} · {s.reasons.join(' · ')}
            </span>
          </span>
          {onLink && (
            <Button size="sm" onClick={() => onLink(s)}>
              Link<span className="sr-only"> {s.label}</span>
            </Button>
          )}
        </li>
      ))}
    </ul>
  );
}
