import type { z } from 'zod';
import {
  createBillTemplate, createRecurringBill, createVendorCredit, deleteBillTemplate, deleteRecurringBill, deleteVendorCredit,
  listBillTemplates, listRecurringBills, listVendorCredits, updateRecurringBill, type BillTemplate, type billTemplateCreateSchema,
} from '../../schema/api/calls-bill-extras.ts';
import type { RecurringBillTemplate, recurringBillCreateSchema, recurringBillPatchSchema } from '../../schema/entities/recurring-bill.ts';
import type { VendorCredit, vendorCreditCreateSchema } from '../../schema/entities/vendor-credit.ts';
import { MAX_PAGE_SIZE } from '../../schema/paging.ts';
import { allPages, bindDomain, custom, offlineFailure, onlineDomain, via, type OnlineApi, type OnlinePort } from '../online.ts';
import type { BillCallFailure } from './bills.ts';

export { MAX_LIST_PAGES } from '../online.ts';

export type RecurringBillInput = z.input<typeof recurringBillCreateSchema>;
export type RecurringBillPatchInput = z.input<typeof recurringBillPatchSchema>;
export type BillTemplateInput = z.input<typeof billTemplateCreateSchema>;
export type VendorCreditInput = z.input<typeof vendorCreditCreateSchema>;
export type RecurringBillResult = { ok: true; recurring: RecurringBillTemplate } | BillCallFailure;
export type BillTemplateResult = { ok: true; template: BillTemplate } | BillCallFailure;
export type VendorCreditResult = { ok: true; credit: VendorCredit } | BillCallFailure;

/**
 * Refused before any request: recurring bills, templates and vendor credits live on the server
 * only (nothing of them is mirrored, nothing queued), so reading them as well as changing them
 * needs a connection.
 */
export const BILL_EXTRAS_OFFLINE = offlineFailure(
  'You’re offline. Recurring bills, bill templates and vendor credits are kept on the server and need a connection: nothing was sent.',
);

/** The largest pages the call allows, from `start` (a list is read whole: `allPages`). */
const paging = (start: string | undefined) => ({ page_size: MAX_PAGE_SIZE, ...(start ? { start } : {}) });
const recurringId = (id: string) => ({ recurring_bill_template_id: id });
const recurring = (r: RecurringBillTemplate) => ({ recurring: r });
const template = (t: BillTemplate) => ({ template: t });
const credit = (c: VendorCredit) => ({ credit: c });

/**
 * Bill pay's extras (issue 11 §7): recurring bills, bill templates and vendor credits. They are
 * server-only rows (not mirrored), so every call, the lists too, is a direct call, online only
 * (`offline`: nothing was sent). A list is every row the server holds (newest first), read page
 * by page (the pages show every template and credit; the bill form sums a vendor's credits); a
 * delete answers the row as tombstoned.
 */
export const BILL_EXTRA_CALLS = onlineDomain(BILL_EXTRAS_OFFLINE, {
  recurringBills: custom((send) => async (): Promise<{ ok: true; recurring: RecurringBillTemplate[] } | BillCallFailure> => {
    const r = await allPages((start) => send(listRecurringBills, { query: paging(start) }));
    return r.ok ? { ok: true, recurring: r.rows } : r;
  }),
  createRecurringBill: via(createRecurringBill, (body: RecurringBillInput) => ({ body }), recurring),
  /** Pause (`status: 'PAUSED'`), resume (`'ACTIVE'`: periods missed meanwhile are not billed) or edit. */
  updateRecurringBill: via(updateRecurringBill, (id: string, patch: RecurringBillPatchInput) => ({ params: recurringId(id), body: patch }), recurring),
  /** The bills it already made stay as they are. */
  deleteRecurringBill: via(deleteRecurringBill, (id: string) => ({ params: recurringId(id) }), recurring),
  billTemplates: custom((send) => async (): Promise<{ ok: true; templates: BillTemplate[] } | BillCallFailure> => {
    const r = await allPages((start) => send(listBillTemplates, { query: paging(start) }));
    return r.ok ? { ok: true, templates: r.rows } : r;
  }),
  createBillTemplate: via(createBillTemplate, (body: BillTemplateInput) => ({ body }), template),
  deleteBillTemplate: via(deleteBillTemplate, (id: string) => ({ params: { bill_template_uuid: id } }), template),
  /** Every credit of the business, or of one vendor; `remaining` is what bills can still take. */
  vendorCredits: custom((send) => async (vendorId?: string): Promise<{ ok: true; credits: VendorCredit[] } | BillCallFailure> => {
    const r = await allPages((start) => send(listVendorCredits, { query: { ...paging(start), ...(vendorId ? { vendor_id: vendorId } : {}) } }));
    return r.ok ? { ok: true, credits: r.rows } : r;
  }),
  createVendorCredit: via(createVendorCredit, (body: VendorCreditInput) => ({ body }), credit),
  /** Refused (REQUEST_7001, the server's words) once any of it is applied to a live bill. */
  deleteVendorCredit: via(deleteVendorCredit, (id: string) => ({ params: { vendor_credit_uuid: id } }), credit),
});

export type BillExtrasApi = OnlineApi<typeof BILL_EXTRA_CALLS>;

export const billExtraHandlers = (port: OnlinePort): BillExtrasApi => bindDomain(port, BILL_EXTRA_CALLS);
