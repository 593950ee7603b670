import {
  checkDuplicateInvoice, createBill, deleteBill, expectedSettlement, getBill, listBillPayments, listBills, markBillPaid, payBillsNow,
  reverseBillPayment, updateBill,
} from '../../schema/api/calls-bills.ts';
import type { BillPatch } from '../../schema/entities/bill.ts';
import { expectedSettlementDate } from '../../schema/business-days.ts';
import { advisorBillCoding, advisorBillPatchRefusal } from '../../schema/firm-authorization.ts';
import type { ActingUser } from '../core/actor.ts';
import { ApiError, validationError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import {
  listBillPayments as payments, markBillPaid as markPaid, payBillsNow as payNow, reverseBillPayment as reverse,
} from '../domain/bill-payments.ts';
import { billCreatedBefore } from '../domain/bill-creates.ts';
import {
  createBill as create, deleteBill as remove, duplicateInvoices, findBill, listBills as list, updateBill as update,
} from '../domain/bills.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import { versionedGet, versionedPatch } from './versioned.ts';
import { inWriteTx } from './admin.ts';
import { billManagerOf } from './bill-access.ts';

/** A payment date the calendar cannot read (2026-02-30 passes the ISO shape) is the caller's field error. */
function settlementOf(paymentDate: string, days: number): string {
  try {
    return expectedSettlementDate(paymentDate, days);
  } catch {
    throw validationError({ payment_date: 'Enter the payment date as a calendar date (YYYY-MM-DD).' });
  }
}

/**
 * Who writes a bill patch, and what of it: a bill manager the whole patch; a firm user in the client
 * (issue 31), whose CODE right register's advisor gate already checked, the bill's coding only —
 * any other field it would change answers FIRM_7003 before anything is written (the bill is read
 * locked, so what is compared is what the write replaces), and fields it only repeats are dropped.
 */
async function billPatchOf(
  ctx: Parameters<typeof billManagerOf>[0], db: Queryable, id: string, patch: BillPatch,
): Promise<{ user: ActingUser; patch: BillPatch }> {
  const actor = actorOf(ctx);
  if (!actor.advisor) return { user: billManagerOf(ctx), patch };
  const refusal = advisorBillPatchRefusal(await findBill(db, actor.businessId, id, true), patch);
  if (refusal) throw new ApiError('FIRM_7003', refusal);
  return { user: actor.user, patch: advisorBillCoding(patch) };
}

export const billHandlers = {
  [listBills.id]: async (ctx) => {
    const user = billManagerOf(ctx);
    const { page_size, start, include_count, status, vendor_id } = ctx.input.query;
    return ok(await list(ctx.db, user.business_id, { status, vendor_id }, { pageSize: page_size, start, includeCount: include_count === true }));
  },

  [getBill.id]: versionedGet('bills', 'bill_uuid', async (ctx) => ok(await findBill(ctx.db, billManagerOf(ctx).business_id, ctx.input.params.bill_uuid))),

  // A client id already used by this caller's create answers that bill (offline creates).
  [createBill.id]: async (ctx) => {
    const user = billManagerOf(ctx);
    const { body } = ctx.input;
    const before = body.id ? await billCreatedBefore(ctx.db, user, body.id) : null;
    return ok(before ?? (await create(ctx.db, user, body, new Date(ctx.deps.now()))));
  },

  [updateBill.id]: versionedPatch('bills', 'bill_uuid', async (ctx) => {
    const id = ctx.input.params.bill_uuid;
    const { user, patch } = await billPatchOf(ctx, ctx.db, id, ctx.input.body);
    return ok(await update(ctx.db, user, id, patch, new Date(ctx.deps.now())));
  }),

  // DELETE is not run in a transaction by register (no Idempotency-Key): it opens one.
  [deleteBill.id]: async (ctx) => {
    const user = billManagerOf(ctx);
    const now = new Date(ctx.deps.now());
    return ok(await inWriteTx(ctx, deleteBill, (tx) => remove(tx, user, ctx.input.params.bill_uuid, now)));
  },

  [checkDuplicateInvoice.id]: async (ctx) => {
    const { vendor_id, invoice_number } = ctx.input.body;
    return ok(await duplicateInvoices(ctx.db, billManagerOf(ctx).business_id, vendor_id, invoice_number));
  },

  [expectedSettlement.id]: async (ctx) => {
    billManagerOf(ctx);
    const { payment_date, business_days } = ctx.input.body;
    return ok({ expected_settlement_date: settlementOf(payment_date, business_days) });
  },

  [markBillPaid.id]: async (ctx) =>
    ok(await markPaid(ctx.db, billManagerOf(ctx), ctx.input.params.bill_uuid, ctx.input.body?.payment_date, new Date(ctx.deps.now()))),

  [reverseBillPayment.id]: async (ctx) =>
    ok(await reverse(ctx.db, billManagerOf(ctx), ctx.input.params.bill_uuid, new Date(ctx.deps.now()))),

  [listBillPayments.id]: async (ctx) => ok(await payments(ctx.db, billManagerOf(ctx).business_id, ctx.input.query.bill_id)),

  [payBillsNow.id]: async (ctx) =>
    ok(await payNow(ctx.db, billManagerOf(ctx), ctx.input.body.bill_ids, new Date(ctx.deps.now()), ctx.input.body.rail)),
} satisfies DomainHandlers;
