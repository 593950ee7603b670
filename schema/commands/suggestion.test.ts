import { describe, expect, it } from 'vitest';
import { transactionSchema } from '../entities/transaction.ts';
import { applyDismissSuggestion, suggestionDismissed, transactionDismissSuggestion } from './suggestion.ts';

const ID = '00000000-0000-4000-8000-000000000001';
const row = transactionSchema.parse({
  id: ID, card_id: ID, user_id: ID, merchant_name: 'Blue Bottle', merchant_category: 'Coffee', amount: 450, currency: 'USD',
  occurred_at: '2026-03-01T10:00:00.000Z', state: 'CLEARED', memo: null, gl_account_id: null, department_id: null,
  location_id: null, tracking: {}, business_id: ID, change_seq: 7, updated_at: '2026-03-01T10:00:00.000Z', deleted: false,
});

describe('transaction.dismissSuggestion', () => {
  it('stamps the moment once; a dismissed row keeps its first moment', () => {
    const once = applyDismissSuggestion(row, '2026-11-29T10:00:00.000Z');
    expect(suggestionDismissed(row)).toBe(false);
    expect(once.coding_suggestion_dismissed_at).toBe('2026-11-29T10:00:00.000Z');
    expect(suggestionDismissed(once)).toBe(true);
    expect(applyDismissSuggestion(once, '2026-11-30T10:00:00.000Z')).toBe(once);
  });

  it('stamps the moment when queued and sends only the transaction id, as a DELETE', () => {
    const args = transactionDismissSuggestion.args.parse({ transaction_id: ID });
    expect(Date.parse(args.dismissed_at!)).not.toBeNaN();
    expect(transactionDismissSuggestion.request(args)).toEqual({ params: { transaction_canonical_uuid: ID } });
    expect(transactionDismissSuggestion.call.method).toBe('DELETE');
    expect(transactionDismissSuggestion.apply(row, args).coding_suggestion_dismissed_at).toBe(args.dismissed_at);
  });
});
