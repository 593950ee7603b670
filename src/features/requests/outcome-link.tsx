import { useNavigate } from '@tanstack/react-router';
import type { RequestOutcome } from '../../lib/spend-request-labels.ts';

const KIND_WORDS: Record<Exclude<RequestOutcome['kind'], 'none'>, string> = {
  card: 'Open card',
  purchase_order: 'Open purchase order',
  budget: 'Open budget',
};

/**
 * What came of a request: a link to the card, the purchase order or the budget (an in-app
 * navigation), else what it waits for in muted words.
 */
export function OutcomeLink({ outcome }: { outcome: RequestOutcome }) {
  const navigate = useNavigate();
  if (outcome.kind === 'none') return <span className="muted request-outcome">{outcome.label}</span>;
  return (
    <a
      className="request-outcome request-outcome-link"
      href={outcome.href}
      onClick={(e) => {
        if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        void navigate({ href: outcome.href });
      }}
    >
      <span className="sr-only">{KIND_WORDS[outcome.kind]}: </span>
      {outcome.label}
    </a>
  );
}
