import type { z } from 'zod';
import {
  bulkCancel, bulkDueDate, bulkInvoiceDate, bulkMarkPaid, bulkMarkReconciled, bulkMemo, bulkPaymentDate, bulkRemindApprovers,
  bulkRetryAccountingSync, bulkRetryPayment, type remindResponseSchema,
} from '../../schema/api/calls-bill-bulk.ts';
import { listBillPayments, markBillPaid, payBillsNow, reverseBillPayment, type billPaymentRowSchema } from '../../schema/api/calls-bills.ts';
import { getCheckImages, getMt103, voidCheck, type CheckImages } from '../../schema/api/calls-bill-rails.ts';
import type { CallDef } from '../../schema/api/define-call.ts';
import type { Bill } from '../../schema/entities/bill.ts';
import type { PaymentRail } from '../../schema/payment-rails.ts';
import type { CallOptions } from '../../sync/index.ts';
import type { OnlineFailure } from '../contracts/views.ts';
import { answerOf, bindDomain, custom, offlineFailure, onlineDomain, via, type OnlineApi, type OnlinePort, type Send } from '../online.ts';

/**
 * A bill call's refusal. `offline`: nothing was sent (the bulk actions are direct calls, online
 * only; a payment offline is the outbox command `bill.payNow` instead).
 */
export type BillCallFailure = OnlineFailure;
/** One bill's answer in a bulk action: the bill as changed, or the refusal (the others went on). */
export type BillBulkItem = z.output<typeof remindResponseSchema>['results'][number];
export type BillPaymentRow = z.output<typeof billPaymentRowSchema>;

/** A bulk action under /bill-pay/bulk-actions/ (schema/api/calls-bill-bulk.ts, pay-now in calls-bills.ts), by its §7 name. */
export type BillBulkRequest =
  | {
    action: 'cancel' | 'mark-bills-as-reconciled' | 'retry-payment' | 'retry-accounting-sync' | 'remind-next-approvers';
    bill_ids: string[];
  }
  /** `rail` (issue 30): absent, each vendor's default rail (ACH with a bank account, else a mailed check). */
  | { action: 'pay-now'; bill_ids: string[]; rail?: PaymentRail }
  | { action: 'mark-bills-as-paid'; bill_ids: string[]; payment_date?: string }
  | { action: 'due-date'; bill_ids: string[]; due_date: string }
  | { action: 'invoice-date'; bill_ids: string[]; invoice_date: string }
  | { action: 'payment-date'; bill_ids: string[]; payment_date: string; rail?: PaymentRail }
  | { action: 'memo'; bill_ids: string[]; memo: string | null };

/**
 * Refused before any request: the bulk actions are direct calls the server answers there and
 * then, so they need a connection. (Paying offline is the outbox command `bill.payNow`, queued
 * only after the person confirms the amount and the vendor; never queued unseen.)
 */
export const BILL_OFFLINE = offlineFailure('You’re offline. This bill action needs a connection: nothing was sent.');

/** The bulk action's call by its §7 name (each answers `{results}` in the order asked). */
async function bulk(send: Send, req: BillBulkRequest) {
  const ids = { bill_ids: req.bill_ids };
  switch (req.action) {
    case 'pay-now': return send(payBillsNow, { body: req.rail ? { ...ids, rail: req.rail } : ids });
    case 'cancel': return send(bulkCancel, { body: ids });
    case 'mark-bills-as-paid': return send(bulkMarkPaid, { body: req.payment_date ? { ...ids, payment_date: req.payment_date } : ids });
    case 'mark-bills-as-reconciled': return send(bulkMarkReconciled, { body: ids });
    case 'retry-payment': return send(bulkRetryPayment, { body: ids });
    case 'retry-accounting-sync': return send(bulkRetryAccountingSync, { body: ids });
    case 'remind-next-approvers': return send(bulkRemindApprovers, { body: ids });
    case 'due-date': return send(bulkDueDate, { body: { ...ids, due_date: req.due_date } });
    case 'invoice-date': return send(bulkInvoiceDate, { body: { ...ids, invoice_date: req.invoice_date } });
    case 'payment-date': return send(bulkPaymentDate, { body: { ...ids, payment_date: req.payment_date, ...(req.rail && { rail: req.rail }) } });
    case 'memo': return send(bulkMemo, { body: { ...ids, memo: req.memo } });
  }
}

const bill = (id: string) => ({ bill_uuid: id });
const payment = (id: string) => ({ payment_uuid: id });

/** A file answer (a wire's MT103) as a Blob typed by the server's Content-Type. */
function fileOf<C extends CallDef, A extends unknown[]>(def: C, opts: (...args: A) => CallOptions<C>) {
  return custom((_send, port, offline) => async (...args: A): Promise<{ ok: true; file: Blob } | BillCallFailure> => {
    if (!port.hub.online) return offline;
    const r = answerOf(port, await port.requireHttp().blob(def, opts(...args)), offline);
    return r.ok ? { ok: true, file: r.data } : r;
  });
}
const asBill = (b: Bill) => ({ bill: b });

/**
 * Bill pay's direct calls (issue 11): online only. The bills themselves are mirrored
 * (`query('bills', …)`) and their edits are outbox commands (`bill.create`/`.update`/`.delete`);
 * what moves money or acts on many bills at once is answered by the server there and then, and
 * the changed bills come back through the feed.
 */
export const BILL_CALLS = onlineDomain(BILL_OFFLINE, {
  /** Each bill changed on its own (one refusal does not fail the others): `results` in the order asked. */
  billBulkAction: custom((send) => async (req: BillBulkRequest): Promise<{ ok: true; results: BillBulkItem[] } | BillCallFailure> => {
    const r = await bulk(send, req);
    return r.ok ? { ok: true, results: r.data.results } : r;
  }),
  /** Paid outside Ledgerline (`payment_date` defaults to today on the server). */
  markBillPaid: via(markBillPaid, (id: string, paymentDate?: string) =>
    ({ params: bill(id), body: paymentDate ? { payment_date: paymentDate } : {} }), asBill),
  /** PAID → APPROVED; the live payment attempt becomes REVERSED. */
  reverseBillPayment: via(reverseBillPayment, (id: string) => ({ params: bill(id), body: {} }), asBill),
  /** The bill's payment attempts, oldest first. */
  billPayments: via(listBillPayments, (id: string) => ({ query: { bill_id: id } }), (d) => ({ payments: d.data })),
  /** Issue 30: a check attempt's front and back (SVG data URLs). */
  checkImages: via(getCheckImages, (paymentId: string) => ({ params: payment(paymentId) }), (images: CheckImages) => ({ images })),
  /** Issue 30: a wire attempt's MT103 (text/plain) as a file. */
  paymentMt103: fileOf(getMt103, (paymentId: string) => ({ params: payment(paymentId) })),
  /** Issue 30: a mailed check stopped before it clears: the money comes back, the bill is approved again. */
  voidCheck: via(voidCheck, (paymentId: string) => ({ params: payment(paymentId), body: {} }), asBill),
});

export type BillApi = OnlineApi<typeof BILL_CALLS>;

export const billHandlers = (port: OnlinePort): BillApi => bindDomain(port, BILL_CALLS);
