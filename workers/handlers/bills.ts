import {
  bulkCancel, bulkDueDate, bulkInvoiceDate, bulkMarkPaid, bulkMarkReconciled, bulkMemo, bulkPaymentDate, bulkRemindApprovers,
  bulkRetryAccountingSync, bulkRetryPayment,
} from '../../schema/api/calls-bill-bulk.ts';
import { listBillPayments, markBillPaid, payBillsNow, reverseBillPayment } from '../../schema/api/calls-bills.ts';
import type { CallDef, CallResponse } from '../../schema/api/define-call.ts';
import type { Bill } from '../../schema/entities/bill.ts';
import type { CallOptions } from '../../sync/index.ts';
import type { BillApi, BillBulkRequest, BillCallFailure } from '../api.ts';
import { actionFailure } from '../identity.ts';
import type { WorkerContext } from '../worker-context.ts';

/**
 * Refused before any request: the bulk actions are direct calls the server answers there and
 * then, so they need a connection. (Paying offline is the outbox command `bill.payNow`, queued
 * only after the person confirms the amount and the vendor; never queued unseen.)
 */
export const BILL_OFFLINE: BillCallFailure = {
  ok: false,
  offline: true,
  error: { error_code: 'OFFLINE', message: 'You’re offline. This bill action needs a connection: nothing was sent.' },
};

/**
 * Bill pay's online-only calls (issue 11): the bulk actions, mark as paid, reverse a payment and
 * a bill's payment attempts, straight through the session's HTTP client (as vendors'). A failure
 * is data; a 401 expires the session like the sync engine's. The bills they change come back
 * through the feed; the answers are what the UI words meanwhile.
 */
export function billHandlers(ctx: WorkerContext): BillApi {
  async function send<C extends CallDef>(def: C, opts: CallOptions<C>): Promise<{ ok: true; data: CallResponse<C> } | BillCallFailure> {
    if (!ctx.hub.online) return BILL_OFFLINE;
    const res = ctx.watch401(await ctx.requireHttp().call(def, opts));
    if (res.ok) return { ok: true, data: res.data };
    // Never reached the server: nothing changed there, as offline.
    if ((res.kind === 'network' || res.kind === 'timeout') && !res.maybeSent) return BILL_OFFLINE;
    return actionFailure(res);
  }
  const asBill = (r: { ok: true; data: Bill } | BillCallFailure) => (r.ok ? { ok: true as const, bill: r.data } : r);
  const bill = (id: string) => ({ bill_uuid: id });

  async function bulk(req: BillBulkRequest) {
    const ids = { bill_ids: req.bill_ids };
    switch (req.action) {
      case 'pay-now': return send(payBillsNow, { body: ids });
      case 'cancel': return send(bulkCancel, { body: ids });
      case 'mark-bills-as-paid': return send(bulkMarkPaid, { body: req.payment_date ? { ...ids, payment_date: req.payment_date } : ids });
      case 'mark-bills-as-reconciled': return send(bulkMarkReconciled, { body: ids });
      case 'retry-payment': return send(bulkRetryPayment, { body: ids });
      case 'retry-accounting-sync': return send(bulkRetryAccountingSync, { body: ids });
      case 'remind-next-approvers': return send(bulkRemindApprovers, { body: ids });
      case 'due-date': return send(bulkDueDate, { body: { ...ids, due_date: req.due_date } });
      case 'invoice-date': return send(bulkInvoiceDate, { body: { ...ids, invoice_date: req.invoice_date } });
      case 'payment-date': return send(bulkPaymentDate, { body: { ...ids, payment_date: req.payment_date } });
      case 'memo': return send(bulkMemo, { body: { ...ids, memo: req.memo } });
    }
  }

  return {
    async billBulkAction(req) {
      const r = await bulk(req);
      return r.ok ? { ok: true, results: r.data.results } : r;
    },
    markBillPaid: async (id, paymentDate) => asBill(await send(markBillPaid, { params: bill(id), body: paymentDate ? { payment_date: paymentDate } : {} })),
    reverseBillPayment: async (id) => asBill(await send(reverseBillPayment, { params: bill(id), body: {} })),
    async billPayments(id) {
      const r = await send(listBillPayments, { query: { bill_id: id } });
      return r.ok ? { ok: true, payments: r.data.data } : r;
    },
  };
}
