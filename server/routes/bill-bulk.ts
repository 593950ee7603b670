import {
  bulkAmount, bulkCancel, bulkDueDate, bulkEntity, bulkInvoiceDate, bulkMarkPaid, bulkMarkReconciled, bulkMemo, bulkPaymentDate,
  bulkRemindApprovers, bulkRetryAccountingSync, bulkRetryPayment, bulkTrackingCategory,
} from '../../schema/api/calls-bill-bulk.ts';
import { requireVerifiedEmail } from '../auth/email-verification.ts';
import { mailer } from '../http/mail-links.ts';
import * as bulk from '../domain/bill-bulk.ts';
import { ok, type DomainHandlers } from '../http/handler.ts';
import { billManagerOf, nowOf } from './bill-access.ts';

/** §7 bill bulk actions (issue 11): bill managers only, 403 before any lookup; rules in domain/bill-bulk.ts. */

export const billBulkHandlers = {
  [bulkDueDate.id]: async (ctx) =>
    ok(await bulk.bulkDates(ctx.db, billManagerOf(ctx), ctx.input.body.bill_ids, 'due_date', ctx.input.body.due_date, nowOf(ctx))),
  [bulkInvoiceDate.id]: async (ctx) =>
    ok(await bulk.bulkDates(ctx.db, billManagerOf(ctx), ctx.input.body.bill_ids, 'invoice_date', ctx.input.body.invoice_date, nowOf(ctx))),
  [bulkEntity.id]: async (ctx) => ok(await bulk.bulkEntity(ctx.db, billManagerOf(ctx), ctx.input.body.bill_ids, ctx.input.body.entity_id, nowOf(ctx))),
  [bulkMemo.id]: async (ctx) => ok(await bulk.bulkMemo(ctx.db, billManagerOf(ctx), ctx.input.body.bill_ids, ctx.input.body.memo, nowOf(ctx))),
  [bulkPaymentDate.id]: async (ctx) =>
    ok(await bulk.bulkPaymentDate(ctx.db, billManagerOf(ctx), ctx.input.body.bill_ids, ctx.input.body.payment_date, nowOf(ctx), ctx.input.body.rail)),
  [bulkTrackingCategory.id]: async (ctx) => {
    const { bill_ids, tracking_category_id, option_id } = ctx.input.body;
    return ok(await bulk.bulkTracking(ctx.db, billManagerOf(ctx), bill_ids, tracking_category_id, option_id, nowOf(ctx)));
  },
  [bulkCancel.id]: async (ctx) => ok(await bulk.bulkCancel(ctx.db, billManagerOf(ctx), ctx.input.body.bill_ids, nowOf(ctx))),
  [bulkAmount.id]: async (ctx) => ok(await bulk.bulkAmount(ctx.db, billManagerOf(ctx), ctx.input.body.bills, nowOf(ctx))),
  [bulkMarkPaid.id]: async (ctx) =>
    ok(await bulk.bulkMarkPaid(ctx.db, billManagerOf(ctx), ctx.input.body.bill_ids, ctx.input.body.payment_date, nowOf(ctx))),
  [bulkMarkReconciled.id]: async (ctx) => ok(await bulk.bulkMarkReconciled(ctx.db, billManagerOf(ctx), ctx.input.body.bill_ids, nowOf(ctx))),
  [bulkRetryPayment.id]: async (ctx) => ok(await bulk.bulkRetryPayment(ctx.db, billManagerOf(ctx), ctx.input.body.bill_ids, nowOf(ctx))),
  [bulkRetryAccountingSync.id]: async (ctx) => ok(await bulk.bulkRetryAccountingSync(ctx.db, billManagerOf(ctx), ctx.input.body.bill_ids, nowOf(ctx))),
  [bulkRemindApprovers.id]: async (ctx) => {
    await requireVerifiedEmail(ctx);
    const user = billManagerOf(ctx);
    return ok(await bulk.bulkRemind(ctx.db, user, ctx.input.body.bill_ids, nowOf(ctx), mailer(ctx)));
  },
} satisfies DomainHandlers;
