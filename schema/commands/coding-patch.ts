import { z } from 'zod';
import { BULK_CODE_MAX } from '../constants.ts';
import { attendeesSchema } from '../entities/transaction.ts';

/**
 * A coding change: only the keys present change. `null` clears a field; in `tracking`, a
 * category mapped to null loses its option.
 */
export const codingPatchSchema = z
  .object({
    memo: z.string().max(2000).nullable().optional(),
    gl_account_id: z.uuid().nullable().optional(),
    department_id: z.uuid().nullable().optional(),
    location_id: z.uuid().nullable().optional(),
    tracking: z.record(z.uuid(), z.uuid().nullable()).optional(),
    /** Issue 26: replaces the transaction's attendees ([] clears them). */
    attendees: attendeesSchema.optional(),
  })
  .strict()
  .refine((p) => Object.keys(p).length > 0, { message: 'at least one field must change' });
export type CodingPatch = z.infer<typeof codingPatchSchema>;

export const bulkCodingBodySchema = z.object({
  transaction_ids: z
    .array(z.uuid())
    .min(1)
    .max(BULK_CODE_MAX)
    .refine((ids) => new Set(ids).size === ids.length, { message: 'must not repeat an id' }),
  patch: codingPatchSchema,
});
export type BulkCodingBody = z.infer<typeof bulkCodingBodySchema>;

