import { z } from 'zod';
import { produce } from 'immer';
import { defineCommand } from './define-command.ts';
import { rowCommand } from './row-commands.ts';
import { dismissSuggestedContext } from '../api/calls-accounting.ts';
import type { Transaction } from '../entities/transaction.ts';

/** A transaction whose coding suggestion was dismissed at `at` (one dismissed already keeps its moment, as the server does). */
export const applyDismissSuggestion = (row: Transaction, at: string): Transaction =>
  row.coding_suggestion_dismissed_at ? row : produce(row, (d) => { d.coding_suggestion_dismissed_at = at; });

/** Whether the drawer may show a coding suggestion for the transaction (issue 29: not once dismissed). */
export const suggestionDismissed = (row: Pick<Transaction, 'coding_suggestion_dismissed_at'>) => !!row.coding_suggestion_dismissed_at;

const transaction = rowCommand('transactions', 'transaction_id', 'transaction_canonical_uuid');

/**
 * Issue 29: "Dismiss suggestion" in the transaction drawer, offline too: the suggestion goes at
 * once and the outbox sends `DELETE /v1/auth/accounting/suggested-context/{transaction}` when
 * online. The moment is stamped once when queued (the server keeps its own clock's).
 */
export const transactionDismissSuggestion = defineCommand({
  name: 'transaction.dismissSuggestion',
  args: transaction.shared.args.extend({ dismissed_at: z.iso.datetime({ offset: true }).optional() })
    .transform((a) => (a.dismissed_at ? a : { ...a, dismissed_at: new Date().toISOString() })),
  collection: 'transactions',
  entityIds: transaction.shared.entityIds,
  call: dismissSuggestedContext,
  request: transaction.shared.request,
  apply: (row, a) => applyDismissSuggestion(row, a.dismissed_at ?? row.updated_at),
  check: transaction.inMirror,
  confirm: 'change_seq',
});
