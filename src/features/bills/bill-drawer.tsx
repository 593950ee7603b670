import { useEffect, useRef, useState, type ReactNode } from 'react';
import { checkBillAction } from '../../../schema/bill-rules.ts';
import { DEFAULT_SETTLEMENT_DAYS, payBillsNow } from '../../../schema/api/calls-bills.ts';
import { useAppState } from '../../data-access/data-context.tsx';
import { offeredTo } from '../../lib/advisor-actions.ts';
import { expectedSettlementDate } from '../../../schema/business-days.ts';
import type { Vendor } from '../../../schema/entities/vendor.ts';
import { vendorPaymentCheck, type VendorPaymentCheck } from '../../../schema/vendor-rules.ts';
import { AddBankDetails } from '../../components/bank-account-dialog.tsx';
import { BillInvoice } from '../../components/bill-invoice.tsx';
import { Button } from '../../components/button.tsx';
import { ClaimRefusal } from '../../components/claim-details.tsx';
import { Drawer } from '../../components/drawer.tsx';
import { LazyCommentThread } from '../../components/lazy-comment-thread.tsx';
import { Facts, syncFact, type Fact } from '../../components/facts.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { SyncMark } from '../../components/sync-mark.tsx';
import { SYNCED_EDIT_HINT, SyncedLock } from '../../components/synced-lock.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { BILL_STATUS_LABELS, BILL_STATUS_TONES, dueText, isOverdue, localDay } from '../../lib/bill-labels.ts';
import { formatDay, formatLocalDateTime, formatMoney } from '../../lib/format.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';
import { toastError, toastInfo } from '../../lib/toast-store.ts';
import { drawerActionLabel, drawerActions, isProcessing, needsConnection, payBlock, SYNCING_STATES, type BillDrawerAction } from './bill-actions.ts';
import { CannotPay, ConfirmDialog } from './bill-dialogs.tsx';
import { DuplicateMark } from '../../components/bill-duplicate-mark.tsx';
import { DuplicateRefusal } from './duplicate-refusal.tsx';
import { ApprovalChain } from './approval-chain.tsx';
import { failureText, runBillCommand, runBulkAction } from './run-bill-call.ts';
import { useBill, type BillView } from './use-bills.ts';
import { BillMatch } from './bill-match.tsx';
import { PaymentApprovalNotice } from './payment-approval.tsx';
import { matchPayBlock } from './bill-match-view.ts';
import { BillPayOptions } from './bill-pay-options.tsx';
import { chooseRail, type PaymentRail } from '../../../schema/payment-rails.ts';
import { PayRailChoice } from './pay-rail-choice.tsx';
import { initialRail, payNowWords, railOptions } from './pay-rails.ts';
import { BillPayment, useLiveSettlement } from './bill-payment-section.tsx';
import { LazyEventHistory } from '../../components/event-history/lazy-event-history.tsx';

export interface BillDrawerProps {
  id: string;
  client: DataClient;
  reference: ReferenceView;
  version: number;
  online: boolean;
  today: string;
  onEdit(bill: BillView): void;
  onClose(): void;
  returnFocus(): HTMLElement | null | undefined;
}

/** Actions that ask first, naming what happens. */
const CONFIRMED: readonly BillDrawerAction[] = ['delete', 'payNow', 'markPaid', 'reversePayment', 'cancel'];

/**
 * One bill: what is owed to whom and when, line by line with its coding, the approval chain so
 * far, the payment, and the actions its status allows. Edits, submit and delete are outbox
 * commands (offline too); marking, reversing, reminding and canceling are direct calls, online
 * only; paying is a direct call online and, offline, a queued `bill.payNow` after a confirmation
 * naming the amount and the vendor. Non-modal: the list beside it stays live (j/k move the open row).
 */
/**
 * Issue 25: money only moves where it can. A bill its status would let us pay, whose vendor has no
 * verified bank account (or no payment method for its currency), offers the bank details instead.
 * Issue 30: a vendor with no bank account but a US mailing address is paid by check instead.
 */
function payableCheck(bill: BillView, vendor: Vendor): VendorPaymentCheck | null {
  if (!payingStatus(bill.status)) return null;
  return chooseRail(vendor, bill.currency).ok ? { ok: true } : vendorPaymentCheck(vendor, bill.currency);
}

/** Mark as paid (outside Ledgerline) or reverse the payment, in the server's words when refused. */
async function markOrReverse(client: DataClient, action: 'markPaid' | 'reversePayment', billId: string, amount: string): Promise<boolean> {
  const r = action === 'markPaid' ? await client.markBillPaid(billId) : await client.reverseBillPayment(billId);
  if (!r.ok) {
    toastError(failureText(r));
    return false;
  }
  toastInfo(action === 'markPaid' ? `Marked ${amount} as paid.` : `Payment of ${amount} reversed; the bill is approved and can be paid again.`);
  return true;
}

export function BillDrawer({ id, client, reference, version, online, today, onEdit, onClose, returnFocus }: BillDrawerProps) {
  const bill = useBill(client, id, version);
  // Issue 31: a firm user acting in this business is not offered paying (no advisor right opens it).
  const payOffered = offeredTo(useAppState((s) => s.session?.external_firm_id), payBillsNow);
  const heading = useRef<HTMLHeadingElement>(null);
  const [confirm, setConfirm] = useState<BillDrawerAction | null>(null);
  const [busy, setBusy] = useState<BillDrawerAction | null>(null);

  useEffect(() => heading.current?.focus(), [id]);

  const vendorDoc = bill ? reference.data.vendors.find((v) => v.id === bill.vendor_id) : undefined;
  const vendor = vendorDoc?.name;
  const [addingBank, setAddingBank] = useState<Vendor | null>(null);
  const payable = bill && vendorDoc ? payableCheck(bill, vendorDoc) : null;
  const [payRail, setPayRail] = useState<PaymentRail>('ACH');
  const title = bill ? `${vendor ?? 'Bill'} · ${bill.invoice_number}` : bill === null ? 'Bill not found' : 'Bill';
  // Issue 28: a mismatched three-way match holds the payment back (the server refuses it too).
  const matchBlock = bill ? matchPayBlock(bill.po_match) : null;

  async function act(action: BillDrawerAction, b: BillView): Promise<boolean> {
    const amount = formatMoney(b.amount, b.currency);
    const one = { bill_ids: [b.id] };
    switch (action) {
      case 'edit':
        onEdit(b);
        return true;
      case 'submit':
        return runBillCommand(client, 'bill.update', { bill_id: b.id, patch: { submit: true } },
          online ? 'Submitted for approval. It syncs in the background.' : 'Submitted for approval on this device; it goes to the approvers when you’re back online.');
      case 'delete': {
        const ok = await runBillCommand(client, 'bill.delete', { bill_id: b.id }, 'Draft deleted.');
        if (ok) onClose();
        return ok;
      }
      case 'markPaid':
      case 'reversePayment':
        return markOrReverse(client, action, b.id, amount);
      case 'payNow':
        // The default rail is not named in the request, as before rails: the server picks the same one.
        if (online) return (await runBulkAction(client, { action: 'pay-now', ...one, ...(payRail !== initialRail(vendorDoc, b.currency) && { rail: payRail }) }, 0)) !== null;
        return runBillCommand(client, 'bill.payNow', one,
          `Payment of ${amount} to ${vendor ?? 'the vendor'} queued on this device: it is sent once, when you’re back online.`);
      case 'retryPayment':
        return (await runBulkAction(client, { action: 'retry-payment', ...one }, 0)) !== null;
      case 'markReconciled':
        return (await runBulkAction(client, { action: 'mark-bills-as-reconciled', ...one }, 0)) !== null;
      case 'remindApprovers':
        return (await runBulkAction(client, { action: 'remind-next-approvers', ...one }, 0)) !== null;
      case 'cancel':
        return (await runBulkAction(client, { action: 'cancel', ...one }, 0)) !== null;
    }
  }

  async function run(action: BillDrawerAction, b: BillView) {
    if (action === 'payNow') setPayRail(initialRail(vendorDoc, b.currency));
    if (CONFIRMED.includes(action)) return setConfirm(action);
    setBusy(action);
    try {
      await act(action, b);
    } finally {
      setBusy(null);
    }
  }

  return (
    <Drawer title={title} titleRef={heading} closeLabel="Close details" modal={false} onClose={onClose} returnFocus={returnFocus}>
      {bill && (
        <div className="drawer-body bill-detail">
          <BillHeadline bill={bill} today={today} client={client} online={online} />
          <PaymentApprovalNotice bill={bill} userName={reference.names.user} />
          <DuplicateMark bill={bill} reference={reference} />
          {bill.failure?.duplicate ? <DuplicateRefusal bill={bill} client={client} /> : <ClaimRefusal row={bill} client={client} />}
          {bill.accounting_synced_at && <SyncedLock client={client} type="bill" id={bill.id} syncedAt={bill.accounting_synced_at} />}
          {payable && !payable.ok && vendorDoc && (
            <CannotPay check={payable} vendor={vendorDoc} online={online} onAdd={() => setAddingBank(vendorDoc)} />
          )}
          <BillActions bill={bill} online={online} busy={busy} blocked={!payOffered || payBlock(bill, vendorDoc, today) !== null || bill.payment_approval?.status === 'PENDING'} matchBlock={matchBlock} onRun={(a) => void run(a, bill)} />
          <BillPayOptions bill={bill} vendor={vendor ?? 'the vendor'} client={client} online={online} version={version} />
          <BillFacts bill={bill} vendor={vendor} reference={reference} />
          <BillMatch bill={bill} reference={reference} client={client} online={online} />
          <BillLines bill={bill} reference={reference} />
          <section aria-labelledby={`${bill.id}-invoice`}>
            <h3 id={`${bill.id}-invoice`} className="claim-section-title">Invoice document</h3>
            {bill.invoice_file_id ? (
              <BillInvoice fileId={bill.invoice_file_id} invoiceNumber={bill.invoice_number} client={client} version={version} />
            ) : (
              <p className="muted">No invoice document is attached. Edit the bill to attach one.</p>
            )}
          </section>
          <ApprovalChain bill={bill} client={client} reference={reference} version={version} />
          <BillPayment bill={bill} client={client} online={online} version={version} vendor={vendor ?? 'the vendor'} />
          <LazyCommentThread subjectType="bill" subjectId={bill.id} />
          <LazyEventHistory entityType="bill" entityId={bill.id} />
        </div>
      )}
      {bill === null && <p className="drawer-body muted">This bill is not on this device: it may have been deleted, or it has not synced here yet.</p>}
      {addingBank && (
        <AddBankDetails
          vendor={addingBank}
          client={client}
          onClose={() => setAddingBank(null)}
          onSaved={(v) => {
            setAddingBank(null);
            toastInfo(v.bank_account?.verified_at
              ? `Bank details saved and verified for ${v.name}. The bill can be paid.`
              : `Bank details saved for ${v.name}, but they did not verify: the bill cannot be paid to them yet.`);
          }}
        />
      )}
      {bill && confirm && (
        <ConfirmAction action={confirm} bill={bill} vendor={vendor ?? 'the vendor'} online={online} rail={payRail} onClose={() => setConfirm(null)} onConfirm={() => act(confirm, bill)}>
          {confirm === 'payNow' && online && (
            <PayRailChoice options={railOptions(vendorDoc, bill.currency, localDay())} value={payRail} onChange={setPayRail} />
          )}
          {confirm === 'payNow' && <DuplicateMark bill={bill} reference={reference} />}
        </ConfirmAction>
      )}
    </Drawer>
  );
}

function BillHeadline({ bill, today, client, online }: { bill: BillView; today: string; client: DataClient; online: boolean }) {
  const due = dueText(bill, today);
  // Issue 30: a check settles on its 7th bank business day, a wire the same day: the attempt's own day once read.
  const attemptDay = useLiveSettlement(client, bill.id, bill.payment_attempt, online && isProcessing(bill, today));
  return (
    <>
      <div className="drawer-amount">{formatMoney(bill.amount, bill.currency)}</div>
      <div className="marks">
        <StatusPill tone={BILL_STATUS_TONES[bill.status]}>{BILL_STATUS_LABELS[bill.status]}</StatusPill>
        <SyncMark row={bill} />
        {due && <span className={isOverdue(bill, today) ? 'bill-due bill-overdue' : 'bill-due'}>{due}</span>}
      </div>
      {bill.status === 'REJECTED' && bill.rejection_reason && (
        <div className="notice notice-warn">
          <strong>Rejected:</strong> {bill.rejection_reason}
        </div>
      )}
      {isProcessing(bill, today) && bill.payment_date && (
        <div className="notice" data-testid="bill-processing">
          <strong>Payment processing:</strong> sent {formatDay(bill.payment_date)}; it settles on {formatDay(attemptDay ?? settlesOn(bill.payment_date))}, when the bill becomes paid.
        </div>
      )}
      {bill.status === 'PAYMENT_FAILED' && (
        <div className="notice notice-error">
          <strong>The payment failed:</strong> {bill.payment_failure_reason ?? 'the bank gave no reason.'} Retry it, or mark the bill as paid if it was paid another way.
        </div>
      )}
    </>
  );
}

/**
 * Issue 12: a bill a sync commit exported has its vendor, dates, amounts and coding locked
 * (SYNC_LOCKED_BILL_ACTIONS): Edit stays offered but disabled, saying why; payments and the other
 * status moves go on.
 */

/** Drawer actions that send money to the vendor (refused by the server while the vendor cannot be paid). */
const MOVES_MONEY: readonly BillDrawerAction[] = ['payNow', 'retryPayment'];
/** Statuses from which the bill is paid or scheduled (what the vendor's bank details decide). */
const payingStatus = (status: BillView['status']) => checkBillAction('payNow', status).ok || checkBillAction('retryPayment', status).ok;
/** The day a payment sent on `sent` settles (the server's rule: DEFAULT_SETTLEMENT_DAYS bank business days). */
const settlesOn = (sent: string) => expectedSettlementDate(sent, DEFAULT_SETTLEMENT_DAYS);

function BillActions({ bill, online, busy, blocked: cannotPay = false, matchBlock = null, onRun }: {
  bill: BillView; online: boolean; busy: BillDrawerAction | null; blocked?: boolean;
  /** Why paying is held back by the three-way match (the bill's `po_match` is MISMATCHED). */
  matchBlock?: string | null;
  onRun(a: BillDrawerAction): void;
}) {
  const syncing = SYNCING_STATES.has(bill.pending);
  // A vendor that cannot be paid (CannotPay says what to do), or a payment already on its way: no Pay now / Retry that would fail.
  const actions = drawerActions(bill.status, syncing).filter((a) => !(cannotPay && MOVES_MONEY.includes(a)));
  const heldBack = syncing && drawerActions(bill.status).length > actions.length;
  if (actions.length === 0 && !heldBack) return null;
  const offlineOnes = actions.filter(needsConnection);
  return (
    <div className="bill-actions" role="group" aria-label="Bill actions">
      {actions.map((action) => {
        const blocked = !online && needsConnection(action);
        const unmatched = matchBlock !== null && MOVES_MONEY.includes(action);
        const locked = action === 'edit' && !!bill.accounting_synced_at;
        const danger = action === 'cancel' || action === 'delete' || action === 'reversePayment';
        const primary = action === 'payNow' || action === 'submit' || (action === 'retryPayment');
        return (
          <Button
            key={action}
            size="sm"
            variant={danger ? 'danger' : primary ? 'primary' : 'secondary'}
            disabled={blocked || locked || unmatched || (busy !== null && busy !== action)}
            loading={busy === action}
            title={locked ? SYNCED_EDIT_HINT : blocked ? 'This needs a connection.' : unmatched ? matchBlock : undefined}
            aria-describedby={unmatched ? `${bill.id}-match-block` : undefined}
            onClick={() => onRun(action)}
          >
            {drawerActionLabel(action, bill.status)}
          </Button>
        );
      })}
      {matchBlock && actions.some((a) => MOVES_MONEY.includes(a)) && (
        <p id={`${bill.id}-match-block`} className="notice notice-error bill-match-block">{matchBlock}</p>
      )}
      {heldBack && (
        <p className="muted bill-offline-note">
          {bill.status === 'SCHEDULED' && bill.pending !== null
            ? 'A payment of this bill is queued on this device and not yet sent: it goes once, when the server has it. Other payment actions wait until then.'
            : 'A change to this bill is waiting to sync: paying, marking and canceling are offered once the server has it.'}
        </p>
      )}
      {!online && offlineOnes.length > 0 && (
        <p className="muted bill-offline-note">
          You’re offline: marking, reminding and canceling need a connection. A payment you confirm is queued here and sent once when you’re back online; edits and submitting sync later.
        </p>
      )}
    </div>
  );
}

function BillFacts({ bill, vendor, reference }: { bill: BillView; vendor: string | undefined; reference: ReferenceView }) {
  const user = (id: string | null) => (id ? reference.names.user(id) || '—' : '—');
  const when = (iso: string | null) => (iso ? <time dateTime={iso}>{formatLocalDateTime(iso)}</time> : '—');
  const rows: Fact[] = [
    ['Vendor', vendor ?? 'Not on this device yet'],
    ['Invoice no.', bill.invoice_number],
    ['Invoice date', formatDay(bill.invoice_date)],
    ['Due', formatDay(bill.due_date)],
    ['Payment date', bill.payment_date ? formatDay(bill.payment_date) : 'Not scheduled'],
    ['Entity', bill.entity_id ? reference.names.entity(bill.entity_id) || 'An entity not on this device' : 'The business itself'],
    ['Memo', bill.memo || '—'],
    ['Created by', user(bill.created_by)],
    ['Submitted', when(bill.submitted_at)],
    ['Approved', bill.approved_at ? <span key="a">{when(bill.approved_at)}{bill.approved_by ? ` by ${user(bill.approved_by)}` : ''}</span> : '—'],
    syncFact(bill),
  ];
  return <Facts rows={rows} />;
}

function BillLines({ bill, reference }: { bill: BillView; reference: ReferenceView }) {
  const { names } = reference;
  return (
    <section aria-labelledby={`${bill.id}-lines`}>
      <h3 id={`${bill.id}-lines`} className="claim-section-title">Line items</h3>
      <div className="bill-lines-wrap">
        <table className="bill-lines">
          <thead>
            <tr>
              <th scope="col">Description</th>
              <th scope="col">GL account</th>
              <th scope="col">Department</th>
              <th scope="col" className="num">Amount</th>
            </tr>
          </thead>
          <tbody>
            {bill.line_items.map((line) => (
              <tr key={line.id}>
                <td>{line.description || '—'}{line.vendor_credit_id ? ' (vendor credit)' : ''}</td>
                <td>{names.glAccount(line.gl_account_id) || '—'}</td>
                <td>{names.department(line.department_id) || '—'}</td>
                <td className="num">{formatMoney(line.amount, bill.currency)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={3}>Total</th>
              <td className="num">{formatMoney(bill.amount, bill.currency)}</td>
            </tr>
          </tfoot>
        </table>
      </div>
    </section>
  );
}

function ConfirmAction({ action, bill, vendor, online, rail, onClose, onConfirm, children }: {
  action: BillDrawerAction; bill: BillView; vendor: string; online: boolean; rail: PaymentRail; onClose(): void; onConfirm(): Promise<boolean>; children?: ReactNode;
}) {
  const amount = formatMoney(bill.amount, bill.currency);
  const pay = payNowWords(rail, { amount: bill.amount, currency: bill.currency, invoice: bill.invoice_number, sendDay: localDay() });
  const words: Record<string, { title: string; description: string; confirm: string; tone: 'danger' | 'primary' }> = {
    payNow: online
      ? {
        title: `Pay ${amount} to ${vendor}?`,
        description: pay.description,
        confirm: pay.confirm,
        tone: 'primary',
      }
      : {
        title: `Queue a payment of ${amount} to ${vendor}?`,
        description: `You’re offline. The payment of invoice ${bill.invoice_number} is kept on this device and sent once, as soon as there is a connection; until then the bill shows as scheduled.`,
        confirm: `Queue payment of ${amount}`,
        tone: 'primary',
      },
    markPaid: { title: `Mark ${amount} to ${vendor} as paid?`, description: 'Use this when the invoice was paid outside Ledgerline: no money moves here.', confirm: 'Mark as paid', tone: 'primary' },
    reversePayment: { title: `Reverse the payment of ${amount}?`, description: 'The bill goes back to approved, to be paid again.', confirm: 'Reverse payment', tone: 'danger' },
    cancel: { title: `Cancel invoice ${bill.invoice_number}?`, description: `${vendor}’s bill of ${amount} will not be paid. This cannot be undone.`, confirm: 'Cancel bill', tone: 'danger' },
    delete: { title: 'Delete this draft?', description: `The draft of invoice ${bill.invoice_number} (${amount}) is removed.`, confirm: 'Delete draft', tone: 'danger' },
  };
  const w = words[action]!;
  return <ConfirmDialog title={w.title} description={w.description} confirmLabel={w.confirm} tone={w.tone} onClose={onClose} onConfirm={onConfirm}>{children}</ConfirmDialog>;
}
