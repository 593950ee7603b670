import { z } from 'zod';
import { defineCall } from './define-call.ts';
import { reimbursementFilterSchema, reimbursementSchema } from '../entities/reimbursement.ts';
import { knownCurrencySchema } from '../money.ts';
import { pageQuerySchema, paginatedSchema } from '../paging.ts';

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
/** Fields every claim type takes. */
const common = {
  id: z.uuid().optional(),
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

export const createOutOfPocket = defineCall({
  id: 'reimbursements.createOutOfPocket',
  method: 'POST',
  path: '/v1/auth/reimbursements/out_of_pocket',
  auth: scopes,
  body: outOfPocketBodySchema,
  response: reimbursementSchema,
});

export const createMileage = defineCall({
  id: 'reimbursements.createMileage',
  method: 'POST',
  path: '/v1/auth/reimbursements/mileage',
  auth: scopes,
  body: mileageBodySchema,
  response: reimbursementSchema,
});

export const createPerDiem = defineCall({
  id: 'reimbursements.createPerDiem',
  method: 'POST',
  path: '/v1/auth/reimbursements/per-diem',
  auth: scopes,
  body: perDiemBodySchema,
  response: reimbursementSchema,
});

export const getReimbursement = defineCall({
  id: 'reimbursements.get',
  method: 'GET',
  path: '/v1/auth/reimbursements/:reimbursement_uuid',
  auth: scopes,
  params: reimbursementParams,
  response: reimbursementSchema,
});

/** Keyset list, newest claim date first (§7 paging: page_size, start cursor, include_count). */
export const listReimbursements = defineCall({
  id: 'reimbursements.list',
  method: 'GET',
  path: '/v1/auth/reimbursements',
  auth: scopes,
  retry: 'paged',
  query: pageQuerySchema.extend(reimbursementFilterSchema.shape),
  response: paginatedSchema(reimbursementSchema),
});

export const patchReimbursement = defineCall({
  id: 'reimbursements.patch',
  method: 'PATCH',
  path: '/v1/auth/reimbursements/:reimbursement_uuid',
  auth: scopes,
  params: reimbursementParams,
  body: reimbursementPatchSchema,
  response: reimbursementSchema,
});

export const submitReimbursement = defineCall({
  id: 'reimbursements.submit',
  method: 'PATCH',
  path: '/v1/auth/reimbursements/:reimbursement_uuid/submit',
  auth: scopes,
  params: reimbursementParams,
  body: z.object({}).optional(),
  response: reimbursementSchema,
});

export const deleteReimbursement = defineCall({
  id: 'reimbursements.delete',
  method: 'DELETE',
  path: '/v1/auth/reimbursements/:reimbursement_uuid',
  auth: scopes,
  params: reimbursementParams,
  response: z.object({ id: z.uuid(), deleted: z.literal(true), change_seq: z.number().int() }),
});

export const REIMBURSEMENT_CALLS = [
  createOutOfPocket,
  createMileage,
  createPerDiem,
  listReimbursements,
  getReimbursement,
  patchReimbursement,
  submitReimbursement,
  deleteReimbursement,
] as const;
