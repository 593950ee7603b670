import { useMemo, useRef, useState, type FormEvent } from 'react';
import type { SwitchingVendor } from '../../../schema/api/calls-switching.ts';
import { LIMIT_INTERVALS, type LimitInterval } from '../../../schema/entities/card.ts';
import { fullName } from '../../../schema/entities/spend-user.ts';
import { currencyExponent, minorToDecimal, toMinorUnits } from '../../../schema/money.ts';
import { Combobox } from '../../components/combobox.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import { ModalActions } from '../../components/modal-actions.tsx';
import { SelectField } from '../../components/select-field.tsx';
import { TextField } from '../../components/text-field.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { INTERVAL_LABELS } from '../../lib/limit-words.ts';
import { limitWords } from './switching-words.ts';

export interface VendorCardDialogProps {
  client: DataClient;
  vendor: SwitchingVendor;
  /** The business's people as reference data holds them (the cardholder picker). */
  users: readonly { id: string; email: string; first_name: string; last_name: string; status: string }[];
  /** The signed-in admin: the cardholder unless another is chosen. */
  me: string;
  onClose(): void;
  onMoved(): void;
}

const INTERVALS = LIMIT_INTERVALS.filter((i) => i !== 'DAILY').map((i) => ({ value: i, label: INTERVAL_LABELS[i] }));

/**
 * "Move to a card": a virtual card for this vendor alone, its limit the suggestion (the largest
 * charge per cadence plus 10 %) unless changed. Says exactly what will be issued before it is;
 * one Idempotency-Key per dialog, so a retried press never issues a second card.
 */
export function VendorCardDialog({ client, vendor, users, me, onClose, onMoved }: VendorCardDialogProps) {
  const [holder, setHolder] = useState(me);
  const [name, setName] = useState(vendor.name.slice(0, 80));
  const [amount, setAmount] = useState(minorToDecimal(vendor.suggested_limit.amount, vendor.currency));
  const [interval, setInterval] = useState<LimitInterval>(vendor.suggested_limit.interval);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const key = useRef(crypto.randomUUID());
  const holders = useMemo(() => users.filter((u) => u.status === 'ACTIVE')
    .map((u) => ({ value: u.id, label: fullName(u) || u.email })).sort((a, b) => a.label.localeCompare(b.label)), [users]);
  const minor = toMinorUnits(amount, vendor.currency);
  const amountError = amount.trim() === '' ? null : minor === null || minor <= 0
    ? `Enter an amount above zero with at most ${currencyExponent(vendor.currency)} decimals.` : null;
  const holderName = holders.find((h) => h.value === holder)?.label ?? 'the cardholder';

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (minor === null || minor <= 0 || name.trim() === '') { setError('Give the card a name and a limit above zero.'); return; }
    setBusy(true);
    setError(null);
    const r = await client.switchVendorToCard(vendor.id, { user_id: holder, limit: { amount: minor, interval }, display_name: name.trim() }, key.current);
    setBusy(false);
    if (r.ok) onMoved();
    else setError(errorText(r.error));
  }

  return (
    <Modal title={`Move ${vendor.name} to its own card`} onClose={onClose} onSubmit={submit}
      description="A virtual card for this vendor alone. Give its number to the vendor yourself; the old card is not changed.">
      <FormError message={error} />
      <div className="modal-fields">
        <Combobox label="Cardholder" value={holder} options={holders} onChange={setHolder} />
        <TextField label="Card name" value={name} maxLength={80} onChange={setName} required />
        <TextField label={`Limit (${vendor.currency})`} value={amount} onChange={setAmount} error={amountError} required />
        <SelectField label="Per" value={interval} options={INTERVALS} onChange={(v) => setInterval(v as LimitInterval)} />
      </div>
      <p className="switching-confirm" aria-live="polite">
        {minor !== null && minor > 0
          ? <>Issues a virtual card “{name.trim() || vendor.name}” to {holderName} that can spend {limitWords(minor, vendor.currency, interval)}.</>
          : 'Enter the limit to see the card that will be issued.'}
      </p>
      <ModalActions submitLabel="Issue card" busy={busy} submitDisabled={minor === null || minor <= 0} onCancel={onClose} />
    </Modal>
  );
}
