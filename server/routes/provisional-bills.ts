import {
  createProvisionalBill, deleteAllProvisionalBills, deleteProvisionalBill, listProvisionalBills, updateProvisionalBill,
} from '../../schema/api/calls-provisional-bills.ts';
import {
  createProvisionalBill as create, deleteAllProvisionalBills as removeAll, deleteProvisionalBill as remove, listProvisionalBills as list,
  provisionalBillCreatedBefore as createdBefore, updateProvisionalBill as update,
} from '../domain/provisional-bills.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import { inWriteTx } from './admin.ts';

/** Provisional bills (issue 11): the domain checks bill-pay management first (403 before any lookup). */
export const provisionalBillHandlers = {
  [listProvisionalBills.id]: async (ctx) => ok(await list(ctx.db, actorOf(ctx).user)),
  // 201 for a new row; a client id the caller already created under answers that row (200).
  [createProvisionalBill.id]: async (ctx) => {
    const user = actorOf(ctx).user;
    const { body } = ctx.input;
    const before = body.id ? await createdBefore(ctx.db, user, body.id) : null;
    return before ? ok(before) : ok(await create(ctx.db, user, body, new Date(ctx.deps.now())), 201);
  },
  [updateProvisionalBill.id]: async (ctx) =>
    ok(await update(ctx.db, actorOf(ctx).user, ctx.input.params.provisional_bill_uuid, ctx.input.body, new Date(ctx.deps.now()))),
  // DELETE is not run in a transaction by register (no Idempotency-Key): each opens one.
  [deleteProvisionalBill.id]: async (ctx) => {
    const user = actorOf(ctx).user;
    const now = new Date(ctx.deps.now());
    return ok(await inWriteTx(ctx, deleteProvisionalBill, (tx) => remove(tx, user, ctx.input.params.provisional_bill_uuid, now)));
  },
  [deleteAllProvisionalBills.id]: async (ctx) => {
    const user = actorOf(ctx).user;
    const now = new Date(ctx.deps.now());
    return ok(await inWriteTx(ctx, deleteAllProvisionalBills, (tx) => removeAll(tx, user, now)));
  },
} satisfies DomainHandlers;
