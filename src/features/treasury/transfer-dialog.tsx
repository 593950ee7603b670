import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import type { LinkedBankAccount, TreasuryPreview } from '../../../workers/api.ts';
import { currencyExponent } from '../../../schema/money.ts';
import { Button } from '../../components/button.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import { TextField } from '../../components/text-field.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { formatDay, formatLocalDateTime, formatMoney } from '../../lib/format.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { lastSettings, previewSettings } from './treasury-cache.ts';
import {
  checkTransferForm, confirmText, offlinePreview, shortfallText, transferChoices, utcToday,
  type CheckedTransfer, type TransferChoice, type TransferFormErrors, type TransferFormValues, type TransferPreviewView,
} from './treasury-words.ts';
import { refusalText } from './refusal-text.ts';
import type { WalletRow } from './use-treasury.ts';

/** The path's wallet account and the body of a transfer (a pull from a bank account names it as `from_bank_account_id`). */
export function transferRequest(t: CheckedTransfer) {
  const pull = t.from.side === 'bank';
  const walletId = pull ? t.to.id : t.from.id;
  return {
    walletId,
    body: {
      to_account_id: t.to.id,
      ...(pull ? { from_bank_account_id: t.from.id } : {}),
      amount: { amount: t.amount, currency: t.currency as 'USD' },
      ...(t.memo ? { memo: t.memo } : {}),
    },
  };
}

const nameOf = (c: TransferChoice) => c.label.split(' (')[0]!;

/** The preview step's figures: amount, both accounts, fee, date, balance after; an offline estimate says so. */
export function TransferPreviewFacts({ transfer: t, preview: p }: { transfer: CheckedTransfer; preview: TransferPreviewView }) {
  const money = (n: number) => `${formatMoney(n, t.currency)} ${t.currency}`;
  return (
    <>
      {p.estimate && (
        <p className="notice" role="status">
          Estimate: you’re offline, so the fee and date are worked out on this device from {lastSettings() ? `the wallet settings read ${formatLocalDateTime(lastSettings()!.at)}` : 'the standard fee schedule (the wallet settings have not been read on this device yet)'}. The server checks them when the transfer is sent and refuses it, keeping it here, if they changed.
        </p>
      )}
      <dl className="tr-facts tr-preview">
        <div><dt>Amount</dt><dd>{money(t.amount)}</dd></div>
        <div><dt>From</dt><dd>{nameOf(t.from)}</dd></div>
        <div><dt>To</dt><dd>{nameOf(t.to)}</dd></div>
        <div><dt>Fee</dt><dd>{p.fee === 0 ? `None (${money(0)})` : money(p.fee)}</dd></div>
        <div><dt>Expected settlement</dt><dd>{formatDay(p.expected_settlement_date)}</dd></div>
        {p.balance_after !== null && <div><dt>{nameOf(t.from)} after the hold</dt><dd>{money(p.balance_after)}</dd></div>}
        {t.memo && <div><dt>Memo</dt><dd>{t.memo}</dd></div>}
      </dl>
    </>
  );
}

export interface TransferDialogProps {
  client: DataClient;
  online: boolean;
  accounts: readonly WalletRow[];
  /** A refused transfer sent again: its input, and the failed command discarded once the new one is queued. */
  again?: { values: TransferFormValues; commandId: string } | undefined;
  onClose(): void;
}

type Step = { kind: 'form' } | { kind: 'preview'; transfer: CheckedTransfer; preview: TransferPreviewView };

/**
 * "New transfer": from, to (wallet accounts from the mirror; linked bank accounts, the server's
 * online and the mirror's offline, VERIFIED ones only, the others listed disabled with why), amount, memo → a preview naming
 * amount, both accounts, fee, settlement date and the balance after (the server's when online,
 * else worked out here and marked an estimate) → "Send transfer", which queues `transfer.create`
 * through the outbox under one client id per dialog (sent exactly once, offline too).
 */
export function TransferDialog({ client, online, accounts, again, onClose }: TransferDialogProps) {
  const [values, setValues] = useState<TransferFormValues>(again?.values ?? { from: '', to: '', amount: '', memo: '' });
  const [errors, setErrors] = useState<TransferFormErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [step, setStep] = useState<Step>({ kind: 'form' });
  const [busy, setBusy] = useState(false);
  const [banks, setBanks] = useState<LinkedBankAccount[]>([]);
  const id = useRef(crypto.randomUUID());
  const fromId = useId();
  const toId = useId();
  useEffect(() => {
    let live = true;
    // The banking domain's one read of the linked accounts (workers/handlers/banking.ts): the
    // server's list online, the mirror's offline (none when this device never synced them).
    void client.bankAccounts().then((r) => live && r.ok && setBanks(r.accounts), () => undefined);
    return () => {
      live = false;
    };
  }, [client, online]);
  const choices = useMemo(() => transferChoices(accounts, banks), [accounts, banks]);
  const set = (k: keyof TransferFormValues) => (v: string) => setValues((old) => ({ ...old, [k]: v }));
  const currency = choices.find((c) => c.id === values.from)?.currency ?? accounts[0]?.currency ?? 'USD';

  async function preview(e: FormEvent) {
    e.preventDefault();
    const checked = checkTransferForm(values, choices);
    if (!checked.ok) return setErrors(checked.errors);
    setErrors({});
    setFailure(null);
    const t = checked.transfer;
    if (!online) return setStep({ kind: 'preview', transfer: t, preview: offlinePreview(t, previewSettings(), utcToday()) });
    setBusy(true);
    try {
      const { walletId, body } = transferRequest(t);
      const r = await client.previewTransfer(walletId, body);
      if (r.ok) return setStep({ kind: 'preview', transfer: t, preview: fromServer(r.preview, t) });
      if ('offline' in r && r.offline) return setStep({ kind: 'preview', transfer: t, preview: offlinePreview(t, previewSettings(), utcToday()) });
      setFailure(refusalText(r.error, t.currency));
    } finally {
      setBusy(false);
    }
  }

  async function send(e: FormEvent) {
    e.preventDefault();
    if (step.kind !== 'preview') return;
    const { transfer: t, preview: p } = step;
    const { walletId, body } = transferRequest(t);
    setBusy(true);
    try {
      const r = await client.run('transfer.create', {
        ...body, id: id.current, wallet_account_id: walletId, expected_fee: { amount: p.fee, currency: t.currency },
        from_name: nameOf(t.from), to_name: nameOf(t.to), expected_settlement_date: p.expected_settlement_date,
      });
      if (!r.ok) {
        setFailure(refusalText(r.error, t.currency));
        return setStep({ kind: 'form' });
      }
      if (again) await client.discardCommand(again.commandId);
      toastInfo(online
        ? `Transfer of ${formatMoney(t.amount, t.currency)} ${t.currency} to ${nameOf(t.to)} is being sent: it shows as pending, and the list says so if it is refused.`
        : `Transfer of ${formatMoney(t.amount, t.currency)} ${t.currency} to ${nameOf(t.to)} saved on this device: it is sent once, when you’re back online.`);
      onClose();
    } finally {
      setBusy(false);
    }
  }

  if (step.kind === 'preview') {
    const short = shortfallText(step.transfer, step.preview);
    return (
      <Modal title="Check and send the transfer" description={confirmText(step.transfer, step.preview)} onClose={onClose} onSubmit={send}>
        <TransferPreviewFacts transfer={step.transfer} preview={step.preview} />
        <FormError message={short ?? failure} />
        {!online && <p className="muted">You’re offline: the transfer is saved on this device and sent once when you’re back online.</p>}
        <div className="modal-actions">
          <Button variant="ghost" onClick={() => setStep({ kind: 'form' })}>Back</Button>
          <Button type="submit" variant="primary" loading={busy} disabled={short !== null}>Send transfer</Button>
        </div>
      </Modal>
    );
  }

  const optionLabel = (c: TransferChoice) => (c.disabled ? `${c.label} — ${c.disabled}` : c.label);
  const select = (label: string, key: 'from' | 'to', htmlId: string) => (
    <label className="field" htmlFor={htmlId}>
      <span className="field-label">{label}</span>
      <select id={htmlId} value={values[key]} onChange={(e) => set(key)(e.target.value)} aria-invalid={errors[key] ? true : undefined}
        aria-describedby={errors[key] ? `${htmlId}-error` : undefined}>
        <option value="">Choose an account</option>
        <optgroup label="Wallet accounts">
          {choices.filter((c) => c.side === 'wallet').map((c) => <option key={c.id} value={c.id}>{optionLabel(c)}</option>)}
        </optgroup>
        {choices.some((c) => c.side === 'bank') && (
          <optgroup label="Linked bank accounts">
            {choices.filter((c) => c.side === 'bank').map((c) => <option key={c.id} value={c.id} disabled={c.disabled !== null}>{optionLabel(c)}</option>)}
          </optgroup>
        )}
      </select>
      {errors[key] && <span id={`${htmlId}-error`} className="field-error">{errors[key]}</span>}
    </label>
  );
  return (
    <Modal title="New transfer" description="Move money between your wallet accounts, or to or from a verified linked bank account. You check the fee and date before anything is sent." onClose={onClose} onSubmit={preview}>
      <FormError message={failure} />
      {select('From', 'from', fromId)}
      {select('To', 'to', toId)}
      {!online && (banks.length === 0
        ? <p className="muted">Linked bank accounts can be chosen when you’re online.</p>
        : <p className="muted">Linked bank accounts as this device last synced them: the server checks the account when the transfer is sent.</p>)}
      <TextField label={`Amount (${currency})`} value={values.amount} onChange={set('amount')} error={errors.amount}
        hint={`In ${currency}, like ${(125_000 / 10 ** currencyExponent(currency)).toFixed(currencyExponent(currency))}`} />
      <TextField label="Memo (optional)" value={values.memo} onChange={set('memo')} error={errors.memo} maxLength={200} />
      <div className="modal-actions">
        <Button variant="ghost" onClick={onClose}>Cancel</Button>
        <Button type="submit" variant="primary" loading={busy}>Preview transfer</Button>
      </div>
    </Modal>
  );
}

const fromServer = (p: TreasuryPreview, t: CheckedTransfer): TransferPreviewView => ({
  fee: p.fee.amount,
  expected_settlement_date: p.expected_settlement_date,
  balance_after: t.from.side === 'wallet' ? p.balance_after.amount : null,
  estimate: false,
});
