import {
  createBillTemplate, createRecurringBill, createVendorCredit, deleteBillTemplate, deleteRecurringBill, deleteVendorCredit,
  listBillTemplates, listRecurringBills, listVendorCredits, updateRecurringBill,
} from '../../schema/api/calls-bill-extras.ts';
import type { CallDef, CallResponse } from '../../schema/api/define-call.ts';
import { MAX_PAGE_SIZE } from '../../schema/paging.ts';
import type { CallOptions } from '../../sync/index.ts';
import type { BillCallFailure, BillExtrasApi } from '../api.ts';
import { actionFailure } from '../identity.ts';
import type { WorkerContext } from '../worker-context.ts';

/**
 * Refused before any request: recurring bills, templates and vendor credits live on the server
 * only (nothing of them is mirrored, nothing queued), so reading them as well as changing them
 * needs a connection.
 */
export const BILL_EXTRAS_OFFLINE: BillCallFailure = {
  ok: false,
  offline: true,
  error: {
    error_code: 'OFFLINE',
    message: 'You’re offline. Recurring bills, bill templates and vendor credits are kept on the server and need a connection: nothing was sent.',
  },
};

/** A list is read to its end, page after page, but never past this many pages (a runaway cursor). */
export const MAX_LIST_PAGES = 20;

/**
 * Bill pay's extras (issue 11 §7), straight through the session's HTTP client like handlers/
 * bills.ts: online only, a failure is data, a 401 expires the session like the sync engine's.
 * The lists are read whole (the largest pages the call allows, following `page.next`): the pages
 * show every template and credit of the business, and the bill form sums a vendor's credits.
 */
export function billExtraHandlers(ctx: WorkerContext): BillExtrasApi {
  async function send<C extends CallDef>(def: C, opts: CallOptions<C>): Promise<{ ok: true; data: CallResponse<C> } | BillCallFailure> {
    if (!ctx.hub.online) return BILL_EXTRAS_OFFLINE;
    const res = ctx.watch401(await ctx.requireHttp().call(def, opts));
    if (res.ok) return { ok: true, data: res.data };
    // Never reached the server: nothing changed there, as offline.
    if ((res.kind === 'network' || res.kind === 'timeout') && !res.maybeSent) return BILL_EXTRAS_OFFLINE;
    return actionFailure(res);
  }

  /** Every row of a paged list call, in the server's order; the first refusal is the answer. */
  async function all<T>(page: (start: string | undefined) => Promise<{ ok: true; data: { data: T[]; page: { next: string | null } } } | BillCallFailure>) {
    const rows: T[] = [];
    let start: string | undefined;
    for (let i = 0; i < MAX_LIST_PAGES; i += 1) {
      const r = await page(start);
      if (!r.ok) return r;
      rows.push(...r.data.data);
      if (!r.data.page.next) break;
      start = r.data.page.next;
    }
    return { ok: true as const, rows };
  }
  const paging = (start: string | undefined) => ({ page_size: MAX_PAGE_SIZE, ...(start ? { start } : {}) });
  const recurring = (id: string) => ({ recurring_bill_template_id: id });

  return {
    async recurringBills() {
      const r = await all((start) => send(listRecurringBills, { query: paging(start) }));
      return r.ok ? { ok: true, recurring: r.rows } : r;
    },
    async createRecurringBill(body) {
      const r = await send(createRecurringBill, { body });
      return r.ok ? { ok: true, recurring: r.data } : r;
    },
    async updateRecurringBill(id, patch) {
      const r = await send(updateRecurringBill, { params: recurring(id), body: patch });
      return r.ok ? { ok: true, recurring: r.data } : r;
    },
    async deleteRecurringBill(id) {
      const r = await send(deleteRecurringBill, { params: recurring(id) });
      return r.ok ? { ok: true, recurring: r.data } : r;
    },
    async billTemplates() {
      const r = await all((start) => send(listBillTemplates, { query: paging(start) }));
      return r.ok ? { ok: true, templates: r.rows } : r;
    },
    async createBillTemplate(body) {
      const r = await send(createBillTemplate, { body });
      return r.ok ? { ok: true, template: r.data } : r;
    },
    async deleteBillTemplate(id) {
      const r = await send(deleteBillTemplate, { params: { bill_template_uuid: id } });
      return r.ok ? { ok: true, template: r.data } : r;
    },
    async vendorCredits(vendorId) {
      const r = await all((start) => send(listVendorCredits, { query: { ...paging(start), ...(vendorId ? { vendor_id: vendorId } : {}) } }));
      return r.ok ? { ok: true, credits: r.rows } : r;
    },
    async createVendorCredit(body) {
      const r = await send(createVendorCredit, { body });
      return r.ok ? { ok: true, credit: r.data } : r;
    },
    async deleteVendorCredit(id) {
      const r = await send(deleteVendorCredit, { params: { vendor_credit_uuid: id } });
      return r.ok ? { ok: true, credit: r.data } : r;
    },
  };
}
