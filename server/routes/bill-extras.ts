import {
  createBillTemplate, createRecurringBill, createVendorCredit, deleteBillTemplate, deleteRecurringBill, deleteVendorCredit,
  listBillTemplates, listRecurringBills, listVendorCredits, updateRecurringBill,
} from '../../schema/api/calls-bill-extras.ts';
import * as billTemplates from '../domain/bill-templates.ts';
import {
  createTemplate, deleteTemplate, listTemplates, updateTemplate,
} from '../domain/recurring-bills.ts';
import { createCredit, deleteCredit, listCredits } from '../domain/vendor-credits.ts';
import { ok, type DomainHandlers } from '../http/handler.ts';
import { inWriteTx } from './admin.ts';
import { billManagerOf, nowOf } from './bill-access.ts';

/**
 * Recurring bills, vendor credits and bill templates (issue 11 §7): bill managers only (admin,
 * AP clerk, bookkeeper), 403 before any lookup, as every bill call.
 */
const pageOf = (q: { page_size: number; start?: string | undefined; include_count?: boolean | undefined }) =>
  ({ pageSize: q.page_size, start: q.start, includeCount: q.include_count === true });

export const recurringBillHandlers = {
  [listRecurringBills.id]: async (ctx) => ok(await listTemplates(ctx.db, billManagerOf(ctx).business_id, pageOf(ctx.input.query), nowOf(ctx))),
  [createRecurringBill.id]: async (ctx) => ok(await createTemplate(ctx.db, billManagerOf(ctx), ctx.input.body, nowOf(ctx)), 201),
  [updateRecurringBill.id]: async (ctx) =>
    ok(await updateTemplate(ctx.db, billManagerOf(ctx), ctx.input.params.recurring_bill_template_id, ctx.input.body, nowOf(ctx))),
  // DELETE is not run in a transaction by register (no Idempotency-Key): it opens one.
  [deleteRecurringBill.id]: async (ctx) => {
    const user = billManagerOf(ctx);
    const id = ctx.input.params.recurring_bill_template_id;
    return ok(await inWriteTx(ctx, deleteRecurringBill, (tx) => deleteTemplate(tx, user, id, nowOf(ctx))));
  },
} satisfies DomainHandlers;

export const vendorCreditHandlers = {
  [listVendorCredits.id]: async (ctx) => {
    const { vendor_id, ...page } = ctx.input.query;
    return ok(await listCredits(ctx.db, billManagerOf(ctx).business_id, { vendor_id }, pageOf(page)));
  },
  [createVendorCredit.id]: async (ctx) => ok(await createCredit(ctx.db, billManagerOf(ctx), ctx.input.body, nowOf(ctx)), 201),
  [deleteVendorCredit.id]: async (ctx) => {
    const user = billManagerOf(ctx);
    const id = ctx.input.params.vendor_credit_uuid;
    return ok(await inWriteTx(ctx, deleteVendorCredit, (tx) => deleteCredit(tx, user, id, nowOf(ctx))));
  },
} satisfies DomainHandlers;

export const billTemplateHandlers = {
  [listBillTemplates.id]: async (ctx) => ok(await billTemplates.listBillTemplates(ctx.db, billManagerOf(ctx).business_id, pageOf(ctx.input.query))),
  [createBillTemplate.id]: async (ctx) => ok(await billTemplates.createBillTemplate(ctx.db, billManagerOf(ctx), ctx.input.body, nowOf(ctx)), 201),
  [deleteBillTemplate.id]: async (ctx) => {
    const user = billManagerOf(ctx);
    const id = ctx.input.params.bill_template_uuid;
    return ok(await inWriteTx(ctx, deleteBillTemplate, (tx) => billTemplates.deleteBillTemplate(tx, user, id, nowOf(ctx))));
  },
} satisfies DomainHandlers;
