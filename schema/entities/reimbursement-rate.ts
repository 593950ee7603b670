import { z } from 'zod';
import { mirroredFields, uuid } from './common.ts';
import { defineReference } from './define-entity.ts';
import { currencyCodeSchema } from '../money.ts';

/**
 * A business's reimbursement rates (issue 9 §3), reference data every member mirrors (the `refs`
 * collection) so the per-diem form offers the business's locations offline:
 * - `PER_DIEM`: a per-diem location, `name` (unique per business, case-insensitively) and its
 *   daily rate, `rate` minor units of `currency` per full day. A claim for that location is paid
 *   in that currency; any other location at the default (68 USD).
 * - `MILEAGE`: the business's own mileage rate for trips in `year`, `rate` mills (tenths of a
 *   cent) per mile like the IRS table (725 = 72.5 ¢), always USD; it overrides the IRS rate.
 * The rules that use them are in schema/reimbursement-rules.ts.
 */
const REIMBURSEMENT_RATE_KINDS = ['PER_DIEM', 'MILEAGE'] as const;
const reimbursementRateKindSchema = z.enum(REIMBURSEMENT_RATE_KINDS);

export const reimbursementRateSchema = z.object({
  id: uuid,
  kind: reimbursementRateKindSchema,
  /** PER_DIEM: the location's name; null for MILEAGE. */
  name: z.string().min(1).max(200).nullable(),
  /** MILEAGE: the trip year; null for PER_DIEM. */
  year: z.number().int().nullable(),
  /** PER_DIEM: minor units of `currency` per full day. MILEAGE: mills (0.1 ¢) per mile. */
  rate: z.number().int().positive(),
  currency: currencyCodeSchema,
  ...mirroredFields,
});
export type ReimbursementRate = z.infer<typeof reimbursementRateSchema>;

/** Table `reimbursement_rates` (migration 010). */
export const reimbursementRateEntity = defineReference({
  name: 'reimbursement_rates', schema: reimbursementRateSchema, visibility: 'business', searchText: ['name'],
  columns: { year: { type: 'int' }, rate: { type: 'int' } },
});

/**
 * The live rates as the rules take them (`BusinessRates`): what a create or edit command carries
 * for its optimistic `apply` (the server never reads it: it applies its own table).
 */
export const businessRatesSchema = z
  .array(reimbursementRateSchema.pick({ kind: true, name: true, year: true, rate: true, currency: true }))
  .max(2000);

/** The rules' input from mirrored or stored rows: live rows, the fields the rules read. */
export function businessRatesOf(rows: readonly Pick<ReimbursementRate, 'kind' | 'name' | 'year' | 'rate' | 'currency' | 'deleted'>[]) {
  return rows.filter((r) => !r.deleted).map(({ kind, name, year, rate, currency }) => ({ kind, name, year, rate, currency }));
}
