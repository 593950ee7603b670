import { z } from 'zod';
import { isoDateTime, mirroredFields, uuid } from './common.ts';
import { defineReference } from './define-entity.ts';

/**
 * Issue 30: a transfer as mirrored (reference data in `refs`, admins only: `treasury`): between
 * two wallet accounts, from one to a linked bank account, or from a linked bank account into the
 * wallet. Table `wallet_transfers` (migration 058). Created PENDING with its hold posted (amount
 * plus fee leave the source at once); the settlement job settles it on `expected_settlement_date`
 * (business days, schema/business-days.ts); canceled before that, the hold comes back.
 * `from_name` / `to_name` are the accounts' names at read time ("Operating", "Chase ••6789").
 */
export const TRANSFER_STATUSES = ['PENDING', 'SETTLED', 'CANCELED', 'FAILED'] as const;
export const transferStatusSchema = z.enum(TRANSFER_STATUSES);
export type TransferStatus = z.infer<typeof transferStatusSchema>;

export const walletTransferSchema = z.object({
  id: uuid,
  from_account_id: uuid,
  from_name: z.string(),
  to_account_id: uuid,
  to_name: z.string(),
  /** Minor units, > 0. */
  amount: z.number().int().positive(),
  /** Minor units, ≥ 0: held with the amount, charged on settlement. */
  fee: z.number().int().nonnegative(),
  currency: z.string().length(3),
  memo: z.string().max(200),
  status: transferStatusSchema,
  expected_settlement_date: z.iso.date(),
  settled_at: isoDateTime.nullable(),
  canceled_at: isoDateTime.nullable(),
  failed_at: isoDateTime.nullable(),
  failure_reason: z.string().nullable(),
  /** null: an automation policy's run made it. */
  created_by: uuid.nullable(),
  automation_policy_id: uuid.nullable(),
  created_at: isoDateTime,
  ...mirroredFields,
});
export type WalletTransfer = z.infer<typeof walletTransferSchema>;

const nameSql = (side: 'from' | 'to') =>
  `(SELECT a.name FROM ledger_accounts a WHERE a.business_id = r.business_id AND a.id = r.${side}_account_id)`;

export const walletTransferEntity = defineReference({
  name: 'wallet_transfers',
  schema: walletTransferSchema,
  visibility: 'treasury',
  searchText: ['memo', 'from_name', 'to_name'],
  columns: {
    from_name: { sql: nameSql('from') },
    to_name: { sql: nameSql('to') },
  },
});
