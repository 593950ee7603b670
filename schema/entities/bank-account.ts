import { z } from 'zod';
import { isoDateTime, mirroredFields, uuid } from './common.ts';
import { defineReference } from './define-entity.ts';
import { bankAccountTypeSchema } from './vendor.ts';

/**
 * Issue 30 "Banking links": a bank account of the business outside Ledgerline (the source or
 * target of a wallet transfer), linked by hand and verified by two micro-deposits. Table
 * `bank_accounts` (migrations 058, 062, 064). The wire row (`linkedBankAccountSchema`) is what the
 * bank list answers (schema/api/calls-banking.ts re-exports it); mirrored as reference data in
 * `refs` (no RxDB slot of its own), admins only (`treasury`), so the bank pages and the transfer
 * form read it offline, marked with when the mirror last synced. Every write of the table takes a
 * fresh seq (064's trigger), so each write path is mirrored without writing seqs itself.
 * Never the whole account number: `account_number_masked` is built from the last four digits.
 */
export const BANK_ACCOUNT_STATUSES = ['UNVERIFIED', 'PENDING_VERIFICATION', 'VERIFIED', 'FAILED'] as const;
/** Wrong micro-deposit answers allowed before the link is FAILED (BANKING_7003). */
export const MAX_DEBIT_CHECK_ATTEMPTS = 3;

/** "••••6789": never the whole number outside the reveal. */
export const maskNumber = (last4: string) => `••••${last4}`;

/** §3: the bank list's `accounts` carry `id` (and `uuid`, the same value). */
export const linkedBankAccountSchema = z.object({
  id: uuid,
  uuid,
  name: z.string(),
  bank_name: z.string(),
  account_type: bankAccountTypeSchema,
  routing_number: z.string(),
  /** "••••6789" (maskNumber): never the whole number outside the reveal. */
  account_number_masked: z.string(),
  currency: z.string().length(3),
  entity_id: uuid.nullable(),
  status: z.enum(BANK_ACCOUNT_STATUSES),
  verified_at: isoDateTime.nullable(),
  /** Wrong micro-deposit answers left (PENDING_VERIFICATION only). */
  attempts_left: z.number().int().nonnegative().nullable(),
  /** Its side of the ledger (for transfers: `to_account_id` may name the bank account's `id`). */
  created_at: isoDateTime,
});
export type LinkedBankAccount = z.infer<typeof linkedBankAccountSchema>;

/** The mirrored row: the wire row plus the fields every mirrored row carries. */
export const bankAccountSchema = linkedBankAccountSchema.extend(mirroredFields);
export type BankAccount = z.infer<typeof bankAccountSchema>;

/** The wire row of a mirrored one (what the bank list answers): the mirrored fields dropped. */
export function linkedOf(row: Omit<BankAccount, 'deleted'> & { deleted?: boolean }): LinkedBankAccount {
  const { business_id: _b, change_seq: _s, updated_at: _u, deleted: _d, ...wire } = row;
  return wire;
}

export const bankAccountEntity = defineReference({
  name: 'bank_accounts',
  schema: bankAccountSchema,
  visibility: 'treasury',
  searchText: ['name', 'bank_name'],
  columns: {
    uuid: { sql: 'r.id' },
    // As maskNumber and the server's toWire (server/domain/banking/bank-accounts.ts) build it.
    account_number_masked: { sql: `'••••' || r.account_last4` },
    attempts_left: {
      sql: `CASE WHEN r.status = 'PENDING_VERIFICATION' THEN ${MAX_DEBIT_CHECK_ATTEMPTS} - r.verify_attempts END`,
    },
  },
});
