import {
  createManualAccount, deleteBankAccount, deleteStatement, getStatement, getStatementFile, listBankAccounts, listEntityCashAccounts,
  listStatements, putEntityCashAccount, putStatementLines, revealBankAccount, startDebitCheck, updateBankAccount, uploadStatement,
  verifyDebitCheck,
} from '../../schema/api/calls-banking.ts';
import { ApiError } from '../core/errors.ts';
import {
  assertTreasuryAdmin, createManualAccount as create, deleteBankAccount as removeAccount, listBankAccounts as listAccounts,
  revealBankAccount as reveal, updateBankAccount as update,
} from '../domain/banking/bank-accounts.ts';
import { startDebitCheck as start, verifyDebitCheck as verify } from '../domain/banking/debit-check.ts';
import {
  deleteStatement as removeStatement, getStatement as findStatement, listStatements as listAll, putStatementLines as putLines,
  readStatementFile, statementFileName, uploadStatement as upload,
} from '../domain/banking/statements.ts';
import { listEntityCashAccounts as listCash, putEntityCashAccount as putCash } from '../domain/banking/cash-accounts.ts';
import { fileHeaders } from '../http/file-headers.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import { inWriteTx } from './admin.ts';

/**
 * Banking links (issue 30, schema/api/calls-banking.ts; domain/banking/): admins only, refused
 * with TREASURY_7001 before any lookup; another business's ids are 404. PUT and DELETE are not
 * idempotency-keyed, so register runs them outside a transaction: they open one.
 */
function adminOf(ctx: Parameters<typeof actorOf>[0]) {
  const actor = actorOf(ctx);
  assertTreasuryAdmin(actor.user);
  return actor;
}

const nowOf = (ctx: { deps: { now(): number } }) => new Date(ctx.deps.now());

export const bankingHandlers = {
  [listBankAccounts.id]: async (ctx) => ok(await listAccounts(ctx.db, adminOf(ctx).businessId)),

  [createManualAccount.id]: async (ctx) => {
    const { user } = adminOf(ctx);
    return ok(await create(ctx.db, user, ctx.input.body, nowOf(ctx)), 201);
  },

  [updateBankAccount.id]: async (ctx) => {
    const { businessId } = adminOf(ctx);
    return ok(await update(ctx.db, businessId, ctx.input.params.id, ctx.input.body, nowOf(ctx)));
  },

  [revealBankAccount.id]: async (ctx) => ok(await reveal(ctx.db, adminOf(ctx).businessId, ctx.input.params.id)),

  [deleteBankAccount.id]: async (ctx) => {
    const { businessId } = adminOf(ctx);
    return ok(await inWriteTx(ctx, deleteBankAccount, (tx) => removeAccount(tx, businessId, ctx.input.params.id, nowOf(ctx))));
  },

  [startDebitCheck.id]: async (ctx) => {
    const { user } = adminOf(ctx);
    return ok(await start(ctx.db, user, ctx.input.params.id, ctx.deps, nowOf(ctx)));
  },

  // A wrong answer is answered (422/409), not thrown: the attempt it counts must commit.
  [verifyDebitCheck.id]: async (ctx) => {
    const { businessId } = adminOf(ctx);
    const result = await verify(ctx.db, businessId, ctx.input.params.id, ctx.input.body.amounts, nowOf(ctx));
    return result instanceof ApiError ? ok(result.body, result.status) : ok(result);
  },

  [uploadStatement.id]: async (ctx) => {
    const { user } = adminOf(ctx);
    const contentType = (ctx.c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    return ok(await upload(ctx.db, user, ctx.input.query, contentType, ctx.input.body, nowOf(ctx)), 201);
  },

  [listStatements.id]: async (ctx) => ok(await listAll(ctx.db, adminOf(ctx).businessId, ctx.input.query.bank_account_id)),

  [getStatement.id]: async (ctx) => ok(await findStatement(ctx.db, adminOf(ctx).businessId, ctx.input.params.id)),

  [getStatementFile.id]: async (ctx) => {
    const file = await readStatementFile(ctx.db, adminOf(ctx).businessId, ctx.input.params.id);
    return ctx.c.body(new Uint8Array(file.bytes), 200, {
      ...fileHeaders(file.content_type, statementFileName(file.id, file.content_type)),
      'cache-control': 'private, no-store',
      'content-length': String(file.size),
    });
  },

  [putStatementLines.id]: async (ctx) => {
    const { businessId } = adminOf(ctx);
    return ok(await inWriteTx(ctx, putStatementLines, (tx) => putLines(tx, businessId, ctx.input.params.id, ctx.input.body, nowOf(ctx))));
  },

  [deleteStatement.id]: async (ctx) => {
    const { businessId } = adminOf(ctx);
    return ok(await inWriteTx(ctx, deleteStatement, (tx) => removeStatement(tx, businessId, ctx.input.params.id, nowOf(ctx))));
  },

  [listEntityCashAccounts.id]: async (ctx) => ok(await listCash(ctx.db, adminOf(ctx).businessId)),

  [putEntityCashAccount.id]: async (ctx) => {
    const { user } = adminOf(ctx);
    return ok(await inWriteTx(ctx, putEntityCashAccount, (tx) => putCash(tx, user, ctx.input.params.entity_uuid, ctx.input.body, nowOf(ctx))));
  },
} satisfies DomainHandlers;
