import { useMemo, useRef, useState } from 'react';
import type { ExpensePolicy } from '../../../schema/entities/expense-policy.ts';
import { ROLES, roleDisplayName, type Role } from '../../../schema/roles.ts';
import { Button } from '../../components/button.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import { ModalActions } from '../../components/modal-actions.tsx';
import { MoneyField } from '../../components/money-field.tsx';
import { TextField } from '../../components/text-field.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { currencyChoices } from '../../lib/currency-choices.ts';
import { useCheckedSubmit } from '../../lib/forms/use-checked-submit.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { formatMoney } from '../../lib/format.ts';
import {
  blockedErrors, capErrors, liveProblems, newPolicyValues, policyConflictMessage, policyEdit, policyInput, valuesOf, type MoneyValue, type PolicyFormValues,
} from './policy-form.ts';

export interface PolicyDialogProps {
  client: DataClient;
  /** Edit this one; absent: a new policy. */
  policy: ExpensePolicy | null;
  currency: string;
  departments: readonly { id: string; name: string }[];
  online: boolean;
  onClose(): void;
}

/** The roles a policy is usually scoped to, first; the rest follow. */
const ROLE_CHOICES: readonly Role[] = ['BUSINESS_USER', 'BUSINESS_BOOKKEEPER', 'BUSINESS_ADMIN', 'BUSINESS_OWNER', ...ROLES.filter((r) => !['BUSINESS_USER', 'BUSINESS_BOOKKEEPER', 'BUSINESS_ADMIN', 'BUSINESS_OWNER'].includes(r) && !r.startsWith('ADVISOR') && !r.startsWith('UNBUNDLED'))];

/**
 * The dialog's save: a create, or an edit sent as only what changed from the policy as opened, on
 * the version it was opened from (If-Match, issue 29); a 409 CONFLICT is said in words over the form.
 */
function usePolicySubmit(client: DataClient, policy: ExpensePolicy | null, currency: string, values: PolicyFormValues, onClose: () => void) {
  // The policy as opened, as a body and its version (kept: the mirror may bring a newer one while
  // the dialog is open, and that must not become the base): an edit sends only what the form changed.
  const [opened] = useState(() => (policy ? { body: policyInput(valuesOf(policy, currency)), seq: policy.change_seq } : null));
  // Issue 29: an edit is sent on the version it was opened from (If-Match); after a 409 CONFLICT,
  // saving again keeps mine on the version the conflict named.
  const conflictVersion = useRef<number | null>(null);
  return useCheckedSubmit(() => policyInput(values), async (body) => {
    if (!policy) {
      const r = await client.createExpensePolicy(body);
      if (!r.ok) return r.error;
      toastInfo(`Created “${body.name}”. Everyone it applies to sees what is missing at once.`);
      onClose();
      return null;
    }
    const edit = opened?.body.ok ? policyEdit(opened.body.body, body) : body;
    if (edit) {
      const r = await client.updateExpensePolicy(policy.id, edit, conflictVersion.current ?? opened?.seq ?? policy.change_seq);
      if (!r.ok) {
        if (!r.error.conflicts?.length || r.error.current_version === undefined) return r.error;
        conflictVersion.current = r.error.current_version;
        return policyConflictMessage(r.error.conflicts, formatMoney);
      }
    }
    toastInfo(edit ? `Saved “${body.name}”.` : 'Nothing changed.');
    onClose();
    return null;
  });
}

/**
 * New / edit expense policy (admins, online only). Contradictions (`policyProblems`: a cap per
 * transaction above the cap per day, a capped category also blocked…) show under their inputs
 * while typing; the server's 422 POLICY_7001 fields land on the same inputs; another admin's
 * change to a field this edit also changed is a conflict said in words (`usePolicySubmit`).
 */
export function PolicyDialog({ client, policy, currency, departments, online, onClose }: PolicyDialogProps) {
  const [values, setValues] = useState<PolicyFormValues>(() => (policy ? valuesOf(policy, currency) : newPolicyValues()));
  const set = <K extends keyof PolicyFormValues>(key: K, value: PolicyFormValues[K]) => setValues((v) => ({ ...v, [key]: value }));
  const currencies = useMemo(() => currencyChoices(currency, values.receipt.currency, ...values.caps.map((c) => c.currency)), [currency, values.receipt.currency, values.caps]);
  const { errors: sent, formError, busy, submit } = usePolicySubmit(client, policy, currency, values, onClose);
  const errors = { ...liveProblems(values), ...sent };
  const moneyError = (path: string) => errors[`${path}.amount`] ?? errors[path];

  return (
    <Modal title={policy ? `Edit ${policy.name}` : 'New expense policy'} size="lg" onClose={onClose} onSubmit={submit}
      description="What your company asks of card charges and claims. Each person sees what they miss in Missing items.">
      <FormError message={formError} />
      {!online && <p className="notice" role="status">You’re offline. Saving a policy needs a connection; you can keep editing.</p>}
      <div className="policy-form">
        <TextField label="Name" value={values.name} maxLength={120} error={errors.name} onChange={(v) => set('name', v)} field="name" />
        <TextField label="Description (optional)" value={values.description} maxLength={2000} error={errors.description} onChange={(v) => set('description', v)} />
        <label className="check">
          <input type="checkbox" checked={values.enabled} onChange={(e) => set('enabled', e.target.checked)} />
          On: check charges and claims against this policy
        </label>

        <fieldset className="policy-group">
          <legend>Applies to</legend>
          <div className="policy-choices">
            {(['everyone', 'departments', 'roles'] as const).map((k) => (
              <label key={k} className="check">
                <input type="radio" name="policy-scope" checked={values.scope === k} onChange={() => set('scope', k)} />
                {k === 'everyone' ? 'Everyone' : k === 'departments' ? 'Some departments' : 'Some roles'}
              </label>
            ))}
          </div>
          {values.scope === 'departments' && (
            <Checklist label="Departments" error={errors['scope.department_ids']} items={departments.map((d) => ({ value: d.id, label: d.name }))}
              empty="No departments yet: add them under Team." picked={values.department_ids} onChange={(ids) => set('department_ids', ids)} />
          )}
          {values.scope === 'roles' && (
            <Checklist label="Roles" error={errors['scope.roles']} items={ROLE_CHOICES.map((r) => ({ value: r, label: roleDisplayName(r) }))}
              picked={values.roles} onChange={(roles) => set('roles', roles as Role[])} />
          )}
        </fieldset>

        <fieldset className="policy-group">
          <legend>Receipts, memos and coding</legend>
          <Threshold label="Receipt required from" value={values.receipt} currencies={currencies} error={moneyError('rules.receipt_required_from')}
            hint="At or above this amount (same currency). Mileage and per-diem claims never need one." onChange={(v) => set('receipt', v)} />
          <Threshold label="Memo required above" value={values.memo} currencies={currencies} error={moneyError('rules.memo_required_above')}
            hint="0: always." onChange={(v) => set('memo', v)} />
          <div className="policy-choices" role="group" aria-label="Coding required">
            <span className="field-label">Coding required</span>
            {([['gl_account', 'GL account'], ['department', 'Department'], ['location', 'Location (card charges)']] as const).map(([k, label]) => (
              <label key={k} className="check">
                <input type="checkbox" checked={values.coding[k]} onChange={(e) => set('coding', { ...values.coding, [k]: e.target.checked })} />
                {label}
              </label>
            ))}
          </div>
        </fieldset>

        <fieldset className="policy-group">
          <legend>Category caps</legend>
          {values.caps.length === 0 && <p className="muted">No caps. Add one to limit a merchant category per charge or per day.</p>}
          {values.caps.map((c, i) => {
            const e = capErrors(errors, i);
            const edit = (patch: Partial<typeof c>) => set('caps', values.caps.map((x, j) => (j === i ? { ...x, ...patch } : x)));
            return (
              <div key={i} className="policy-cap" role="group" aria-label={`Cap ${i + 1}`}>
                <TextField label="Merchant category" value={c.category} maxLength={60} error={e.category} onChange={(v) => edit({ category: v })} />
                <label className="field">
                  <span className="field-label">Currency</span>
                  <select value={c.currency} onChange={(ev) => edit({ currency: ev.target.value })}>
                    {currencies.map((cur) => <option key={cur} value={cur}>{cur}</option>)}
                  </select>
                </label>
                <TextField label="Per charge" value={c.perTransaction} error={e.perTransaction} onChange={(v) => edit({ perTransaction: v })} />
                <TextField label="Per day" value={c.perDay} error={e.perDay} onChange={(v) => edit({ perDay: v })} />
                <Button size="sm" variant="ghost" onClick={() => set('caps', values.caps.filter((_, j) => j !== i))}>
                  Remove<span className="sr-only"> cap {i + 1}</span>
                </Button>
                {e.row && <span className="field-error policy-cap-error" role="alert">{e.row}</span>}
              </div>
            );
          })}
          <Button size="sm" onClick={() => set('caps', [...values.caps, { category: '', currency, perTransaction: '', perDay: '' }])}>Add a cap</Button>
          <label className="field">
            <span className="field-label">Blocked merchant categories</span>
            <textarea rows={2} value={values.blocked} aria-invalid={blockedErrors(errors) ? true : undefined} aria-describedby="policy-blocked-note"
              onChange={(e) => set('blocked', e.target.value)} />
            <span id="policy-blocked-note" className={blockedErrors(errors) ? 'field-error' : 'field-hint muted'}>
              {blockedErrors(errors) ?? 'One a line, e.g. Gambling. A charge in one is flagged.'}
            </span>
          </label>
        </fieldset>

        <fieldset className="policy-group">
          <legend>Per diem and mileage</legend>
          <Threshold label="Per diem at most, per day" value={values.perDiem} currencies={currencies} error={moneyError('rules.per_diem.max_per_day')}
            onChange={(v) => set('perDiem', v)} />
          <label className="check">
            <input type="checkbox" checked={values.mileage.on} onChange={(e) => set('mileage', { ...values.mileage, on: e.target.checked })} />
            Mileage at most, per claim
          </label>
          {values.mileage.on && (
            <TextField label="Miles per claim" value={values.mileage.miles} error={errors['rules.mileage.max_miles_per_claim']} onChange={(v) => set('mileage', { ...values.mileage, miles: v })} />
          )}
        </fieldset>
      </div>
      <ModalActions submitLabel={policy ? 'Save policy' : 'Create policy'} busy={busy} submitDisabled={!online} onCancel={onClose} />
    </Modal>
  );
}

/** A rule that is on or off, with its amount and currency when on. */
function Threshold({ label, value, currencies, error, hint, onChange }: {
  label: string; value: MoneyValue; currencies: readonly string[]; error: string | undefined; hint?: string; onChange(v: MoneyValue): void;
}) {
  return (
    <div className="policy-threshold">
      <label className="check">
        <input type="checkbox" checked={value.on} onChange={(e) => onChange({ ...value, on: e.target.checked })} />
        {label}
      </label>
      {value.on && (
        <MoneyField amountLabel={`${label}: amount`} amount={value.amount} currency={value.currency} currencies={currencies} error={error ?? null}
          onAmount={(amount) => onChange({ ...value, amount })} onCurrency={(currency) => onChange({ ...value, currency })} />
      )}
      {value.on && hint && !error && <span className="field-hint muted">{hint}</span>}
    </div>
  );
}

function Checklist({ label, items, picked, error, empty, onChange }: {
  label: string; items: readonly { value: string; label: string }[]; picked: readonly string[]; error: string | undefined; empty?: string; onChange(v: string[]): void;
}) {
  return (
    <div className="policy-checklist" role="group" aria-label={label}>
      {items.length === 0 && <p className="muted">{empty}</p>}
      {items.map((it) => (
        <label key={it.value} className="check">
          <input type="checkbox" checked={picked.includes(it.value)}
            onChange={(e) => onChange(e.target.checked ? [...picked, it.value] : picked.filter((p) => p !== it.value))} />
          {it.label}
        </label>
      ))}
      {error && <span className="field-error" role="alert">{error}</span>}
    </div>
  );
}
