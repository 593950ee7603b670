import { useId, useState, type FormEvent } from 'react';
import type { TreasuryPolicy, TreasuryPolicyBody } from '../../../workers/api.ts';
import { currencyExponent, toMinorUnits } from '../../../schema/money.ts';
import { Button } from '../../components/button.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import { TextField } from '../../components/text-field.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { refusalText } from './refusal-text.ts';
import { KIND_LABELS, policyErrors, policyText, policyTodayText, sortAccounts, type PolicyWordsInput } from './treasury-words.ts';
import type { WalletRow } from './use-treasury.ts';

export interface PolicyFormValues {
  kind: 'SWEEP_ABOVE' | 'TOP_UP_BELOW';
  account_id: string;
  target_account_id: string;
  threshold: string;
  target: string;
  enabled: boolean;
}

const major = (minor: number, currency: string) => {
  const exp = currencyExponent(currency);
  return (minor / 10 ** exp).toFixed(exp);
};
const minorOf = (text: string, currency: string): number => {
  const t = text.trim().replace(/^[$€£¥]/, '').replace(/,/g, '');
  const n = t === '' ? null : toMinorUnits(t, currency);
  return n === null || !Number.isSafeInteger(n) ? Number.NaN : n;
};

export const policyFormValues = (p: TreasuryPolicy | null, accounts: readonly WalletRow[]): PolicyFormValues => (p
  ? { kind: p.kind, account_id: p.account_id, target_account_id: p.target_account_id, threshold: major(p.threshold.amount, p.threshold.currency), target: major(p.target.amount, p.target.currency), enabled: p.enabled }
  : { kind: 'SWEEP_ABOVE', account_id: sortAccounts(accounts)[0]?.id ?? '', target_account_id: '', threshold: '', target: '', enabled: true });

/** Form text → the policy in minor units of the watched account's currency. */
export function policyInput(v: PolicyFormValues, accounts: readonly WalletRow[]): PolicyWordsInput {
  const currency = accounts.find((a) => a.id === v.account_id)?.currency ?? 'USD';
  return {
    kind: v.kind, account_id: v.account_id, target_account_id: v.target_account_id, enabled: v.enabled,
    threshold: { amount: minorOf(v.threshold, currency), currency }, target: { amount: minorOf(v.target, currency), currency },
  };
}

/**
 * New or edited automation (PUT, asked first: the rule in words — "Every day, move anything above
 * $100,000.00 in Operating down to $80,000.00 into Reserve" — and what it would move at today's
 * balance from the mirror). Online only; TREASURY_7009 names the field that does not fit.
 */
export function AutomationDialog({ client, accounts, policy, onClose, onSaved }: {
  client: DataClient; accounts: readonly WalletRow[]; policy: TreasuryPolicy | null; onClose(): void; onSaved(): void;
}) {
  const [values, setValues] = useState(() => policyFormValues(policy, accounts));
  // One id per new policy, minted once: a second Create (a retry after a lost answer) replaces the same policy instead of making two.
  const [id] = useState(() => policy?.id ?? crypto.randomUUID());
  const [errors, setErrors] = useState<ReturnType<typeof policyErrors>>({});
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const kindId = useId();
  const watchId = useId();
  const otherId = useId();
  const name = (id: string) => accounts.find((a) => a.id === id)?.name ?? 'the chosen account';
  const input = policyInput(values, accounts);
  const balance = accounts.find((a) => a.id === values.account_id)?.balance;
  const set = <K extends keyof PolicyFormValues>(k: K) => (v: PolicyFormValues[K]) => setValues((old) => ({ ...old, [k]: v }));

  function review(e: FormEvent) {
    e.preventDefault();
    const found = policyErrors(input);
    setErrors(found);
    if (Object.keys(found).length === 0) setConfirming(true);
  }

  async function save(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    try {
      const body: TreasuryPolicyBody = {
        id, kind: input.kind, account_id: input.account_id, target_account_id: input.target_account_id,
        threshold: input.threshold as TreasuryPolicyBody['threshold'], target: input.target as TreasuryPolicyBody['target'], enabled: values.enabled,
      };
      const r = await client.saveAutomationPolicy(body);
      if (!r.ok) {
        setFailure(refusalText(r.error, input.threshold.currency));
        setConfirming(false);
        return;
      }
      toastInfo(policy ? 'Automation saved.' : 'Automation created: it runs once a day.');
      onSaved();
      onClose();
    } finally {
      setBusy(false);
    }
  }

  if (confirming) {
    return (
      <Modal title={policy ? 'Save this automation?' : 'Create this automation?'} description={`${policyText(input, name)}.`} onClose={onClose} onSubmit={save}>
        {balance !== undefined && <p>{policyTodayText(input, balance)}</p>}
        {!values.enabled && <p className="muted">It is saved turned off: nothing moves until you turn it on.</p>}
        <div className="modal-actions">
          <Button variant="ghost" onClick={() => setConfirming(false)}>Back</Button>
          <Button type="submit" variant="primary" loading={busy}>{policy ? 'Save automation' : 'Create automation'}</Button>
        </div>
      </Modal>
    );
  }

  const accountSelect = (label: string, key: 'account_id' | 'target_account_id', htmlId: string) => (
    <label className="field" htmlFor={htmlId}>
      <span className="field-label">{label}</span>
      <select id={htmlId} value={values[key]} onChange={(e) => set(key)(e.target.value)} aria-invalid={errors[key] ? true : undefined}
        aria-describedby={errors[key] ? `${htmlId}-error` : undefined}>
        <option value="">Choose an account</option>
        {sortAccounts(accounts).map((a) => <option key={a.id} value={a.id}>{a.name} ({KIND_LABELS[a.kind]}, {a.currency})</option>)}
      </select>
      {errors[key] && <span id={`${htmlId}-error`} className="field-error">{errors[key]}</span>}
    </label>
  );
  const currency = input.threshold.currency;
  return (
    <Modal title={policy ? 'Edit automation' : 'New automation'} description="Runs once a day: at most one transfer per automation per day." onClose={onClose} onSubmit={review}>
      <FormError message={failure} />
      <label className="field" htmlFor={kindId}>
        <span className="field-label">What it does</span>
        <select id={kindId} value={values.kind} onChange={(e) => set('kind')(e.target.value as PolicyFormValues['kind'])}>
          <option value="SWEEP_ABOVE">Sweep out what is above a threshold</option>
          <option value="TOP_UP_BELOW">Top up when below a threshold</option>
        </select>
      </label>
      {accountSelect('Account it watches', 'account_id', watchId)}
      {accountSelect(values.kind === 'SWEEP_ABOVE' ? 'Move the excess into' : 'Take the top-up from', 'target_account_id', otherId)}
      <TextField label={`Threshold (${currency})`} value={values.threshold} onChange={set('threshold')} error={errors.threshold} />
      <TextField label={`Target balance (${currency})`} value={values.target} onChange={set('target')} error={errors.target}
        hint={values.kind === 'SWEEP_ABOVE' ? 'At or below the threshold: what stays in the account.' : 'At or above the threshold: what the account is brought up to.'} />
      <label className="check">
        <input type="checkbox" checked={values.enabled} onChange={(e) => set('enabled')(e.target.checked)} /> Turned on
      </label>
      {Object.keys(policyErrors(input)).length === 0 && <p className="tr-rule" aria-live="polite">{policyText(input, name)}.</p>}
      <div className="modal-actions">
        <Button variant="ghost" onClick={onClose}>Cancel</Button>
        <Button type="submit" variant="primary">Review</Button>
      </div>
    </Modal>
  );
}
