import { z } from 'zod';
import { csv, isoDateTime, mirroredFields, uuid } from './common.ts';
import { defineEntity, newestFirst } from './define-entity.ts';
import { columnsOf } from './columns.ts';
import { ascending, byDateThenId, listMatcher, presentIds } from './query-shapes.ts';
import { currencyCodeSchema } from '../money.ts';

/** Issue 9 §3: a claim for money the employee spent themselves. */
const REIMBURSEMENT_TYPES = ['OUT_OF_POCKET', 'MILEAGE', 'PER_DIEM'] as const;
const reimbursementTypeSchema = z.enum(REIMBURSEMENT_TYPES);
export type ReimbursementType = z.infer<typeof reimbursementTypeSchema>;

/** The status machine is in schema/reimbursement-rules.ts. */
export const REIMBURSEMENT_STATUSES = ['DRAFT', 'SUBMITTED', 'APPROVED', 'REJECTED', 'PAID', 'CANCELED'] as const;
const reimbursementStatusSchema = z.enum(REIMBURSEMENT_STATUSES);
export type ReimbursementStatus = z.infer<typeof reimbursementStatusSchema>;

const isoDate = z.iso.date();

export const reimbursementSchema = z.object({
  id: uuid, // reimbursement_uuid
  user_id: uuid,
  type: reimbursementTypeSchema,
  status: reimbursementStatusSchema,
  merchant: z.string().max(200).nullable(),
  /** Integer minor units of `currency`, > 0 (computed by the server for mileage and per diem). */
  amount: z.number().int().positive(),
  currency: currencyCodeSchema,
  /** The claim date: the purchase (out of pocket), the trip (mileage), the first day (per diem). */
  transaction_date: isoDate,
  memo: z.string().max(2000).nullable(),
  gl_account_id: uuid.nullable(),
  department_id: uuid.nullable(),
  /** MILEAGE only (null otherwise). */
  distance_miles: z.number().positive().nullable(),
  start_location: z.string().max(200).nullable(),
  end_location: z.string().max(200).nullable(),
  trip_date: isoDate.nullable(),
  /** PER_DIEM only (null otherwise). */
  location: z.string().max(200).nullable(),
  start_date: isoDate.nullable(),
  end_date: isoDate.nullable(),
  /** Set when the claim was last rejected; cleared on resubmission. */
  rejection_reason: z.string().max(2000).nullable(),
  /** Receipts on the claim (issue 9), oldest first; the server's ids (a client id while waiting to sync). */
  receipt_ids: z.array(uuid).default([]),
  submitted_at: isoDateTime.nullable(),
  created_at: isoDateTime,
  /**
   * When the item was exported to the accounting system (a sync commit, issue 12); null when it
   * was not, or was marked not synced since. A synced item refuses coding edits. Optional so
   * rows built before issue 12 (and by clients that do not carry it yet) still type-check.
   */
  accounting_synced_at: isoDateTime.nullable().optional(),
  ...mirroredFields,
});
export type Reimbursement = z.infer<typeof reimbursementSchema>;

const REIMBURSEMENT_SORTS = ['date_desc', 'date_asc', 'amount_desc', 'amount_asc'] as const;
export const reimbursementSortSchema = z.enum(REIMBURSEMENT_SORTS);
export type ReimbursementSort = z.infer<typeof reimbursementSortSchema>;

export const reimbursementFilterSchema = z.object({
  q: z.string().max(200).optional(),
  statuses: csv(reimbursementStatusSchema).optional(),
  types: csv(reimbursementTypeSchema).optional(),
  user_ids: csv(z.uuid()).optional(),
});
export type ReimbursementFilter = z.infer<typeof reimbursementFilterSchema>;

/** The structured part of a filter (free text `q` is matched by the text index over `searchText`). */
const matchesReimbursementFilter = listMatcher<Reimbursement, ReimbursementFilter>([
  { param: 'statuses', field: 'status' },
  { param: 'types', field: 'type' },
  { param: 'user_ids', field: 'user_id' },
]);

const newestCreated = byDateThenId<Reimbursement>('created_at', 'desc');

function compareReimbursements(sort: ReimbursementSort) {
  // Newest claim date first; ties newest created first, then by id (a total order).
  const byDateDesc = (a: Reimbursement, b: Reimbursement) => ascending(b.transaction_date, a.transaction_date) || newestCreated(a, b);
  switch (sort) {
    case 'date_desc':
      return byDateDesc;
    case 'date_asc':
      return (a: Reimbursement, b: Reimbursement) => byDateDesc(b, a);
    case 'amount_desc':
      return (a: Reimbursement, b: Reimbursement) => b.amount - a.amount || byDateDesc(a, b);
    case 'amount_asc':
      return (a: Reimbursement, b: Reimbursement) => a.amount - b.amount || byDateDesc(a, b);
  }
}

const referencedIds = (r: Reimbursement) => presentIds(r.user_id, r.gl_account_id, r.department_id);

export const reimbursementEntity = defineEntity({
  name: 'reimbursements',
  schema: reimbursementSchema,
  mirror: newestFirst('date_desc', 'transaction_date'),
  visibility: 'owner',
  // The server's list matches the same fields (server/domain/reimbursements.ts, SEARCH_COLUMNS).
  searchText: ['merchant', 'memo', 'start_location', 'end_location', 'location'],
  query: {
    filter: reimbursementFilterSchema, sorts: REIMBURSEMENT_SORTS,
    matches: matchesReimbursementFilter, compare: compareReimbursements, referencedIds,
  },
  /** Table `reimbursements` (migrations 007, 011, 020). */
  columns: columnsOf(reimbursementSchema, {
    user_id: { indexed: true },
    transaction_date: { indexed: true },
    // Rows stored before claims carried receipts read as none.
    receipt_ids: { missing: 'empty list' },
    accounting_synced_at: { missing: 'null' },
  }),
});
