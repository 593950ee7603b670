import { useEffect, useId, useState, type FormEvent } from 'react';
import type { TreasuryCardAutopay } from '../../../workers/api.ts';
import { currencyExponent, toMinorUnits } from '../../../schema/money.ts';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import { Section } from '../../components/section.tsx';
import { Skeleton } from '../../components/skeleton.tsx';
import { TextField } from '../../components/text-field.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { formatLocalDateTime, formatMoney } from '../../lib/format.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { refusalText } from './refusal-text.ts';
import type { WalletRow } from './use-treasury.ts';

/** What this page session last read (in memory, never stored): shown offline as of its read. */
let last: { autopay: TreasuryCardAutopay; at: number } | null = null;

const money = (m: { amount: number; currency: string }) => `${formatMoney(m.amount, m.currency)} ${m.currency}`;

/** The primary OPERATING account autopay pays from, by currency (from the mirror). */
const operatingName = (accounts: readonly WalletRow[], currency: string) =>
  accounts.find((a) => a.kind === 'OPERATING' && a.is_primary && a.currency === currency)?.name ?? 'Operating';

/** The rule in words, as the confirmation and the facts say it. */
export const autopayRuleText = (threshold: { amount: number; currency: string }, from: string) =>
  `When unpaid card spend reaches ${money(threshold)}, it is paid from ${from} at once.`;

/** What the confirmation says before a threshold is saved: the rule, and whether the unpaid balance is paid now. */
export function autopayConfirmWords(threshold: { amount: number; currency: string }, from: string, unpaid: { amount: number; currency: string }) {
  const paysNow = unpaid.currency === threshold.currency && unpaid.amount >= threshold.amount;
  return {
    rule: autopayRuleText(threshold, from),
    note: paysNow ? `The unpaid ${money(unpaid)} already reaches it: it is paid from ${from} now.` : 'Until then, card spend is paid 3 days after charges clear.',
    confirmLabel: paysNow ? `Save and pay ${money(unpaid)}` : 'Save threshold',
    paysNow,
  };
}

/** The unpaid balance and the threshold (or the default rule), each with its currency. */
export function CardAutopayFacts({ autopay, from }: { autopay: TreasuryCardAutopay; from: string }) {
  return (
    <dl className="tr-facts" aria-label="Card autopay">
      <div>
        <dt>Unpaid card balance</dt>
        <dd>{money(autopay.unpaid_card_balance)}<span className="muted tr-note">Cleared charges not yet paid</span></dd>
      </div>
      <div>
        <dt>Autopay</dt>
        <dd>{autopay.autopay_threshold ? autopayRuleText(autopay.autopay_threshold, from) : 'Paid 3 days after charges clear'}</dd>
      </div>
    </dl>
  );
}

/** Form text → minor units above zero, or the field's problem. */
export function thresholdAmount(text: string, currency: string): { ok: true; amount: number } | { ok: false; error: string } {
  const t = text.trim().replace(/^[$€£¥]/, '').replace(/,/g, '');
  const amount = t === '' ? null : toMinorUnits(t, currency);
  if (amount === null || !Number.isSafeInteger(amount) || amount <= 0 || amount > 100_000_000_000_000) {
    return { ok: false, error: `Enter an amount above ${formatMoney(0, currency)} in ${currency}, with at most ${currencyExponent(currency)} decimals.` };
  }
  return { ok: true, amount };
}

/**
 * Issue 30, /treasury "Card autopay" (admins, online to read or change; offline the last read,
 * marked): the unpaid card balance, the threshold or "Paid 3 days after charges clear", Edit (asks
 * first, naming the rule and what it pays now) and Remove (asks first).
 */
export function CardAutopaySection({ client, online, accounts }: { client: DataClient; online: boolean; accounts: readonly WalletRow[] }) {
  const [read, setRead] = useState(last);
  const [error, setError] = useState<string | null>(null);
  const [dialog, setDialog] = useState<'edit' | 'remove' | null>(null);
  const remember = (autopay: TreasuryCardAutopay) => {
    last = { autopay, at: Date.now() };
    setRead(last);
    setError(null);
  };
  useEffect(() => {
    if (!online) return;
    let live = true;
    void client.cardAutopay().then((r) => {
      if (!live) return;
      if (r.ok) remember(r.autopay);
      else if (!('offline' in r && r.offline)) setError(errorText(r.error));
    }, () => undefined);
    return () => {
      live = false;
    };
  }, [client, online]);
  const autopay = read?.autopay ?? null;
  const currency = autopay?.autopay_threshold?.currency ?? autopay?.unpaid_card_balance.currency ?? 'USD';
  const from = operatingName(accounts, currency);
  const actions = autopay && (
    <div className="row-actions">
      <Button size="sm" disabled={!online} onClick={() => setDialog('edit')}>{autopay.autopay_threshold ? 'Edit' : 'Set threshold'}</Button>
      {autopay.autopay_threshold && <Button size="sm" disabled={!online} onClick={() => setDialog('remove')}>Remove</Button>}
    </div>
  );
  return (
    <Section title="Card autopay" actions={actions}
      description="Card spend is paid to the card network from Operating. With a threshold, it is paid as soon as the unpaid balance reaches it.">
      {!online && (
        <p className="notice" role="status">
          {read ? `You’re offline: shown as last read, ${formatLocalDateTime(read.at)}. Changing autopay needs a connection.` : 'You’re offline: card autopay loads when you’re back online.'}
        </p>
      )}
      <FormError message={error} />
      {autopay ? <CardAutopayFacts autopay={autopay} from={from} /> : online && !error && (
        <div aria-busy="true"><span className="sr-only">Loading card autopay…</span><Skeleton height={64} /></div>
      )}
      {dialog === 'edit' && autopay && (
        <AutopayDialog client={client} autopay={autopay} accounts={accounts} onClose={() => setDialog(null)} onSaved={remember} />
      )}
      {dialog === 'remove' && autopay?.autopay_threshold && (
        <RemoveAutopayDialog client={client} threshold={autopay.autopay_threshold} from={from} onClose={() => setDialog(null)} onSaved={remember} />
      )}
    </Section>
  );
}

/** The currencies autopay can pay in: those with a primary operating account (the server refuses others). */
const operatingCurrencies = (accounts: readonly WalletRow[]) =>
  [...new Set(accounts.filter((a) => a.kind === 'OPERATING' && a.is_primary).map((a) => a.currency))].sort();

/** Set or change the threshold: the amount and currency, then a confirmation naming the rule and what is paid now. */
export function AutopayDialog({ client, autopay, accounts, onClose, onSaved }: {
  client: DataClient; autopay: TreasuryCardAutopay; accounts: readonly WalletRow[]; onClose(): void; onSaved(a: TreasuryCardAutopay): void;
}) {
  const saved = autopay.autopay_threshold;
  const currencies = operatingCurrencies(accounts);
  const [currency, setCurrency] = useState(saved?.currency ?? autopay.unpaid_card_balance.currency);
  const [text, setText] = useState(saved ? (saved.amount / 10 ** currencyExponent(saved.currency)).toFixed(currencyExponent(saved.currency)) : '');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const currencyId = useId();
  const from = operatingName(accounts, currency);
  const unpaid = autopay.unpaid_card_balance;

  function review(e: FormEvent) {
    e.preventDefault();
    const checked = thresholdAmount(text, currency);
    if (!checked.ok) return setFieldError(checked.error);
    setFieldError(null);
    setConfirming(checked.amount);
  }

  async function save(e: FormEvent) {
    e.preventDefault();
    if (confirming === null) return;
    setBusy(true);
    try {
      const r = await client.saveCardAutopay({ amount: confirming, currency });
      if (!r.ok) {
        setFailure(refusalText(r.error, currency));
        setConfirming(null);
        return;
      }
      onSaved(r.autopay);
      toastInfo(r.autopay.unpaid_card_balance.amount < unpaid.amount && unpaid.currency === currency
        ? `Autopay saved: ${money({ amount: unpaid.amount - r.autopay.unpaid_card_balance.amount, currency })} of card spend was paid from ${from}.`
        : 'Autopay saved.');
      onClose();
    } finally {
      setBusy(false);
    }
  }

  if (confirming !== null) {
    const words = autopayConfirmWords({ amount: confirming, currency }, from, unpaid);
    return (
      <Modal title={saved ? 'Change card autopay?' : 'Turn on card autopay?'} description={words.rule} onClose={onClose} onSubmit={save}>
        <p className={words.paysNow ? undefined : 'muted'}>{words.note}</p>
        <div className="modal-actions">
          <Button variant="ghost" onClick={() => setConfirming(null)}>Back</Button>
          <Button type="submit" variant="primary" loading={busy}>{words.confirmLabel}</Button>
        </div>
      </Modal>
    );
  }

  return (
    <Modal title={saved ? 'Edit card autopay' : 'Set a card autopay threshold'}
      description="When the unpaid card balance reaches this amount, it is paid from Operating at once instead of 3 days after the charges clear." onClose={onClose} onSubmit={review}>
      <FormError message={failure} />
      {currencies.length > 1 && (
        <label className="field" htmlFor={currencyId}>
          <span className="field-label">Currency</span>
          <select id={currencyId} value={currency} onChange={(e) => setCurrency(e.target.value)}>
            {currencies.map((c) => <option key={c} value={c}>{c}</option>)}
          </select>
        </label>
      )}
      <TextField label={`Threshold (${currency})`} value={text} onChange={setText} error={fieldError} autoFocus
        hint={`Unpaid now: ${unpaid.currency === currency ? money(unpaid) : `shown in ${unpaid.currency}`}.`} />
      <div className="modal-actions">
        <Button variant="ghost" onClick={onClose}>Cancel</Button>
        <Button type="submit" variant="primary">Review</Button>
      </div>
    </Modal>
  );
}

function RemoveAutopayDialog({ client, threshold, from, onClose, onSaved }: {
  client: DataClient; threshold: { amount: number; currency: string }; from: string; onClose(): void; onSaved(a: TreasuryCardAutopay): void;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  return (
    <ConfirmDialog title="Remove card autopay?" confirmLabel="Remove threshold" tone="danger" onClose={onClose}
      description={`Card spend is no longer paid from ${from} when it reaches ${money(threshold)}: it is paid 3 days after the charges clear.`}
      onConfirm={async () => {
        const r = await client.removeCardAutopay();
        if (!r.ok) {
          setFailure(errorText(r.error));
          return false;
        }
        onSaved(r.autopay);
        toastInfo('Card autopay removed: card spend is paid 3 days after charges clear.');
        return true;
      }}>
      <FormError message={failure} />
    </ConfirmDialog>
  );
}
