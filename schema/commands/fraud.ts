import { produce } from 'immer';
import { defineCommand } from './define-command.ts';
import { rowCommand } from './row-commands.ts';
import { applyLock } from './card.ts';
import { respondToFraud } from '../api/calls-fraud.ts';
import type { Transaction } from '../entities/transaction.ts';
import { fraudResponseSchema, type FraudResponse } from '../fraud-rules.ts';

/**
 * The cardholder's answer to a held charge (issue 24). Pure `apply`: a FLAGGED transaction takes
 * the answer (any other is shown as it is: the server refuses it, or it already holds this
 * answer). NOT_RECOGNIZED also locks the card at once on the device (`also` on the cards
 * collection, the same move as `card.lock`), and the command is sent before anything else queued
 * (`priority: 'first'`), so a lost card is locked on the server the moment the device is back online.
 */
export function applyFraudResponse(row: Transaction, response: FraudResponse): Transaction {
  if (row.fraud_status !== 'FLAGGED') return row;
  return produce(row, (d) => {
    d.fraud_status = response;
  });
}

const transaction = rowCommand('transactions', 'transaction_id', 'transaction_canonical_uuid');

export const transactionFraudResponse = defineCommand({
  name: 'transaction.fraudResponse', ...transaction.shared, call: respondToFraud,
  args: transaction.shared.args.extend({ response: fraudResponseSchema }),
  request: (a) => ({ ...transaction.shared.request(a), body: { response: a.response } }),
  apply: (row, a) => applyFraudResponse(row, a.response),
  check: transaction.inMirror,
  also: {
    cards: {
      ids: (a, mirror) => (a.response === 'NOT_RECOGNIZED' ? [mirror.get('transactions', a.transaction_id)?.card_id] : []),
      apply: (card, a) => (a.response === 'NOT_RECOGNIZED' ? applyLock(card, true) : card),
    },
  },
  // The answer also locks the card: the feed brings both rows (the answer names the last seq).
  confirm: 'change_seq',
  priority: 'first',
});
