import { useCallback, useState, type FormEvent } from 'react';
import type { AccountingCurrent, AccountingPreferences, AccountingProvider, SyncCommit } from '../../../schema/api/calls-accounting.ts';
import { Button } from '../../components/button.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import { Section } from '../../components/section.tsx';
import { TextField } from '../../components/text-field.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { formatCount, formatLocalDateTime } from '../../lib/format.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';
import { toastError, toastInfo } from '../../lib/toast-store.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { ListStatus } from '../../components/online-list-status.tsx';
import { useAccountingPage } from './use-accounting-page.ts';
import { useOnlineList } from '../../lib/use-online-list.ts';
import {
  formatFileSize, PROVIDER_DESCRIPTIONS, PROVIDER_LABELS, PROVIDER_OPTIONS, preferencesFormOf, preferencesPatch, syncAnswerText,
  syncRefusal, type PreferencesFieldErrors, type PreferencesFormValues,
} from './accounting-forms.ts';
import { ManualMatchSection } from './manual-match-section.tsx';
import { MappingRulesSection } from './mapping-rules-section.tsx';
import { saveFile } from './save-file.ts';

const OFFLINE_BODY =
  'The accounting connection, sync commits and mapping rules are kept on the server, not on this device, so nothing of them is shown while you’re offline. You can still code transactions: they sync when you are back online.';

/**
 * Issue 12 §7 Accounting: /accounting, what a bookkeeper uses at month end. The file-based
 * provider (connected, changed, disconnected) and its QuickBooks account names; "Sync now", which
 * exports every coded, approved, not-yet-synced item in one commit; the commits with their files
 * to download; the mapping rules that code new spend; and a manual reconciliation match. All of
 * it is server-only: offline the page says so and shows nothing as if it were current.
 */
export function AccountingPage() {
  const { client, online, reference, vendorName, vendorOptions } = useAccountingPage();
  const { list: currentList, reload: reloadCurrent } = useOnlineList(online, 'current', useCallback(async () => {
    const r = await client.accountingCurrent();
    return r.ok ? { ok: true as const, rows: [r.current] } : r;
  }, [client]));
  const { list: commits, reload: reloadCommits } = useOnlineList(online, 'commits', useCallback(async () => {
    const r = await client.syncCommits();
    return r.ok ? { ok: true as const, rows: r.commits } : r;
  }, [client]));
  const current = currentList.state === 'ready' ? currentList.rows[0] ?? null : null;

  return (
    <div className="accounting-page">
    <div className="accounting">
      <div className="page-header">
        <h1>Accounting</h1>
      </div>
      <p className="muted accounting-lead">
        Send coded, approved spend to your accounting system as files it imports, and keep the rules that code new spend for you.
      </p>
      {currentList.state !== 'ready' ? (
        <ListStatus list={currentList} what="Accounting settings" offlineBody={OFFLINE_BODY} online={online} onRetry={reloadCurrent} />
      ) : current ? (
        <>
          <ConnectionSection client={client} current={current} reference={reference} online={online} onChanged={reloadCurrent} />
          <SyncSection client={client} current={current} online={online} onSynced={() => { reloadCommits(); reloadCurrent(); }} />
          <Section title="Sync history" description="Every sync commit, newest first, with the files it produced. Download a file again at any time.">
            <ListStatus list={commits} what="Sync commits" offlineBody={OFFLINE_BODY} online={online} onRetry={reloadCommits} />
            {commits.state === 'ready' && (
              <SyncHistory client={client} commits={commits.rows} reference={reference} online={online} />
            )}
          </Section>
          <MappingRulesSection client={client} online={online} reference={reference} vendorName={vendorName} vendorOptions={vendorOptions} />
          <ManualMatchSection client={client} online={online} />
        </>
      ) : null}
    </div>
    </div>
  );
}

interface ConnectionSectionProps {
  client: DataClient;
  current: AccountingCurrent;
  reference: ReferenceView;
  online: boolean;
  onChanged(): void;
}

/** The connected provider (when, by whom), Connect / Change / Disconnect, and the IIF account names. */
function ConnectionSection({ client, current, reference, online, onChanged }: ConnectionSectionProps) {
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
        <DisconnectDialog
          provider={provider.provider_type}
          onClose={() => setDisconnecting(false)}
          onDisconnect={async () => {
            const r = await client.disconnectAccounting(provider.provider_type);
            if (!r.ok) return errorText(r.error);
            toastInfo(`${PROVIDER_LABELS[provider.provider_type]} is disconnected.`);
            onChanged();
            return null;
          }}
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
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const failure = await onChoose(choice);
      if (failure) setError(failure);
      else onClose();
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal
      title={current ? 'Change accounting provider' : 'Connect an accounting provider'}
      description="Choose the files your accounting system imports. Syncs already made keep their files."
      onClose={onClose}
      onSubmit={submit}
    >
      <FormError message={error} />
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
      <div className="modal-actions">
        <Button variant="ghost" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" loading={busy} disabled={choice === current}>
          {current ? 'Switch provider' : 'Connect'}
        </Button>
      </div>
    </Modal>
  );
}

function DisconnectDialog({ provider, onClose, onDisconnect }: { provider: AccountingProvider; onClose(): void; onDisconnect(): Promise<string | null> }) {
  const [error, setError] = useState<string | null>(null);
  return (
    <ConfirmDialog
      title={`Disconnect ${PROVIDER_LABELS[provider]}?`}
      description="Syncs stop until a provider is connected again. Past sync commits, their files and the items’ synced marks stay as they are."
      confirmLabel="Disconnect"
      tone="danger"
      onClose={onClose}
      onConfirm={async () => {
        setError(null);
        const failure = await onDisconnect();
        setError(failure);
        return failure === null;
      }}
    >
      <FormError message={error} />
    </ConfirmDialog>
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

type SyncOutcome = { kind: 'done'; commit: SyncCommit } | { kind: 'refused'; tone: 'info' | 'error'; text: string };

/** What a sync takes, said plainly; "Sync now" to the connected provider; its answer or why nothing was done. */
function SyncSection({ client, current, online, onSynced }: { client: DataClient; current: AccountingCurrent; online: boolean; onSynced(): void }) {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<SyncOutcome | null>(null);
  const provider = current.provider?.provider_type ?? null;

  async function sync() {
    if (!provider) return;
    setBusy(true);
    setOutcome(null);
    try {
      const r = await client.syncCommit(provider);
      if (r.ok) {
        setOutcome({ kind: 'done', commit: r.commit });
        onSynced();
      } else {
        setOutcome({ kind: 'refused', ...syncRefusal(r.error) });
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <Section
      title="Sync to accounting"
      actions={
        <Button variant="primary" loading={busy} disabled={!online || !provider} onClick={() => void sync()}>
          Sync now
        </Button>
      }
    >
      <p>A sync takes every item that is <strong>coded</strong> (has a GL account), <strong>approved</strong> and <strong>not yet synced</strong>, all in one commit:</p>
      <ul className="accounting-list">
        <li>card transactions that have cleared;</li>
        <li>reimbursements that are approved or paid;</li>
        <li>bills that are approved, scheduled, paid or reconciled, once every line has a GL account.</li>
      </ul>
      <p className="muted">
        Each item is then marked as synced and its coding is locked, so your books and Ledgerline stay the same. To change one, open it and
        choose “Mark as not synced”; the next sync exports it again.
      </p>
      {!provider && <p className="notice">Connect a provider above before syncing.</p>}
      <div aria-live="polite" className="accounting-outcome">
        {outcome?.kind === 'done' && (
          <div className="notice accounting-synced" data-testid="sync-result">
            <span>{syncAnswerText(outcome.commit)}</span>
            <FileButtons client={client} commit={outcome.commit} online={online} />
          </div>
        )}
        {outcome?.kind === 'refused' && (
          <p className={outcome.tone === 'error' ? 'notice notice-error' : 'notice'} role={outcome.tone === 'error' ? 'alert' : undefined}>
            {outcome.text}
          </p>
        )}
      </div>
    </Section>
  );
}

/** The commits as a table: date, by whom, provider, items, and each file as a download button. */
function SyncHistory({ client, commits, reference, online }: { client: DataClient; commits: SyncCommit[]; reference: ReferenceView; online: boolean }) {
  if (commits.length === 0) {
    return (
      <EmptyState title="No syncs yet" level="text">
        Each “Sync now” is listed here with its files, so an export can be downloaded again later.
      </EmptyState>
    );
  }
  return (
    <div className="extras-table-wrap">
      <table className="extras-table accounting-history">
        <caption className="sr-only">Sync commits</caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">By</th>
            <th scope="col">Provider</th>
            <th scope="col" className="num">Items</th>
            <th scope="col">Files</th>
          </tr>
        </thead>
        <tbody>
          {commits.map((c) => (
            <tr key={c.id} data-testid="commit-row">
              <th scope="row">{formatLocalDateTime(c.created_at)}</th>
              <td>{reference.names.user(c.created_by) || '—'}</td>
              <td>{PROVIDER_LABELS[c.provider_type]}</td>
              <td className="num">{formatCount(c.item_count)}</td>
              <td>
                <FileButtons client={client} commit={c} online={online} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** One button per file: the worker fetches it (with the session's token) and the page saves it under its name. */
function FileButtons({ client, commit, online }: { client: DataClient; commit: SyncCommit; online: boolean }) {
  const [busy, setBusy] = useState<string | null>(null);
  async function download(name: string) {
    setBusy(name);
    try {
      const r = await client.syncFile(commit.id, name);
      if (!r.ok) return toastError(`${name} could not be downloaded: ${errorText(r.error)}`);
      saveFile(r.file, name);
    } finally {
      setBusy(null);
    }
  }
  return (
    <ul className="accounting-files">
      {commit.files.map((f) => (
        <li key={f.name}>
          <Button size="sm" loading={busy === f.name} disabled={!online} onClick={() => void download(f.name)}>
            <span className="sr-only">Download </span>
            {f.name}
          </Button>
          <span className="muted accounting-file-size">{formatFileSize(f.size)}</span>
        </li>
      ))}
    </ul>
  );
}
