import { z } from 'zod';
import { callGroup } from './call-group.ts';
import { reimbursementFilterSchema, reimbursementSchema } from '../entities/reimbursement.ts';
import { knownCurrencySchema } from '../money.ts';
import { pageQuerySchema, paginatedSchema } from '../paging.ts';
import { errorV2Schema } from '../errors.ts';
import { PAYMENT_METHODS } from '../reimbursement-rules.ts';

/**
 * Reimbursements (issue 9 §3, first slice): create (out of pocket, mileage, per diem), read,
 * list, edit, submit and delete a draft. Approval and payment come later.
 *
 * Offline creates: the outbox may send a create twice (after a lost answer, under a new
 * Idempotency-Key once the stored one expired). Each create body therefore accepts an optional
 * client-generated `id`: the row is created with it, and a repeat of a create whose id the
 * caller already owns answers that row instead of making a second claim.
 */
const scopes = { scopes: ['default'] } as const;

const text = (max: number) => z.string().trim().max(max);
const isoDate = z.iso.date();
/** At most this many receipts on one claim. */
const MAX_CLAIM_RECEIPTS = 20;
/** A claim's receipts (issue 9): receipt ids the caller may see; the set replaces the claim's. */
const claimReceiptIds = z.array(z.uuid()).max(MAX_CLAIM_RECEIPTS);
/** Fields every claim type takes. */
const common = {
  id: z.uuid().optional(),
  receipt_ids: claimReceiptIds.optional(),
  memo: text(2000).nullable().optional(),
  gl_account_id: z.uuid().nullable().optional(),
  department_id: z.uuid().nullable().optional(),
  /** Submit at once (default) or keep as a draft. */
  submit: z.boolean().default(true),
};

export const outOfPocketBodySchema = z.object({
  ...common,
  merchant: text(200).nullable().optional(),
  /** Integer minor units of `currency`, > 0. */
  amount: z.number().int().positive(),
  currency: knownCurrencySchema,
  transaction_date: isoDate,
});
export const mileageBodySchema = z.object({
  ...common,
  distance_miles: z.number().positive().max(2000),
  start_location: text(200).min(1),
  end_location: text(200).min(1),
  trip_date: isoDate,
});
export const perDiemBodySchema = z.object({
  ...common,
  location: text(200).min(1),
  start_date: isoDate,
  end_date: isoDate,
});

/** An edit: only the keys present change; fields of another claim type are refused (422). */
export const reimbursementPatchSchema = z.object({
  receipt_ids: claimReceiptIds.optional(),
  memo: text(2000).nullable().optional(),
  gl_account_id: z.uuid().nullable().optional(),
  department_id: z.uuid().nullable().optional(),
  merchant: text(200).nullable().optional(),
  amount: z.number().int().positive().optional(),
  currency: knownCurrencySchema.optional(),
  transaction_date: isoDate.optional(),
  distance_miles: z.number().positive().max(2000).optional(),
  start_location: text(200).min(1).optional(),
  end_location: text(200).min(1).optional(),
  trip_date: isoDate.optional(),
  location: text(200).min(1).optional(),
  start_date: isoDate.optional(),
  end_date: isoDate.optional(),
});
export type ReimbursementPatch = z.infer<typeof reimbursementPatchSchema>;
export type OutOfPocketBody = z.infer<typeof outOfPocketBodySchema>;
export type MileageBody = z.infer<typeof mileageBodySchema>;
export type PerDiemBody = z.infer<typeof perDiemBodySchema>;

const reimbursementParams = z.object({ reimbursement_uuid: z.uuid() });
/** Every reimbursement call: under /v1/auth/reimbursements, any member (the server checks whose claim it is). */
const claims = callGroup('/v1/auth/reimbursements', scopes);
/** A status move of one claim: PATCH …/:reimbursement_uuid/<move>, no body, answered with the claim as it now stands. */
const claimMove = <const Id extends string>(id: Id, move: string) => claims(id, 'PATCH', `/:reimbursement_uuid/${move}`, {
  params: reimbursementParams, body: z.object({}).optional(), response: reimbursementSchema,
});

/** A create of one claim type: POST …/<type> with that type's body, answered with the stored claim. */
const claimCreate = <const Id extends string, B extends z.ZodType>(id: Id, type: string, body: B) =>
  claims(id, 'POST', `/${type}`, { body, response: reimbursementSchema });

export const createOutOfPocket = claimCreate('reimbursements.createOutOfPocket', 'out_of_pocket', outOfPocketBodySchema);
export const createMileage = claimCreate('reimbursements.createMileage', 'mileage', mileageBodySchema);
export const createPerDiem = claimCreate('reimbursements.createPerDiem', 'per-diem', perDiemBodySchema);

export const getReimbursement = claims('reimbursements.get', 'GET', '/:reimbursement_uuid', {
  params: reimbursementParams,
  response: reimbursementSchema,
});

/** Keyset list, newest claim date first (§7 paging: page_size, start cursor, include_count). */
export const listReimbursements = claims('reimbursements.list', 'GET', '', {
  retry: 'paged',
  query: pageQuerySchema.extend(reimbursementFilterSchema.shape),
  response: paginatedSchema(reimbursementSchema),
});

export const patchReimbursement = claims('reimbursements.patch', 'PATCH', '/:reimbursement_uuid', {
  // §6: the missing-items tokens may fix the holder's own claim (the restricted one: its receipts only).
  auth: { scopes: ['default', 'missing-items', 'missing-items-restricted'] },
  params: reimbursementParams,
  body: reimbursementPatchSchema,
  response: reimbursementSchema,
});

export const submitReimbursement = claimMove('reimbursements.submit', 'submit');

export const deleteReimbursement = claims('reimbursements.delete', 'DELETE', '/:reimbursement_uuid', {
  params: reimbursementParams,
  response: z.object({ id: z.uuid(), deleted: z.literal(true), change_seq: z.number().int() }),
});

/**
 * §7 "PUT draft save": the whole draft under a client-chosen id. Creates the caller's draft when
 * the id is new, else replaces the fields of the caller's draft (a nullable field left out is
 * cleared); the type cannot change and only a DRAFT is saved this way (submit it with /submit).
 */
export const draftBodySchema = z.discriminatedUnion('type', [
  outOfPocketBodySchema.omit({ id: true, submit: true }).extend({ type: z.literal('OUT_OF_POCKET') }),
  mileageBodySchema.omit({ id: true, submit: true }).extend({ type: z.literal('MILEAGE') }),
  perDiemBodySchema.omit({ id: true, submit: true }).extend({ type: z.literal('PER_DIEM') }),
]);
export type DraftBody = z.infer<typeof draftBodySchema>;
export const saveDraft = claims('reimbursements.saveDraft', 'PUT', '/:reimbursement_uuid/draft', {
  params: reimbursementParams,
  body: draftBodySchema,
  response: reimbursementSchema,
});

/** REJECTED → SUBMITTED: a rejected claim (edited through PATCH while rejected) goes back to review. */
export const resubmitReimbursement = claimMove('reimbursements.resubmit', 'resubmit');

/** DRAFT | SUBMITTED | REJECTED → CANCELED (the claimant's; a pending review is canceled with it). */
export const cancelReimbursement = claimMove('reimbursements.cancel', 'cancel');

/**
 * Possible duplicates of a claim: the same claimant, amount and claim date, and a similar
 * merchant (equal once case, spaces and punctuation are dropped, one containing the other, or
 * either side without one). Given `reimbursement_id` (a visible claim, which is left out of the
 * answer) or a draft's fields (the caller's own claims are searched). Every match is answered.
 */
const duplicateBodySchema = z.object({
  reimbursement_id: z.uuid().optional(),
  merchant: text(200).nullable().optional(),
  amount: z.number().int().positive().optional(),
  transaction_date: isoDate.optional(),
});
export const findDuplicateReimbursements = claims('reimbursements.duplicates', 'POST', '/duplicate', {
  body: duplicateBodySchema,
  response: z.object({ data: z.array(reimbursementSchema) }),
});

/** One answer per id of a bulk call, in the order asked: the row, or the refusal error_v2. */
export function bulkResultSchema<T extends z.ZodType>(row: T) {
  return z.discriminatedUnion('ok', [
    z.object({ id: z.uuid(), ok: z.literal(true), row }),
    z.object({ id: z.uuid(), ok: z.literal(false), ...errorV2Schema.shape }),
  ]);
}
const MAX_BULK_REIMBURSEMENTS = 500;
const bulkIds = z.array(z.uuid()).min(1).max(MAX_BULK_REIMBURSEMENTS);

/** The fields a bulk edit sets: coding and memo. */
const reimbursementBulkPatchSchema = reimbursementPatchSchema.pick({ memo: true, gl_account_id: true, department_id: true });
const bulkUpdateBodySchema = z.object({ reimbursement_ids: bulkIds, patch: reimbursementBulkPatchSchema });

/** Each claim is checked and written on its own (the PATCH rules); one refusal leaves the others. */
export const bulkUpdateReimbursements = claims('reimbursements.bulkUpdate', 'POST', '/bulk-update', {
  body: bulkUpdateBodySchema,
  response: z.object({ results: z.array(bulkResultSchema(reimbursementSchema)), change_seq: z.number().int() }),
});

/**
 * Deletes drafts (each checked like DELETE …/:id), at §7's `DELETE reimbursements/bulk`. The path
 * also matches `DELETE …/:reimbursement_uuid`; the static segment wins (server/http/register.ts
 * registers static segments before parameters), as in any router.
 */
export const bulkDeleteReimbursements = claims('reimbursements.bulkDelete', 'DELETE', '/bulk', {
  body: z.object({ reimbursement_ids: bulkIds }),
  response: z.object({
    results: z.array(bulkResultSchema(z.object({ deleted: z.literal(true), change_seq: z.number().int() }))),
    change_seq: z.number().int(),
  }),
});

/**
 * APPROVED → PAID (admins): one simulated ledger payment of the claim's amount to the claimant,
 * by ACH or, when the claimant has a payroll currency (§6), through payroll. Money moves once:
 * the Idempotency-Key, the status machine and a unique index on open payments.
 */
export const payAchBodySchema = z.object({ method: z.enum(PAYMENT_METHODS).default('ACH') });
export const payReimbursement = claims('reimbursements.payAch', 'PATCH', '/:reimbursement_uuid/pay-ach', {
  params: reimbursementParams,
  body: payAchBodySchema.optional(),
  response: reimbursementSchema,
});

/** PAID → APPROVED (admins) while the payment has not settled: a reversing ledger entry. */
export const cancelReimbursementPayment = claimMove('reimbursements.cancelPayment', 'cancel-payment');

export const REIMBURSEMENT_CALLS = [
  createOutOfPocket,
  createMileage,
  createPerDiem,
  listReimbursements,
  getReimbursement,
  patchReimbursement,
  submitReimbursement,
  deleteReimbursement,
  saveDraft,
  resubmitReimbursement,
  cancelReimbursement,
  findDuplicateReimbursements,
  bulkUpdateReimbursements,
  bulkDeleteReimbursements,
  payReimbursement,
  cancelReimbursementPayment,
] as const;
