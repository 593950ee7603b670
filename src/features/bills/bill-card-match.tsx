import { useEffect, useRef, useState } from 'react';
import { BILL_ACTIONS, mayManageBills } from '../../../schema/bill-rules.ts';
import type { BillStatus } from '../../../schema/entities/bill.ts';
import type { BillCardCharge, PayByCardSuggestion } from '../../../workers/api.ts';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { Facts, type Fact } from '../../components/facts.tsx';
import { FormError } from '../../components/form-error.tsx';
import { useAppState } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { formatDay, formatMoney } from '../../lib/format.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import './bill-card-match.css';

export interface BillCardMatchProps {
  bill: { id: string; status: BillStatus; amount: number; currency: string; invoice_number: string; paid_manually: boolean };
  vendor: string;
  client: DataClient;
  online: boolean;
  /** The mirror's version: a bill changed by the feed (closed, undone elsewhere) is read again. */
  version: number;
}

/** A bill a card charge could still close: mark-as-paid's statuses (approved, scheduled, failed payment). */
export const closableByCard = (status: BillStatus): boolean => (BILL_ACTIONS.markPaid.from as readonly BillStatus[]).includes(status);
/** A bill a card charge may have closed: paid outside Bill pay (closing by card marks it so). */
const maybeClosedByCard = (bill: BillCardMatchProps['bill']) => (bill.status === 'PAID' || bill.status === 'RECONCILED') && bill.paid_manually;

/** The charge as the drawer names it: merchant, day, card, cardholder, amount. */
export function chargeFacts(c: BillCardCharge): Fact[] {
  return [
    ['Merchant', c.merchant_name],
    ['Charged', `${formatDay(c.occurred_at)}${c.state === 'PENDING' ? ' (pending)' : ''}`],
    ['Card', `${c.card_name} ·· ${c.card_last_four}`],
    ['Cardholder', c.cardholder_name],
    ['Amount', formatMoney(c.amount, c.currency)],
  ];
}

/** What closing does, said before it happens: the charge named in full, and that no money moves. */
export function closeConfirmText(c: BillCardCharge, vendor: string): string {
  return `This closes the bill as paid by the card charge of ${formatMoney(c.amount, c.currency)} at ${c.merchant_name} on ${formatDay(c.occurred_at)} `
    + `(${c.card_name}, card ending ${c.card_last_four}). No money moves: the card already paid ${vendor}, and Bill pay will not pay this bill again.`;
}

export interface PaidByCardSuggestionViewProps {
  suggestion: PayByCardSuggestion;
  online: boolean;
  onMark(): void;
}

/** "Paid by card?": the charge that looks like this bill's payment, why, and the way to close the bill with it. */
export function PaidByCardSuggestionView({ suggestion, online, onMark }: PaidByCardSuggestionViewProps) {
  const id = `${suggestion.bill_id}-card-match`;
  return (
    <section className="bill-card-match" aria-labelledby={id}>
      <h3 id={id} className="claim-section-title">Paid by card?</h3>
      <p className="muted">A company card charge looks like this bill’s payment. If it is, close the bill with it so the vendor is not paid twice.</p>
      <Facts rows={chargeFacts(suggestion.transaction)} />
      <ul className="bill-card-match-reasons" aria-label="Why it matches">
        {suggestion.reasons.map((r) => <li key={r}>{r}</li>)}
      </ul>
      <Button size="sm" variant="secondary" disabled={!online} aria-describedby={online ? undefined : `${id}-offline`} onClick={onMark}>
        Mark paid by card
      </Button>
      {!online && <p id={`${id}-offline`} className="muted bill-card-match-note">Closing a bill by card needs a connection.</p>}
    </section>
  );
}

export interface PaidByCardLinkViewProps {
  billId: string;
  charge: BillCardCharge;
  /** A paid (not reconciled) bill can be undone back to approved. */
  canUndo: boolean;
  online: boolean;
  onUndo(): void;
}

/** "Paid by card": the charge that closed the bill, and the undo while the books are open. */
export function PaidByCardLinkView({ billId, charge, canUndo, online, onUndo }: PaidByCardLinkViewProps) {
  const id = `${billId}-card-paid`;
  return (
    <section className="bill-card-match" aria-labelledby={id}>
      <h3 id={id} className="claim-section-title">Paid by card</h3>
      <p className="muted">Closed against this company card charge; Bill pay sent nothing.</p>
      <Facts rows={chargeFacts(charge)} />
      {canUndo && (
        <Button size="sm" variant="ghost" disabled={!online} onClick={onUndo}>
          Undo paid by card
        </Button>
      )}
    </section>
  );
}

type Loaded =
  | { kind: 'loading' }
  | { kind: 'suggestion'; suggestion: PayByCardSuggestion | null }
  | { kind: 'linked'; charge: BillCardCharge | null }
  | { kind: 'error'; message: string };

/**
 * The bill drawer's "Paid by card?" (issue 30): for an open bill, the company card charge that
 * looks like its payment (the server's suggestion: schema/bill-card-match.ts) and "Mark paid by
 * card", confirmed first naming the charge and that no money moves; for a bill closed by card,
 * the charge and its undo. Bill managers only (the calls are theirs), online only (server reads):
 * offline it says so. Self-contained: the drawer renders `<BillCardMatch …/>` and nothing else.
 */
export function BillCardMatch({ bill, vendor, client, online, version }: BillCardMatchProps) {
  const user = useAppState((s) => s.session?.user ?? null);
  // What was read, keyed by the read it answers: a new bill, status or feed version reads again (loading meanwhile).
  const [answer, setAnswer] = useState<{ key: string; value: Loaded } | null>(null);
  const [confirm, setConfirm] = useState<'close' | 'undo' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const key = useRef(crypto.randomUUID());
  const manager = !!user && mayManageBills(user);
  const open = closableByCard(bill.status);
  const closed = maybeClosedByCard(bill);

  const readKey = `${bill.id}:${open ? 'open' : 'closed'}:${version}`;
  const loaded: Loaded = answer?.key === readKey ? answer.value : { kind: 'loading' };
  const setLoaded = (value: Loaded) => setAnswer({ key: readKey, value });

  useEffect(() => {
    if (!manager || !online || !(open || closed)) return;
    let live = true;
    const read = open
      ? client.payByCardSuggestions(bill.id).then((r): Loaded => (r.ok ? { kind: 'suggestion', suggestion: r.suggestions[0] ?? null } : { kind: 'error', message: errorText(r.error) }))
      : client.billPaidByCard(bill.id).then((r): Loaded => (r.ok ? { kind: 'linked', charge: r.charge } : { kind: 'error', message: errorText(r.error) }));
    void read.then((value) => live && setAnswer({ key: `${bill.id}:${open ? 'open' : 'closed'}:${version}`, value }));
    return () => {
      live = false;
    };
  }, [client, bill.id, open, closed, manager, online, version]);

  if (!manager || !(open || closed)) return null;
  if (!online) {
    return open ? <p className="muted bill-card-match-note">Whether a company card already paid this bill is checked when you’re online.</p> : null;
  }
  if (loaded.kind === 'loading') return <p className="muted bill-card-match-note" role="status">Checking card charges…</p>;
  if (loaded.kind === 'error') return <p className="muted bill-card-match-note">Card charges could not be checked: {loaded.message}</p>;

  if (loaded.kind === 'suggestion') {
    const s = loaded.suggestion;
    if (!s) return null;
    return (
      <>
        <PaidByCardSuggestionView suggestion={s} online={online} onMark={() => setConfirm('close')} />
        {confirm === 'close' && (
          <ConfirmDialog
            title={`Mark ${bill.invoice_number} paid by card?`}
            description={closeConfirmText(s.transaction, vendor)}
            confirmLabel="Mark paid by card"
            onClose={() => { setConfirm(null); setError(null); }}
            onConfirm={async () => {
              setError(null);
              const r = await client.closeBillByCard(bill.id, s.transaction_id, key.current);
              if (!r.ok) {
                setError(errorText(r.error));
                return false;
              }
              key.current = crypto.randomUUID();
              setLoaded({ kind: 'linked', charge: r.charge });
              toastInfo(`${bill.invoice_number} is paid by card (${formatMoney(r.charge.amount, r.charge.currency)} at ${r.charge.merchant_name}). Bill pay will not pay it again.`);
              return true;
            }}
          >
            <FormError message={error} />
          </ConfirmDialog>
        )}
      </>
    );
  }

  const charge = loaded.charge;
  if (!charge) return null;
  return (
    <>
      <PaidByCardLinkView billId={bill.id} charge={charge} canUndo={bill.status === 'PAID'} online={online} onUndo={() => setConfirm('undo')} />
      {confirm === 'undo' && (
        <ConfirmDialog
          title={`Undo paid by card for ${bill.invoice_number}?`}
          description={`The bill goes back to approved and is owed again: it can be paid, or closed with another charge. The card charge itself is not touched (${formatMoney(charge.amount, charge.currency)} at ${charge.merchant_name}).`}
          confirmLabel="Undo paid by card"
          tone="danger"
          onClose={() => { setConfirm(null); setError(null); }}
          onConfirm={async () => {
            setError(null);
            const r = await client.undoBillPaidByCard(bill.id);
            if (!r.ok) {
              setError(errorText(r.error));
              return false;
            }
            toastInfo(`${bill.invoice_number} is approved again; the card charge no longer closes it.`);
            return true;
          }}
        >
          <FormError message={error} />
        </ConfirmDialog>
      )}
    </>
  );
}
