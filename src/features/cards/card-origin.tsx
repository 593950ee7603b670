import { useEffect, useState } from 'react';
import { Link } from '@tanstack/react-router';
import type { Card } from '../../../schema/entities/card.ts';
import type { SpendAllocation } from '../../../schema/entities/spend-allocation.ts';
import type { SpendRequest } from '../../../schema/entities/spend-request.ts';
import type { Fact } from '../../components/facts.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { collectionReads } from '../../lib/list/collection-reads.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';
import { budgetLeftText } from '../../lib/spend-request-labels.ts';

type CardLinks = Pick<Card, 'id' | 'user_id'> & { spend_request_id?: string | null; spend_allocation_id?: string | null };

/**
 * Issue 28: the spend request a card came from (its `spend_request_id`, else the holder's
 * fulfilled request naming the card), read from the mirror; undefined while reading, null when none.
 */
export function useCardRequest(client: DataClient, card: CardLinks, version: number): SpendRequest | null | undefined {
  const [request, setRequest] = useState<SpendRequest | null | undefined>(undefined);
  const { id, user_id, spend_request_id } = card;
  useEffect(() => {
    let live = true;
    const reads = collectionReads(client);
    const found = spend_request_id
      ? reads.get('spend_requests', spend_request_id)
      : reads.query('spend_requests', { filter: { user_ids: [user_id], statuses: ['FULFILLED', 'APPROVED'] }, sort: 'created_desc', offset: 0, limit: 500 })
        .then((page) => page.rows.find((r) => r.card_id === id) ?? null);
    void found.then((r) => {
      if (live) setRequest(r ?? null);
    }, () => {
      if (live) setRequest(null);
    });
    return () => {
      live = false;
    };
  }, [client, id, user_id, spend_request_id, version]);
  return request;
}

/** The budget a card draws on (its `spend_allocation_id`, else the budget listing the card), from reference data. */
export function cardBudget(card: CardLinks, allocations: readonly SpendAllocation[]): SpendAllocation | null {
  return allocations.find((a) => (card.spend_allocation_id ? a.id === card.spend_allocation_id : a.card_ids.includes(card.id))) ?? null;
}

/** The card drawer's facts of where the card came from: "From request: …" and the budget with what is left. */
export function cardOriginFacts(card: CardLinks, request: SpendRequest | null | undefined, reference: ReferenceView): Fact[] {
  const facts: Fact[] = [];
  if (request) {
    facts.push(['From request', <Link key="req" to="/requests" search={{ open: request.id }}>{request.description}</Link>]);
  }
  const budget = cardBudget(card, reference.data.spend_allocations);
  if (budget) {
    facts.push(['Budget', (
      <span key="budget">
        <Link to="/budgets" search={{ open: budget.id }}>{budget.name}</Link>
        <span className="muted"> · {budgetLeftText(budget)}</span>
      </span>
    )]);
  }
  return facts;
}
