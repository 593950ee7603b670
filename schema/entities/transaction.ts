import { z } from 'zod';
import { boolParam, csv, isoDateTime, mirroredFields, uuid } from './common.ts';
import { defineEntity, newestFirst } from './define-entity.ts';
import { columnsOf } from './columns.ts';
import { byDateThenId, listMatcher, presentIds } from './query-shapes.ts';
import { currencyCodeSchema } from '../money.ts';
import { fraudReasonSchema, fraudStatusSchema } from '../fraud-rules.ts';
import { attendeeSplitSchema } from '../attendee-split.ts';

const transactionStateSchema = z.enum(['PENDING', 'CLEARED', 'DECLINED', 'REVERSED']);
export type TransactionState = z.infer<typeof transactionStateSchema>;

/** Accounting coding of a transaction. tracking: tracking category id → option id. */
const codingSchema = z.object({
  gl_account_id: uuid.nullable(),
  department_id: uuid.nullable(),
  location_id: uuid.nullable(),
  tracking: z.record(z.string(), uuid),
});
export type Coding = z.infer<typeof codingSchema>;

/** Issue 26: who was at the meal or event (a name or an email, as typed), at most MAX_ATTENDEES. */
const attendeeSchema = z.string().trim().min(1).max(200);
export const MAX_ATTENDEES = 50;
export const attendeesSchema = z.array(attendeeSchema).max(MAX_ATTENDEES);

export const transactionSchema = z.object({
  id: uuid, // transaction_canonical_uuid
  card_id: uuid,
  user_id: uuid,
  merchant_name: z.string().min(1),
  merchant_category: z.string(),
  /** Integer minor units of `currency` (ISO 4217 exponent); refunds are negative. */
  amount: z.number().int(),
  currency: currencyCodeSchema,
  occurred_at: isoDateTime,
  state: transactionStateSchema,
  memo: z.string().max(2000).nullable(),
  ...codingSchema.shape,
  /**
   * Receipts attached (issue 9 §2), oldest attachment first. Defaults to none so rows from a
   * server that does not send it yet still parse. Locally, a receipt attached offline shows under
   * its client id until the upload has landed and the feed brings the server's id.
   */
  receipt_ids: z.array(uuid).default([]),
  /**
   * When the item was exported to the accounting system (a sync commit, issue 12); null when it
   * was not, or was marked not synced since. A synced item refuses coding edits. Optional so
   * rows built before issue 12 (and by clients that do not carry it yet) still type-check.
   */
  accounting_synced_at: isoDateTime.nullable().optional(),
  /**
   * Issue 24 (fraud response), all optional so rows from servers and clients without them parse:
   * the merchant's country (ISO 3166-1 alpha-2) when the network names it; `fraud_status` null
   * (never held), FLAGGED (held: the cardholder is asked), RECOGNIZED or NOT_RECOGNIZED (answered);
   * why it was held (schema/fraud-rules.ts); the dispute a NOT_RECOGNIZED answer opened.
   */
  merchant_country: z.string().regex(/^[A-Z]{2}$/).nullable().optional(),
  fraud_status: fraudStatusSchema.nullable().optional(),
  fraud_reasons: z.array(fraudReasonSchema).optional(),
  dispute_id: uuid.nullable().optional(),
  /** Issue 26: the people present (Ramp's and Expensify's attendees), set by the coding patch. Optional: older rows parse. */
  attendees: attendeesSchema.optional(),
  /**
   * Issue 29 (`DELETE suggested-context/{transaction}`): when the coding suggestion shown for this
   * transaction was dismissed; the drawer then shows none. Optional: older rows parse.
   */
  coding_suggestion_dismissed_at: isoDateTime.nullable().optional(),
  /** Issue 32 (`PUT attendee-split`, migration 086): the amount split across the people present (schema/attendee-split.ts); null: none. Optional: older rows parse. */
  attendee_split: attendeeSplitSchema.nullable().optional(),
  ...mirroredFields,
});
export type Transaction = z.infer<typeof transactionSchema>;

/**
 * Transaction filters and sort, shared by the local query engine, the URL search params and
 * the server's search call, so the three always mean the same thing.
 */
export const TRANSACTION_SORTS = [
  'occurred_desc',
  'occurred_asc',
  'amount_desc',
  'amount_asc',
  'merchant_asc',
] as const;
export const transactionSortSchema = z.enum(TRANSACTION_SORTS);
export type TransactionSort = z.infer<typeof transactionSortSchema>;

export const transactionFilterSchema = z.object({
  q: z.string().max(200).optional(),
  user_ids: csv(z.uuid()).optional(),
  /** A card's transactions (issue 10: the card's detail, and what it spent this interval). */
  card_ids: csv(z.uuid()).optional(),
  department_ids: csv(z.uuid()).optional(),
  location_ids: csv(z.uuid()).optional(),
  /** Coded to one of these GL accounts (issue 12: a report's click-through). */
  gl_account_ids: csv(z.uuid()).optional(),
  /** Exactly this merchant name (issue 12: a report's "Top merchants" click-through). */
  merchant: z.string().min(1).max(200).optional(),
  states: csv(transactionStateSchema).optional(),
  /** Issue 25: one currency's transactions (ISO 4217), so a total beside the list is that currency's alone. */
  currency: currencyCodeSchema.optional(),
  /** Integer minor units, inclusive. */
  amount_min: z.coerce.number().int().optional(),
  amount_max: z.coerce.number().int().optional(),
  /** Inclusive ISO date (YYYY-MM-DD) bounds on occurred_at, in UTC. */
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  missing_coding: boolParam.optional(),
  missing_receipt: boolParam.optional(),
  /** Issue 24: held for the cardholder's answer (`fraud_status` FLAGGED), or not. */
  held: boolParam.optional(),
});
export type TransactionFilter = z.infer<typeof transactionFilterSchema>;

/** The structured part of a filter as a predicate (text search `q` is matched by an index). */
const matchesTransactionLists = listMatcher<Transaction, TransactionFilter>([
  { param: 'user_ids', field: 'user_id' },
  { param: 'card_ids', field: 'card_id' },
  { param: 'department_ids', field: 'department_id' },
  { param: 'location_ids', field: 'location_id' },
  { param: 'gl_account_ids', field: 'gl_account_id' },
  { param: 'states', field: 'state' },
]);

export function matchesTransactionFilter(t: Transaction, f: TransactionFilter): boolean {
  if (!matchesTransactionLists(t, f)) return false;
  if (f.merchant !== undefined && t.merchant_name !== f.merchant) return false;
  if (f.currency !== undefined && t.currency !== f.currency) return false;
  if (f.amount_min !== undefined && t.amount < f.amount_min) return false;
  if (f.amount_max !== undefined && t.amount > f.amount_max) return false;
  if (f.from && t.occurred_at.slice(0, 10) < f.from) return false;
  if (f.to && t.occurred_at.slice(0, 10) > f.to) return false;
  if (f.missing_coding === true && t.gl_account_id !== null) return false;
  if (f.missing_coding === false && t.gl_account_id === null) return false;
  if (f.missing_receipt === true && t.receipt_ids.length > 0) return false;
  if (f.missing_receipt === false && t.receipt_ids.length === 0) return false;
  if (f.held === true && t.fraud_status !== 'FLAGGED') return false;
  if (f.held === false && t.fraud_status === 'FLAGGED') return false;
  return true;
}

export function compareTransactions(sort: TransactionSort) {
  const byTimeDesc = byDateThenId<Transaction>('occurred_at', 'desc');
  switch (sort) {
    case 'occurred_desc':
      return byTimeDesc;
    case 'occurred_asc':
      return (a: Transaction, b: Transaction) => byTimeDesc(b, a);
    case 'amount_desc':
      return (a: Transaction, b: Transaction) => b.amount - a.amount || byTimeDesc(a, b);
    case 'amount_asc':
      return (a: Transaction, b: Transaction) => a.amount - b.amount || byTimeDesc(a, b);
    case 'merchant_asc':
      return (a: Transaction, b: Transaction) =>
        a.merchant_name.localeCompare(b.merchant_name) || byTimeDesc(a, b);
  }
}

/** The rows whose names a transaction's search text holds (ll_transaction_search_text). */
function referencedIds(t: Transaction): string[] {
  const ids = presentIds(t.user_id, t.gl_account_id, t.department_id, t.location_id);
  for (const [category, option] of Object.entries(t.tracking)) ids.push(category, option);
  return ids;
}

/**
 * A transaction's live receipts, oldest attachment first (issue 9 §2). Every viewer of the row
 * sees the ids (whether a receipt is there is what "missing receipt" filters on); reading a file
 * still follows the receipt's own visibility. An index lookup on transaction_receipts' key.
 */
const RECEIPT_IDS_SQL = `(SELECT coalesce(jsonb_agg(tr.receipt_id ORDER BY tr.created_at, tr.receipt_id), '[]'::jsonb)
      FROM transaction_receipts tr JOIN receipts rc ON rc.id = tr.receipt_id
     WHERE tr.transaction_id = r.id AND NOT rc.deleted)`;

export const transactionEntity = defineEntity({
  name: 'transactions',
  schema: transactionSchema,
  mirror: newestFirst('occurred_desc', 'occurred_at'),
  visibility: 'owner',
  searchText: ['merchant_name', 'memo'],
  query: {
    filter: transactionFilterSchema, sorts: TRANSACTION_SORTS,
    matches: matchesTransactionFilter, compare: compareTransactions, referencedIds,
  },
  /** Table `transactions` (migrations 001, 020, 034, 037); `search_text` and the fraud answer's columns are server-only. */
  columns: columnsOf(transactionSchema, {
    card_id: { indexed: true },
    user_id: { indexed: true },
    occurred_at: { indexed: true },
    // Rows stored before receipts were mirrored have none.
    receipt_ids: { sql: RECEIPT_IDS_SQL, missing: 'empty list' },
    // Issue 12: exported in a sync commit (coding edits are refused until marked not synced).
    accounting_synced_at: { missing: 'null' },
    // Issue 24: rows stored before fraud review was mirrored were never held.
    merchant_country: { missing: 'null' },
    fraud_status: { missing: 'null' },
    fraud_reasons: { missing: 'empty list' },
    dispute_id: { column: 'fraud_dispute_id', missing: 'null' },
    // Issue 26 (migration 037): `attendees` is optional in the schema, copied as is: a row without it reads as none.
    // Issue 29 (migration 055): rows stored before dismissals were mirrored were never dismissed.
    coding_suggestion_dismissed_at: { missing: 'null' },
    // Issue 32 (migration 086): rows stored before splits were mirrored have none.
    attendee_split: { missing: 'null' },
  }),
});
