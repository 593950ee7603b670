import { useState, type FormEvent } from 'react';
import { xeroDateFormatSchema, type AccountingCurrent, type AccountingPreferences, type AccountingProvider } from '../../../schema/api/calls-accounting.ts';
import { Button } from '../../components/button.tsx';
import { DeleteDialog } from '../../components/confirm-dialog.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import { ModalActions } from '../../components/modal-actions.tsx';
import { Section } from '../../components/section.tsx';
import { SelectField } from '../../components/select-field.tsx';
import { TextField } from '../../components/text-field.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { callThen } from '../../lib/forms/call-then.ts';
import { useCheckedSubmit } from '../../lib/forms/use-checked-submit.ts';
import { formatLocalDateTime } from '../../lib/format.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import {
  PROVIDER_DESCRIPTIONS, PROVIDER_LABELS, PROVIDER_OPTIONS, XERO_DATE_OPTIONS, preferencesFormOf, preferencesPatch, type PreferencesFieldErrors, type PreferencesFormValues,
} from './accounting-forms.ts';

export interface ConnectionSectionProps {
  client: DataClient;
  current: AccountingCurrent;
  reference: ReferenceView;
  online: boolean;
  onChanged(): void;
}

/** The connected provider (when, by whom), Connect / Change / Disconnect, and the IIF account names. */
export function ConnectionSection({ client, current, reference, online, onChanged }: ConnectionSectionProps) {
  const [choosing, setChoosing] = useState(false);
  const [disconnecting, setDisconnecting] = useState(false);
  const provider = current.provider;
  return (
    <Section
      title="Connection"
      description="Ledgerline exports files your accounting system imports: no account of yours is linked and nothing is sent to another company."
      actions={
        <span className="accounting-actions">
          <Button variant={provider ? 'secondary' : 'primary'} disabled={!online} onClick={() => setChoosing(true)}>
            {provider ? 'Change provider' : 'Connect a provider'}
          </Button>
          {provider && (
            <Button variant="ghost" disabled={!online} onClick={() => setDisconnecting(true)}>
              Disconnect
            </Button>
          )}
        </span>
      }
    >
      {provider ? (
        <div className="accounting-provider" data-testid="accounting-provider">
          <p>
            <strong>{PROVIDER_LABELS[provider.provider_type]}</strong>
            <span className="muted">
              {' '}— connected {formatLocalDateTime(provider.connected_at)}
              {reference.names.user(provider.connected_by) && ` by ${reference.names.user(provider.connected_by)}`}
            </span>
          </p>
          <p className="muted">{PROVIDER_DESCRIPTIONS[provider.provider_type]}</p>
        </div>
      ) : (
        <p className="accounting-provider" data-testid="accounting-provider">
          No accounting provider is connected. Connect one to sync coded, approved spend as files.
        </p>
      )}
      {provider?.provider_type === 'xero_csv' && (
        <XeroDatesField client={client} saved={current.preferences} online={online} onSaved={onChanged} />
      )}
      <PreferencesForm client={client} saved={current.preferences} online={online} onSaved={onChanged} />
      {choosing && (
        <ProviderDialog
          current={provider?.provider_type ?? null}
          onClose={() => setChoosing(false)}
          onChoose={async (choice) => {
            const r = await client.connectAccounting(choice);
            if (!r.ok) return errorText(r.error);
            toastInfo(`${PROVIDER_LABELS[choice]} is connected. Syncs now export its files.`);
            onChanged();
            return null;
          }}
        />
      )}
      {disconnecting && provider && (
        <DeleteDialog
          title={`Disconnect ${PROVIDER_LABELS[provider.provider_type]}?`}
          description="Syncs stop until a provider is connected again. Past sync commits, their files and the items’ synced marks stay as they are."
          confirmLabel="Disconnect"
          onClose={() => setDisconnecting(false)}
          onDelete={callThen(() => client.disconnectAccounting(provider.provider_type), () => {
            toastInfo(`${PROVIDER_LABELS[provider.provider_type]} is disconnected.`);
            onChanged();
          })}
        />
      )}
    </Section>
  );
}

/** Choosing the provider: the three file formats, each said in a line. The server replaces the connected one. */
function ProviderDialog({ current, onClose, onChoose }: {
  current: AccountingProvider | null;
  onClose(): void;
  onChoose(p: AccountingProvider): Promise<string | null>;
}) {
  const [choice, setChoice] = useState<AccountingProvider>(current ?? 'csv');
  const { formError, busy, submit } = useCheckedSubmit(() => ({ ok: true, body: choice }), async (c) => {
    const failure = await onChoose(c);
    if (!failure) onClose();
    return failure;
  });
  return (
    <Modal
      title={current ? 'Change accounting provider' : 'Connect an accounting provider'}
      description="Choose the files your accounting system imports. Syncs already made keep their files."
      onClose={onClose}
      onSubmit={submit}
    >
      <FormError message={formError} />
      <fieldset className="plain-fieldset accounting-choices">
        <legend className="sr-only">Provider</legend>
        {PROVIDER_OPTIONS.map((o) => (
          <label key={o.value} className="accounting-choice">
            <input type="radio" name="provider" value={o.value} checked={choice === o.value} onChange={() => setChoice(o.value)} />
            <span>
              <strong>{o.label}</strong>
              <span className="muted accounting-choice-text">{PROVIDER_DESCRIPTIONS[o.value]}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <ModalActions submitLabel={current ? 'Switch provider' : 'Connect'} busy={busy} submitDisabled={choice === current} onCancel={onClose} />
    </Modal>
  );
}

/** How Xero statement files write dates, saved as soon as it is chosen (the next sync uses it). */
function XeroDatesField({ client, saved, online, onSaved }: { client: DataClient; saved: AccountingPreferences; online: boolean; onSaved(): void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function choose(value: string) {
    const format = xeroDateFormatSchema.safeParse(value);
    if (!format.success || format.data === saved.xero_date_format) return;
    setError(null);
    setBusy(true);
    try {
      const r = await client.updateAccountingPreferences({ xero_date_format: format.data });
      if (!r.ok) return setError(errorText(r.error));
      toastInfo('Xero files now write dates as ' + format.data + '.');
      onSaved();
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="accounting-prefs" aria-busy={busy}>
      <h3>Xero statement dates</h3>
      <p className="muted">Xero reads a statement’s dates in your organisation’s format (Settings → General Settings → Formatting in Xero).</p>
      <FormError message={error} />
      <fieldset className="accounting-fields" disabled={!online || busy}>
        <SelectField label="Date format" value={saved.xero_date_format} options={XERO_DATE_OPTIONS} onChange={(v) => void choose(v)} />
      </fieldset>
      {!online && <p className="muted">Reconnect to change it.</p>}
    </div>
  );
}

/** The QuickBooks Desktop account names the IIF export credits; only what changed is sent. */
function PreferencesForm({ client, saved, online, onSaved }: { client: DataClient; saved: AccountingPreferences; online: boolean; onSaved(): void }) {
  const [values, setValues] = useState<PreferencesFormValues>(() => preferencesFormOf(saved));
  const [errors, setErrors] = useState<PreferencesFieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const built = preferencesPatch(saved, values);
  const changed = !built.ok || built.patch !== null;
  const field = (key: keyof PreferencesFormValues, label: string, hint: string) => (
    <TextField field={key} label={label} value={values[key]} maxLength={159} autoComplete="off" error={errors[key]} hint={hint}
      onChange={(v) => { setValues((s) => ({ ...s, [key]: v })); setErrors((e) => ({ ...e, [key]: undefined })); }} />
  );

  async function submit(e: FormEvent) {
    e.preventDefault();
    setFormError(null);
    if (!built.ok) return setErrors(built.errors);
    if (!built.patch) return;
    setBusy(true);
    try {
      const r = await client.updateAccountingPreferences(built.patch);
      if (!r.ok) return setFormError(errorText(r.error));
      setValues(preferencesFormOf(r.preferences));
      toastInfo('Accounting preferences saved.');
      onSaved();
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="accounting-prefs" onSubmit={(e) => void submit(e)} aria-labelledby="accounting-prefs-heading">
      <h3 id="accounting-prefs-heading">QuickBooks Desktop accounts</h3>
      <p className="muted">The IIF file credits these accounts; each must exist in QuickBooks with exactly this name.</p>
      <FormError message={formError} />
      <div className="accounting-fields">
        {field('iif_card_account', 'Card account', 'The credit card account card transactions are charged to.')}
        {field('iif_ap_account', 'Accounts payable account', 'Where bills are entered.')}
        {field('iif_reimbursement_account', 'Reimbursements account', 'The liability reimbursements owed to employees go to.')}
      </div>
      <div className="accounting-form-actions">
        <Button type="submit" loading={busy} disabled={!online || !changed}>
          Save accounts
        </Button>
        {changed && (
          <Button variant="ghost" onClick={() => { setValues(preferencesFormOf(saved)); setErrors({}); setFormError(null); }}>
            Reset
          </Button>
        )}
      </div>
    </form>
  );
}
