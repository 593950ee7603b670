import { useRef, useState } from 'react';
import { canViewFinancingDetails } from '../../../schema/roles.ts';
import type { FlexOffer, FlexRecord } from '../../../workers/api.ts';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import { useAppState } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { acceptText, flexRefusalText, termText } from '../../lib/flex-words.ts';
import { formatDay, formatMoney } from '../../lib/format.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import './bill-flex.css';

export interface BillFlexProps {
  bill: { id: string; status: string; currency: string; amount: number };
  vendor: string;
  client: DataClient;
  online: boolean;
}

/** Whether the drawer offers flex: an approved, unpaid USD bill, to someone who may see financing (§6; the server decides AP clerks by the business's setting, FLEX_7001). */
export const offersFlex = (bill: BillFlexProps['bill']) => bill.status === 'APPROVED' && bill.currency === 'USD';

/**
 * The bill drawer's "Pay with flex" (issue 30): asks the server for an offer (30/60/90 days, each
 * with its fee and installments), the person picks a term, confirms what happens named in full
 * (amount, vendor, fee, schedule), and accepting pays the vendor now from the flex line. Online
 * only: offline it says why. Self-contained: the drawer renders `<BillFlex …/>` and nothing else.
 */
export function BillFlex({ bill, vendor, client, online }: BillFlexProps) {
  const user = useAppState((s) => s.session?.user ?? null);
  const [offer, setOffer] = useState<FlexOffer | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!user || !canViewFinancingDetails(user) || !offersFlex(bill)) return null;

  async function ask() {
    setBusy(true);
    setError(null);
    const r = await client.flexOffer(bill.id);
    setBusy(false);
    if (r.ok) setOffer(r.offer);
    else setError(flexRefusalText(r.error));
  }

  return (
    <section className="bill-flex" aria-labelledby={`${bill.id}-flex`}>
      <h3 id={`${bill.id}-flex`} className="claim-section-title">Flex</h3>
      <p className="muted">Pay {vendor} {formatMoney(bill.amount, bill.currency)} now and repay in installments over 30, 60 or 90 days.</p>
      <Button size="sm" variant="secondary" loading={busy} disabled={!online} aria-describedby={online ? undefined : `${bill.id}-flex-offline`} onClick={() => void ask()}>
        Pay with flex
      </Button>
      {!online && <p id={`${bill.id}-flex-offline`} className="muted bill-flex-note">Flex needs a connection: offers are made and accepted by the server.</p>}
      <FormError message={error} />
      {offer && <FlexOfferDialog offer={offer} vendor={vendor} client={client} onClose={() => setOffer(null)} onAccepted={() => setOffer(null)} />}
    </section>
  );
}

export interface FlexOfferDialogProps {
  offer: FlexOffer;
  vendor: string;
  client: DataClient;
  onClose(): void;
  onAccepted(record: FlexRecord): void;
}

/** The offer's terms as choices, then the confirmation naming amount, vendor, fee and schedule. */
export function FlexOfferDialog({ offer, vendor, client, onClose, onAccepted }: FlexOfferDialogProps) {
  const [term, setTerm] = useState<30 | 60 | 90>(offer.terms[0]?.term_days ?? 30);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const key = useRef(crypto.randomUUID());
  const chosen = offer.terms.find((t) => t.term_days === term) ?? offer.terms[0];
  if (!chosen) return null;
  if (confirming) {
    return (
      <ConfirmDialog
        title={`Pay ${vendor} ${formatMoney(offer.amount.amount, offer.amount.currency)} with flex?`}
        description={acceptText(offer, chosen, vendor)}
        confirmLabel={`Pay with flex over ${chosen.term_days} days`}
        cancelLabel="Back"
        onClose={() => setConfirming(false)}
        onConfirm={async () => {
          setError(null);
          const r = await client.acceptFlexOffer(offer.id, chosen.term_days, key.current);
          if (!r.ok) {
            setError(flexRefusalText(r.error));
            return false;
          }
          toastInfo(`${vendor} is paid with flex. ${r.record.installments[0] ? `The first installment is due ${formatDay(r.record.installments[0].due_date)}.` : ''}`);
          onAccepted(r.record);
          return false;
        }}
      >
        <FormError message={error} />
      </ConfirmDialog>
    );
  }
  return (
    <Modal
      title="Pay with flex"
      description={`${vendor} · ${formatMoney(offer.amount.amount, offer.amount.currency)}. Choose how long to repay; the fee depends on the term.`}
      onClose={onClose}
      onSubmit={(e) => {
        e.preventDefault();
        setConfirming(true);
      }}
    >
      <fieldset className="flex-terms">
        <legend>Repay over</legend>
        {offer.terms.map((t) => (
          <label key={t.term_days} className="flex-term">
            <input type="radio" name="flex-term" value={t.term_days} checked={term === t.term_days} onChange={() => setTerm(t.term_days)} />
            <span className="flex-term-text">
              <strong>{t.term_days} days</strong>
              <span className="muted">{termText(t)}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="modal-actions">
        <Button variant="ghost" onClick={onClose}>Cancel</Button>
        <Button type="submit" variant="primary">Continue</Button>
      </div>
    </Modal>
  );
}
