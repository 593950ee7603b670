import { z } from 'zod';
import { isoDateTime, mirroredFields, uuid } from './common.ts';
import { currencyCodeSchema } from '../money.ts';

export const transactionStateSchema = z.enum(['PENDING', 'CLEARED', 'DECLINED', 'REVERSED']);
export type TransactionState = z.infer<typeof transactionStateSchema>;

/** Accounting coding of a transaction. tracking: tracking category id → option id. */
export const codingSchema = z.object({
  gl_account_id: uuid.nullable(),
  department_id: uuid.nullable(),
  location_id: uuid.nullable(),
  tracking: z.record(z.string(), uuid),
});
export type Coding = z.infer<typeof codingSchema>;

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
  ...mirroredFields,
});
export type Transaction = z.infer<typeof transactionSchema>;

/** A transaction misses coding when it has no GL account (what bookkeepers chase). */
export const isMissingCoding = (t: Pick<Transaction, 'gl_account_id'>) => t.gl_account_id === null;
