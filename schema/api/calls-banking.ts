import { z } from 'zod';
import { callGroup } from './call-group.ts';
import { uploadBodySchema } from './define-call.ts';
import { knownCurrencySchema } from '../money.ts';
import { bankAccountTypeSchema } from '../entities/vendor.ts';
import { linkedBankAccountSchema } from '../entities/bank-account.ts';

/**
 * Issue 30, §7 "Banking links": the business's own bank accounts outside Ledgerline (the source
 * or target of a wallet transfer), linked by hand (routing number with its ABA checksum, else
 * BANKING_7001 on `routing_number`; the account number encrypted at rest and answered masked),
 * verified by two micro-deposits (debit check), their statements (read on the device by OCR when
 * the `bank_account_statement_ocr` flag is on, default on) matched to the ledger's entries, and
 * each entity's cash account. Admins only (TREASURY_7001); another business's id is 404.
 * Revealing or changing the numbers needs the `sensitive` scope (step-up), as vendors' do.
 */
const scopes = { scopes: ['default'] } as const;
const sensitive = { scopes: ['sensitive'] } as const;

// The wire row is the mirrored entity's (schema/entities/bank-account.ts), defined once there.
export { BANK_ACCOUNT_STATUSES, MAX_DEBIT_CHECK_ATTEMPTS, linkedBankAccountSchema, type LinkedBankAccount } from '../entities/bank-account.ts';

const digits = (min: number, max: number) => z.string().trim().regex(new RegExp(`^\\d{${min},${max}}$`), `must be ${min === max ? min : `${min} to ${max}`} digits`);
export const manualAccountBodySchema = z.object({
  name: z.string().trim().min(1).max(100),
  bank_name: z.string().trim().max(100).optional(),
  account_type: bankAccountTypeSchema,
  routing_number: digits(9, 9),
  account_number: digits(4, 17),
  currency: knownCurrencySchema.optional(),
  entity_id: z.uuid().nullable().optional(),
});

const group = callGroup('/v1/auth/banking', scopes);
const sensitiveGroup = callGroup('/v1/auth/banking', sensitive);
const accountParams = z.object({ id: z.uuid() });

export const listBankAccounts = group('banking.accounts.list', 'GET', '/accounts', {
  response: z.object({ accounts: z.array(linkedBankAccountSchema) }),
});
/** 201, UNVERIFIED. Linking where money can be pulled from is sensitive: step-up. */
export const createManualAccount = sensitiveGroup('banking.manualAccount.create', 'POST', '/manual-account', {
  body: manualAccountBodySchema, response: linkedBankAccountSchema,
});
/** §7 Businesses "banking/accounts/{id}": rename, entity, or new numbers (which reset verification). */
export const updateBankAccount = sensitiveGroup('banking.accounts.update', 'PATCH', '/accounts/:id', {
  params: accountParams,
  body: manualAccountBodySchema.omit({ currency: true }).partial(),
  response: linkedBankAccountSchema,
});
export const revealBankAccount = sensitiveGroup('banking.accounts.reveal', 'GET', '/accounts/:id/reveal', {
  params: accountParams,
  response: z.object({ routing_number: z.string(), account_number: z.string(), account_type: bankAccountTypeSchema }),
});
/** §7 DELETE user/bank-accounts/{id}: refused while transfers are on their way or a policy uses it (BANKING_7004). */
export const deleteBankAccount = group('banking.accounts.delete', 'DELETE', '/user/bank-accounts/:id', {
  params: accountParams, response: z.object({ id: z.uuid(), deleted: z.literal(true) }),
});
/** Debit check: sends two micro-deposits (under 1.00 each): UNVERIFIED or FAILED → PENDING_VERIFICATION. */
export const startDebitCheck = group('banking.debitCheck.start', 'POST', '/debit-check/:id', {
  params: accountParams, response: linkedBankAccountSchema,
});
/** The two amounts in minor units, any order: VERIFIED, or BANKING_7002 (attempts left in `errors.amounts`), BANKING_7003 when locked or verified. */
export const verifyDebitCheck = group('banking.debitCheck.verify', 'POST', '/debit-check/:id/verify', {
  params: accountParams,
  body: z.object({ amounts: z.tuple([z.number().int().min(1).max(99), z.number().int().min(1).max(99)]) }),
  response: linkedBankAccountSchema,
});

export const STATEMENT_CONTENT_TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'image/webp'] as const;
export const STATEMENT_MAX_BYTES = 15 * 1024 * 1024;
export const MAX_STATEMENT_LINES = 2_000;

export const statementLineSchema = z.object({
  date: z.iso.date(),
  description: z.string().trim().min(1).max(300),
  /** Signed minor units: money into the bank account positive. */
  amount: z.number().int(),
});
export const statementSchema = z.object({
  id: z.uuid(),
  bank_account_id: z.uuid(),
  file_name: z.string(),
  content_type: z.enum(STATEMENT_CONTENT_TYPES),
  size: z.number().int().positive(),
  /** UPLOADED: no lines yet; READ: lines saved (from the device's OCR or typed). */
  status: z.enum(['UPLOADED', 'READ']),
  period_start: z.iso.date().nullable(),
  period_end: z.iso.date().nullable(),
  lines: z.array(statementLineSchema.extend({
    /** The ledger entry of this bank account the line matches (same amount, within 3 days), or null. */
    matched_entry_id: z.uuid().nullable(),
    matched_transfer_id: z.uuid().nullable(),
  })).max(MAX_STATEMENT_LINES),
  matched: z.number().int().nonnegative(),
  unmatched: z.number().int().nonnegative(),
  uploaded_by: z.uuid(),
  created_at: z.iso.datetime({ offset: true }),
});
export type BankStatement = z.infer<typeof statementSchema>;

/** 201. The body is the file; the bank account and name ride in the query. */
export const uploadStatement = group('banking.statement.upload', 'POST', '/statement', {
  query: z.object({ bank_account_id: z.uuid(), file_name: z.string().trim().min(1).max(200) }),
  body: uploadBodySchema,
  upload: { contentTypes: STATEMENT_CONTENT_TYPES, maxBytes: STATEMENT_MAX_BYTES },
  response: statementSchema,
});
export const listStatements = group('banking.statement.list', 'GET', '/statement', {
  query: z.object({ bank_account_id: z.uuid().optional() }),
  response: z.object({ data: z.array(statementSchema.omit({ lines: true })) }),
});
export const getStatement = group('banking.statement.get', 'GET', '/statement/:id', { params: accountParams, response: statementSchema });
export const getStatementFile = group('banking.statement.file', 'GET', '/statement/:id/file', {
  params: accountParams, response: z.string(),
});
/** The lines read from the statement (on the device), replacing any saved before; the server matches them. */
export const putStatementLines = group('banking.statement.lines', 'PUT', '/statement/:id/lines', {
  params: accountParams,
  body: z.object({
    period_start: z.iso.date().nullable().optional(),
    period_end: z.iso.date().nullable().optional(),
    lines: z.array(statementLineSchema).max(MAX_STATEMENT_LINES),
  }),
  response: statementSchema,
});
/** §7 DELETE statement/{statement}. */
export const deleteStatement = group('banking.statement.delete', 'DELETE', '/statement/:id', {
  params: accountParams, response: z.object({ id: z.uuid(), deleted: z.literal(true) }),
});

/** Each entity's cash account: which linked bank (or wallet) account and GL account its money is booked to. */
export const entityCashAccountSchema = z.object({
  entity_id: z.uuid(),
  bank_account_id: z.uuid().nullable(),
  wallet_account_id: z.uuid().nullable(),
  gl_account_id: z.uuid().nullable(),
  updated_at: z.iso.datetime({ offset: true }),
});
export const listEntityCashAccounts = group('banking.entityCashAccounts.list', 'GET', '/entity-cash-accounts', {
  response: z.object({ data: z.array(entityCashAccountSchema) }),
});
export const putEntityCashAccount = group('banking.entityCashAccounts.put', 'PUT', '/entity-cash-accounts/:entity_uuid', {
  params: z.object({ entity_uuid: z.uuid() }),
  body: z.object({ bank_account_id: z.uuid().nullable(), wallet_account_id: z.uuid().nullable(), gl_account_id: z.uuid().nullable() }),
  response: entityCashAccountSchema,
});

export const BANKING_CALLS = [
  listBankAccounts, createManualAccount, updateBankAccount, revealBankAccount, deleteBankAccount, startDebitCheck, verifyDebitCheck,
  uploadStatement, listStatements, getStatement, getStatementFile, putStatementLines, deleteStatement,
  listEntityCashAccounts, putEntityCashAccount,
] as const;
