import { useId, useMemo, useState } from 'react';
import { BULK_BILL_LIMIT } from '../../../schema/bill-rules.ts';
import { DEFAULT_SETTLEMENT_DAYS } from '../../../schema/api/calls-bills.ts';
import { Button } from '../../components/button.tsx';
import { Menu, MenuItem } from '../../components/menu.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { formatCount, formatMoney } from '../../lib/format.ts';
import type { SelectionApi } from '../../lib/list/use-selection.ts';
import { localDay } from '../../lib/bill-labels.ts';
import { BULK_WORDS, bulkOffers, MISMATCH_HELD, OFFLINE_NOTE, payPlan, type BulkOffer, type OfferedBulkAction } from './bill-actions.ts';
import { BulkValueDialog, ConfirmDialog, PaySummary } from './bill-dialogs.tsx';
import { PayRefusals } from './bulk-pay-refusals.tsx';
import type { Vendor } from '../../../schema/entities/vendor.ts';
import { runBulkAction, type BulkOutcome } from './run-bill-call.ts';
import { errorText } from '../../lib/error-text.ts';
import { toastError, toastInfo } from '../../lib/toast-store.ts';
import type { BillView } from './use-bills.ts';

/** Actions that ask first, naming the total (money moves, or cannot be undone). */
const CONFIRMED: readonly OfferedBulkAction[] = ['pay-now', 'mark-bills-as-paid', 'cancel'];

export interface BulkActionsProps {
  client: DataClient;
  selection: Pick<SelectionApi, 'ids' | 'clear'>;
  /** The selected bills as shown (null while read). */
  selected: BillView[] | null;
  online: boolean;
  /** The business's bulk_bill_creation_limit (§3; BULK_BILL_LIMIT, 50, by default): a larger selection is refused before sending. */
  limit?: number;
  /** A vendor's name as the reference data has it ('' when not on this device yet). */
  vendorName(id: string): string;
  /** A vendor as the reference data has it (its bank account decides whether a bill can be paid: issue 25). */
  vendorOf?(id: string): Vendor | undefined;
  onDone(outcome: BulkOutcome): void;
  returnFocus(): HTMLElement | null | undefined;
}

/** "$1,200.00 · €300.00": the bills' sums per currency. */
function sumsText(bills: readonly BillView[]): string {
  const sums = new Map<string, number>();
  for (const b of bills) sums.set(b.currency, (sums.get(b.currency) ?? 0) + b.amount);
  return [...sums].map(([currency, amount]) => formatMoney(amount, currency)).join(' · ');
}

/**
 * Sends a bulk action for the bills it applies to: online a direct call whose per-bill answer
 * goes to `onDone`; paying offline queues `bill.payNow` (one command per bill). Paying sends only
 * what the pay rule lets through (issue 25: no payment already on its way, a vendor that can be
 * paid); the confirmation listed the others, with why. True when something was sent.
 */
function useBulkSend({ client, selection, online, vendorOf = () => undefined, onDone }: BulkActionsProps, rows: readonly BillView[]) {
  const [busy, setBusy] = useState<OfferedBulkAction | null>(null);

  async function run(action: OfferedBulkAction, call: () => Promise<BulkOutcome | null>): Promise<boolean> {
    setBusy(action);
    try {
      const outcome = await call();
      if (!outcome) return false;
      onDone(outcome);
      if (outcome.failed === 0) selection.clear();
      return true;
    } finally {
      setBusy(null);
    }
  }

  async function queuePayments(ids: readonly string[], refused: number): Promise<BulkOutcome | null> {
    const r = await client.run('bill.payNow', { bill_ids: [...ids] });
    if (!r.ok) {
      toastError(errorText(r.error));
      return null;
    }
    const n = ids.length;
    const left = refused > 0 ? ` ${formatCount(refused)} not queued: ${MISMATCH_HELD}` : '';
    const text = `${formatCount(n)} ${n === 1 ? 'payment' : 'payments'} queued on this device (${sumsText(rows.filter((b) => ids.includes(b.id)))}): each is sent once, when you’re back online.${left}`;
    toastInfo(text);
    return { text, failed: 0 };
  }

  async function send(offer: BulkOffer, value?: string): Promise<boolean> {
    // Paying: what the pay rule holds back or the server would refuse for its match (issue 28) is
    // not sent; the confirmation listed each with why, the outcome says how many and why.
    let held: string[] = [];
    let refused = 0;
    if (offer.action === 'pay-now') {
      const plan = payPlan(rows.filter((b) => offer.eligible.includes(b.id)), vendorOf, localDay());
      offer = { ...offer, eligible: plan.paying.map((b) => b.id) };
      held = [...plan.skipped.map((s) => s.reason), ...plan.refused.map(() => MISMATCH_HELD)];
      refused = plan.refused.length;
      if (offer.eligible.length === 0) return false;
    }
    const ids = offer.eligible;
    if (offer.action === 'pay-now' && !online) return run(offer.action, () => queuePayments(ids, refused));
    const base = { bill_ids: ids };
    const input = BULK_WORDS[offer.action].input;
    const req =
      input === 'due_date' ? { action: 'due-date' as const, ...base, due_date: value ?? '' }
        : input === 'payment_date' ? { action: 'payment-date' as const, ...base, payment_date: value ?? '' }
          : input === 'memo' ? { action: 'memo' as const, ...base, memo: value ? value : null }
            : { action: offer.action as Exclude<OfferedBulkAction, 'due-date' | 'payment-date' | 'memo'>, ...base };
    return run(offer.action, () => runBulkAction(client, req, offer.skipped, held));
  }

  return { busy, send };
}

/**
 * The selection's bulk actions (issue 11 §7), in the list page's bulk bar: the ones the selected
 * bills' statuses allow are enabled (the others say why), each sent for the bills it applies to,
 * at most the business's bulk limit (`limit`, the bulk_bill_creation_limit flag) of bills: a larger
 * selection disables every action with the limit in words, and nothing is sent. Online they are direct calls; offline only paying is offered,
 * queued after a confirmation that names every vendor and amount.
 */
export function BillBulkActions(props: BulkActionsProps) {
  const { selection, selected, online, limit = BULK_BILL_LIMIT, vendorName, vendorOf = () => undefined, returnFocus } = props;
  const count = selection.ids.size;
  const rows = useMemo(() => selected ?? [], [selected]);
  const offers = useMemo(() => bulkOffers(rows, { online, count, limit }), [rows, online, count, limit]);
  const [asking, setAsking] = useState<BulkOffer | null>(null);
  const { busy, send } = useBulkSend(props, rows);
  const reading = selected === null;
  const reasonId = useId();

  function choose(offer: BulkOffer) {
    if (offer.disabled) return;
    if (CONFIRMED.includes(offer.action) || BULK_WORDS[offer.action].input) setAsking(offer);
    else void send(offer);
  }

  const label = (o: BulkOffer) => (o.eligible.length > 0 && o.skipped > 0 ? `${o.label} (${formatCount(o.eligible.length)})` : o.label);
  const primary = offers.filter((o) => BULK_WORDS[o.action].primary);
  const more = offers.filter((o) => !BULK_WORDS[o.action].primary);
  const blocked = !online ? OFFLINE_NOTE : count > limit ? offers[0]?.disabled : null;

  return (
    <>
      {primary.map((o) => (
        <Button
          key={o.action}
          size="sm"
          variant={o.action === 'pay-now' ? 'primary' : 'secondary'}
          disabled={reading || o.disabled !== null || (busy !== null && busy !== o.action)}
          loading={busy === o.action}
          title={o.disabled ?? undefined}
          aria-describedby={o.disabled ? `${reasonId}-${o.action}` : undefined}
          onClick={() => choose(o)}
        >
          {label(o)}
        </Button>
      ))}
      {primary.map((o) => o.disabled && (
        // Why a button is unavailable, for assistive technology (a disabled button shows no tooltip to the keyboard).
        <span key={o.action} id={`${reasonId}-${o.action}`} hidden>
          {o.disabled}
        </span>
      ))}
      <Menu label="More bulk actions" trigger={<>More actions</>} triggerClassName="btn btn-secondary btn-sm">
        {more.map((o) => (
          <MenuItem key={o.action} disabled={reading || o.disabled !== null || busy !== null} onSelect={() => choose(o)}>
            {label(o)}
            {o.disabled && <span className="menu-item-note">{o.disabled}</span>}
          </MenuItem>
        ))}
      </Menu>
      {blocked && (
        // Last in the bar (bills.css orders it after Clear selection), on its own line.
        <p className="bulk-blocked" role="note">
          {blocked}
        </p>
      )}
      {asking && BULK_WORDS[asking.action].input && (
        <BulkValueDialog
          kind={BULK_WORDS[asking.action].input!}
          count={asking.eligible.length}
          skipped={asking.skipped}
          {...(asking.action === 'payment-date' ? { min: localDay() } : {})}
          onClose={() => setAsking(null)}
          onApply={(value) => send(asking, value)}
          returnFocus={returnFocus}
        />
      )}
      {asking && !BULK_WORDS[asking.action].input && (
        <ConfirmBulk offer={asking} bills={rows.filter((b) => asking.eligible.includes(b.id))} online={online} vendorName={vendorName} vendorOf={vendorOf}
          onClose={() => setAsking(null)} onConfirm={() => send(asking)} returnFocus={returnFocus} />
      )}
    </>
  );
}

/** Why none of the chosen bills can be paid: the pay rule's reasons, their match, or both (each bill's own reason is listed). */
function nonePayable(held: number, refused: number): string {
  if (refused === 0) return 'None of these bills can be paid now: each one’s payment is already on its way, or its vendor cannot be paid through Ledgerline yet (add their bank details first: open a bill and choose Add bank details).';
  if (held === 0) return `None of these bills can be paid: ${refused === 1 ? 'it does not match its purchase order' : 'none matches its purchase order'}, and the server refuses to pay a mismatched bill.`;
  return 'None of these bills can be paid now: each one’s reason is listed below.';
}

export function ConfirmBulk({ offer, bills: chosen, online, vendorName, vendorOf, onClose, onConfirm, returnFocus }: {
  offer: BulkOffer; bills: BillView[]; online: boolean; vendorName(id: string): string; vendorOf(id: string): Vendor | undefined;
  onClose(): void; onConfirm(): Promise<boolean>; returnFocus(): HTMLElement | null | undefined;
}) {
  // Paying: only what can move is confirmed and sent; the rest are listed as skipped, with why.
  const plan = offer.action === 'pay-now' ? payPlan(chosen, vendorOf, localDay()) : null;
  const bills = plan ? plan.paying : chosen;
  const n = plan ? plan.paying.length : offer.eligible.length;
  const noun = `${formatCount(n)} ${n === 1 ? 'bill' : 'bills'}`;
  const sums = sumsText(bills);
  const skipped = offer.skipped > 0 ? ` ${formatCount(offer.skipped)} other selected ${offer.skipped === 1 ? 'bill is' : 'bills are'} left as ${offer.skipped === 1 ? 'it is' : 'they are'}.` : '';
  // Issue 28: bills the server would refuse for their match are said first; the rest can go on.
  const refused = plan?.refused.length ?? 0;
  const rest = refused > 0 ? 'the other ' : '';
  const words = {
    'pay-now': n === 0
      ? { title: 'Nothing can be paid now', description: `${nonePayable(plan?.skipped.length ?? 0, refused)}${skipped}`, confirm: 'Close', tone: 'primary' as const }
      : online
      ? { title: `Pay ${rest}${noun} now?`, description: `${sums} is sent to the vendors now by ACH, each bill once; each settles in ${DEFAULT_SETTLEMENT_DAYS} bank business days and shows as processing until then.${skipped}`, confirm: refused > 0 ? `Pay the rest: ${sums}` : `Pay ${sums}`, tone: 'primary' as const }
      : {
        title: `Queue ${rest}${noun} for payment?`,
        description: `You’re offline. These payments are kept on this device and each is sent once, as soon as there is a connection: ${sums} in all.${skipped}`,
        confirm: refused > 0 ? `Queue the rest: ${sums}` : `Queue ${sums}`,
        tone: 'primary' as const,
      },
    'mark-bills-as-paid': { title: `Mark ${noun} as paid?`, description: `For bills paid outside Ledgerline (${sums}): no money moves here.${skipped}`, confirm: `Mark ${noun} as paid`, tone: 'primary' as const },
    cancel: { title: `Cancel ${noun}?`, description: `${sums} will not be paid. This cannot be undone.${skipped}`, confirm: `Cancel ${noun}`, tone: 'danger' as const },
  }[offer.action as 'pay-now' | 'mark-bills-as-paid' | 'cancel'];
  return (
    <ConfirmDialog title={words.title} description={words.description} confirmLabel={words.confirm} tone={words.tone} onClose={onClose}
      // Nothing payable: the button only closes (nothing is sent).
      onConfirm={plan && n === 0 ? async () => true : onConfirm} returnFocus={returnFocus}>
      {plan && <PayRefusals refused={plan.refused} vendorName={vendorName} />}
      {plan && <PaySummary plan={plan} vendorName={vendorName} />}
      {offer.action === 'pay-now' && bills.length > 0 && (
        // Every payment by vendor and amount: what money goes where is never only a total.
        <ul className="bill-pay-list" aria-label="Payments">
          {bills.map((b) => (
            <li key={b.id}>
              <span className="bill-pay-vendor">{vendorName(b.vendor_id) || 'Vendor not on this device yet'}</span>
              <span className="bill-pay-invoice">{b.invoice_number}</span>
              <span className="bill-pay-amount">{formatMoney(b.amount, b.currency)}</span>
              {b.duplicate_of && (
                <span className="bill-pay-duplicate">
                  Possible duplicate of {b.duplicate_of.invoice_number} ({formatMoney(b.duplicate_of.amount, b.duplicate_of.currency)})
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </ConfirmDialog>
  );
}
