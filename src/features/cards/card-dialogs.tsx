import { Fragment, useId, useState, type FormEvent, type ReactNode } from 'react';
import { LIMIT_INTERVALS } from '../../../schema/entities/card.ts';
import { Button } from '../../components/button.tsx';
import { ModalActions } from '../../components/modal-actions.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import { MoneyField } from '../../components/money-field.tsx';
import { SelectField } from '../../components/select-field.tsx';
import type { DataClient } from '../../data-access/types.ts';
import type { CardView } from '../../lib/cards.ts';
import { cardName, lastFourText } from '../../lib/card-labels.ts';
import { limitPatch, limitValues, type FieldErrors, type LimitValues } from './card-form.ts';
import type { CardPatch } from '../../../schema/api/calls-cards.ts';
import { INTERVAL_LABELS, limitChangeSummary } from './card-view.ts';
import { runCardCommand } from './commands.ts';
import { useCardForm } from './use-card-form.ts';

/** Currencies the forms offer first (any ISO code the business uses is added in front). */
export const INTERVAL_OPTIONS = LIMIT_INTERVALS.map((i) => ({ value: i, label: INTERVAL_LABELS[i] }));

interface CardDialogProps {
  card: CardView;
  client: DataClient;
  onClose(): void;
  returnFocus?: () => HTMLElement | null | undefined;
}

/** A shipped physical card is activated with the last four digits printed on it (checked by the server). */
export function ActivateDialog({ card, client, onClose, returnFocus }: CardDialogProps) {
  const [digits, setDigits] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const errorId = useId();
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!/^\d{4}$/.test(digits)) return setError('Enter the 4 digits printed on the card');
    setBusy(true);
    try {
      if (await runCardCommand(client, 'card.activate', { card_id: card.id, last_four: digits }, 'Card activated. It syncs in the background.')) onClose();
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal title={`Activate ${card.display_name}`} description="Enter the last four digits printed on the front of your card." onClose={onClose} onSubmit={submit} returnFocus={returnFocus}>
      <label className="field">
        <span className="field-label">Last four digits</span>
        <input
          className="input-digits"
          inputMode="numeric"
          autoComplete="off"
          maxLength={4}
          autoFocus
          value={digits}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => {
            setDigits(e.target.value.replace(/\D/g, '').slice(0, 4));
            setError(null);
          }}
        />
        {error && <span id={errorId} className="field-error">{error}</span>}
      </label>
      <ModalActions onCancel={onClose} submitLabel="Activate card" busy={busy} />
    </Modal>
  );
}

/** A yes/no confirmation for an action that cannot be undone (reissue, terminate). */
function ConfirmDialog(props: {
  title: string; confirmLabel: string; tone?: 'danger' | 'primary'; onClose(): void; onConfirm(): Promise<boolean>; children: ReactNode;
  returnFocus?: () => HTMLElement | null | undefined;
}) {
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    try {
      if (await props.onConfirm()) props.onClose();
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal title={props.title} onClose={props.onClose} onSubmit={submit} returnFocus={props.returnFocus}>
      {props.children}
      <div className="modal-actions">
        <Button variant="ghost" onClick={props.onClose} autoFocus>
          Keep the card
        </Button>
        <Button type="submit" variant={props.tone ?? 'danger'} loading={busy}>
          {props.confirmLabel}
        </Button>
      </div>
    </Modal>
  );
}

/** Lost or stolen: the card stops working at once and a successor (a new number, same settings) replaces it. */
export function ReissueDialog({ card, client, onClose, returnFocus, onReissued }: CardDialogProps & { onReissued?(successorId: string): void }) {
  const [successor] = useState(() => crypto.randomUUID());
  return (
    <ConfirmDialog
      title={`Replace ${cardName(card)}?`}
      confirmLabel="Replace card"
      onClose={onClose}
      returnFocus={returnFocus}
      onConfirm={async () => {
        const ok = await runCardCommand(client, 'card.reissue', { card_id: card.id, successor_id: successor }, 'Card reported lost or stolen: it stops working now. The new card appears once the server issues it.');
        if (ok) onReissued?.(successor);
        return ok;
      }}
    >
      <p>
        Use this if the card was lost or stolen. {lastFourText(card) ?? 'This card'} stops working now, and a new {card.is_physical ? 'physical card is shipped' : 'virtual card is issued'} with a
        new number and the same limit. Update it wherever the old number is saved.
      </p>
    </ConfirmDialog>
  );
}

/** Terminating is final: the card never works again. */
export function TerminateDialog({ card, client, onClose, returnFocus, holder }: CardDialogProps & { holder: string }) {
  return (
    <ConfirmDialog
      title={`Terminate ${cardName(card)}?`}
      confirmLabel="Terminate card"
      onClose={onClose}
      returnFocus={returnFocus}
      onConfirm={() => runCardCommand(client, 'card.terminate', { card_id: card.id }, 'Card terminated. It syncs in the background.')}
    >
      <p>
        {holder ? `${holder}’s card` : 'The card'} stops working for good: new purchases are declined and it cannot be turned back on. Authorized purchases
        still settle.
      </p>
    </ConfirmDialog>
  );
}

/**
 * Edit the card's limit: amount and currency, interval, optional per-purchase cap (card.update).
 * A change asks first (issue 25): the second step shows the old and the new limit and sends
 * nothing until "Change limit".
 */
export function LimitDialog({ card, client, onClose, returnFocus }: CardDialogProps) {
  const { values, errors, formError, setFormError, busy, currencies, set, checked, run } = useCardForm(() => limitValues(card), card.limit.currency);
  const [pending, setPending] = useState<{ card_id: string; patch: CardPatch } | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (pending) return send(pending);
    const built = checked(limitPatch(card, values));
    if (!built) return;
    if (!built.input) return onClose();
    setFormError(null);
    setPending(built.input);
  }
  async function send(input: { card_id: string; patch: CardPatch }) {
    await run(async () => {
      if (await runCardCommand(client, 'card.update', input, 'Limit changed. It syncs in the background.')) onClose();
    });
  }
  const next = pending?.patch.limit;
  const summary = next ? limitChangeSummary(card.limit, next) : null;
  return (
    <Modal title={summary ? `Change the limit of ${cardName(card)}?` : `Edit limit of ${cardName(card)}`} onClose={onClose} onSubmit={submit} returnFocus={returnFocus}>
      <FormError message={formError} />
      {summary ? (
        <>
          <dl className="facts">
            {summary.lines.map((l) => (
              <Fragment key={l.label}>
                <dt>{l.label}</dt>
                <dd>
                  {l.from} → <strong>{l.to}</strong>
                </dd>
              </Fragment>
            ))}
          </dl>
          <p className="muted">
            {summary.raises
              ? 'The card can spend more as soon as this reaches the card network.'
              : 'Purchases over the new limit are declined as soon as this reaches the card network.'}
          </p>
        </>
      ) : (
        <LimitFields values={values} currencies={currencies} errors={errors} onChange={set} />
      )}
      <ModalActions onCancel={summary ? () => setPending(null) : onClose} cancelLabel={summary ? 'Back' : 'Cancel'} submitLabel={summary ? 'Change limit' : 'Review change'} busy={busy} />
    </Modal>
  );
}

/** Amount + currency, interval and the optional per-purchase cap, shared by the limit and issue forms. */
export function LimitFields(props: {
  values: LimitValues;
  currencies: readonly string[];
  errors: FieldErrors<LimitValues>;
  onChange<K extends keyof LimitValues>(key: K, value: LimitValues[K]): void;
}) {
  const { values, errors, onChange } = props;
  const capError = useId();
  return (
    <div className="modal-fields card-fields">
      <MoneyField
        amountLabel="Limit"
        amount={values.amount}
        currency={values.currency}
        currencies={props.currencies}
        error={errors.amount ?? errors.currency}
        onAmount={(v) => onChange('amount', v)}
        onCurrency={(v) => onChange('currency', v)}
      />
      <SelectField label="Interval" value={values.interval} options={INTERVAL_OPTIONS} onChange={(v) => onChange('interval', v as LimitValues['interval'])} />
      <label className="field">
        <span className="field-label">Per-purchase cap (optional)</span>
        <input
          type="text"
          inputMode="decimal"
          autoComplete="off"
          className="input-amount"
          placeholder="No cap"
          value={values.per_transaction}
          aria-invalid={errors.per_transaction ? true : undefined}
          aria-describedby={errors.per_transaction ? capError : undefined}
          onChange={(e) => onChange('per_transaction', e.target.value)}
        />
        {errors.per_transaction && <span id={capError} className="field-error">{errors.per_transaction}</span>}
      </label>
    </div>
  );
}

/**
 * Virtual or physical, as two large choices. Each radio is named by its word alone ("Virtual")
 * and described by the line under it, so the whole box is the click target without the
 * description becoming part of the name.
 */
export function CardKindField({ name, isPhysical, hints, autoFocus, onChange }: {
  name: string; isPhysical: boolean; hints: { virtual: string; physical: string }; autoFocus?: boolean; onChange(isPhysical: boolean): void;
}) {
  const base = useId();
  const options = [
    { physical: false, label: 'Virtual', hint: hints.virtual },
    { physical: true, label: 'Physical', hint: hints.physical },
  ];
  return (
    <fieldset className="card-kind">
      <legend className="field-label">Card type</legend>
      {options.map((o) => (
        <label key={o.label} className="card-kind-option">
          <input
            type="radio"
            name={name}
            checked={isPhysical === o.physical}
            autoFocus={autoFocus && !o.physical}
            aria-labelledby={`${base}-${o.label}`}
            aria-describedby={`${base}-${o.label}-hint`}
            onChange={() => onChange(o.physical)}
          />
          <span>
            <strong id={`${base}-${o.label}`}>{o.label}</strong>
            <span id={`${base}-${o.label}-hint`} className="muted">{o.hint}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
