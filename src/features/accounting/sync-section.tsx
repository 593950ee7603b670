import { useState } from 'react';
import type { AccountingCurrent, SyncCommit, SyncPreview } from '../../../schema/api/calls-accounting.ts';
import { Button } from '../../components/button.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { Modal } from '../../components/modal.tsx';
import { Section } from '../../components/section.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { formatCount, formatLocalDateTime, formatMoney } from '../../lib/format.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';
import { toastError } from '../../lib/toast-store.ts';
import { formatFileSize, PROVIDER_LABELS, syncAnswerText, syncFileLabel, syncRefusal } from './accounting-forms.ts';
import { saveFile } from '../../lib/save-file.ts';

type SyncOutcome = { kind: 'done'; commit: SyncCommit } | { kind: 'refused'; tone: 'info' | 'error'; text: string };

/** What a sync takes, said plainly; "Sync now" to the connected provider; its answer or why nothing was done. */
export function SyncSection({ client, current, online, onSynced }: { client: DataClient; current: AccountingCurrent; online: boolean; onSynced(): void }) {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<SyncOutcome | null>(null);
  const [preview, setPreview] = useState<SyncPreview | null>(null);
  const provider = current.provider?.provider_type ?? null;

  /** Issue 25: "Sync now" first asks the server what would be exported and locked, and shows it. */
  async function review() {
    if (!provider) return;
    setBusy(true);
    setOutcome(null);
    try {
      const r = await client.syncPreview(provider);
      if (!r.ok) setOutcome({ kind: 'refused', ...syncRefusal(r.error) });
      else if (r.preview.item_count === 0) setOutcome({ kind: 'refused', ...syncRefusal({ error_code: 'ACCOUNTING_7303', message: '' }) });
      else setPreview(r.preview);
    } finally {
      setBusy(false);
    }
  }

  async function sync(): Promise<void> {
    if (!provider) return;
    const r = await client.syncCommit(provider);
    setPreview(null);
    if (r.ok) {
      setOutcome({ kind: 'done', commit: r.commit });
      onSynced();
    } else {
      setOutcome({ kind: 'refused', ...syncRefusal(r.error) });
    }
  }

  return (
    <Section
      title="Sync to accounting"
      actions={
        <Button variant="primary" loading={busy} disabled={!online || !provider} onClick={() => void review()}>
          Sync now…
        </Button>
      }
    >
      <p>A sync takes every item that is <strong>coded</strong> (has a GL account), <strong>approved</strong> and <strong>not yet synced</strong>, all in one commit:</p>
      <ul className="accounting-list">
        <li>card transactions that have cleared;</li>
        <li>reimbursements that are approved or paid;</li>
        <li>bills that are approved, scheduled, paid or reconciled, once every line has a GL account.</li>
      </ul>
      {provider === 'xero_csv' && (
        <p className="muted">
          A Xero bank statement lists only money that moved: bills once their payment has settled and reimbursements once their payment has
          settled; the others wait for a later sync. Card charges go on the corporate card’s statement, bill and claim payments on the bank
          account’s, one file per currency.
        </p>
      )}
      <p className="muted">
        Each item is then marked as synced and its coding is locked, so your books and Ledgerline stay the same. To change one, open it and
        choose “Mark as not synced”; the next sync exports it again.
      </p>
      {!provider && <p className="notice">Connect a provider above before syncing.</p>}
      {preview && provider && (
        <SyncPreviewDialog preview={preview} online={online} onClose={() => setPreview(null)} onConfirm={sync} />
      )}
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

const SOURCE_LABELS: Record<SyncPreview['groups'][number]['type'], string> = {
  transaction: 'Card transactions',
  reimbursement: 'Reimbursements',
  bill: 'Bills',
};

/**
 * What "Sync now" will export and lock, as the server counts it with the commit's own selection:
 * per source and currency, the items and their total. Nothing happens until it is confirmed.
 */
export function SyncPreviewDialog({ preview, online, onClose, onConfirm }: { preview: SyncPreview; online: boolean; onClose(): void; onConfirm(): Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const n = formatCount(preview.item_count);
  const items = preview.item_count === 1 ? 'item' : 'items';
  return (
    <Modal
      title={`Export and lock ${n} ${items}?`}
      description={`${PROVIDER_LABELS[preview.provider_type]} files are made from these ${items}, and each is marked as synced with its coding locked.`}
      onClose={busy ? undefined : onClose}
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        try {
          await onConfirm();
        } finally {
          setBusy(false);
        }
      }}
    >
      <div className="extras-table-wrap sync-preview-wrap">
        <table className="extras-table sync-preview" data-testid="sync-preview">
          <caption className="sr-only">What this sync exports and locks</caption>
          <thead>
            <tr>
              <th scope="col">Source</th>
              <th scope="col">Currency</th>
              <th scope="col" className="num">Items</th>
              <th scope="col" className="num">Total</th>
            </tr>
          </thead>
          <tbody>
            {preview.groups.map((g) => (
              <tr key={`${g.type}-${g.currency}`}>
                <th scope="row">{SOURCE_LABELS[g.type]}</th>
                <td>{g.currency}</td>
                <td className="num">{formatCount(g.count)}</td>
                <td className="num">{formatMoney(g.amount, g.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted">
        Totals are per currency and never added across currencies. To change an item after the sync, open it and choose “Mark as not synced”.
      </p>
      <div className="modal-actions">
        <Button variant="ghost" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" loading={busy} disabled={!online}>
          Export and lock {n} {items}
        </Button>
      </div>
    </Modal>
  );
}

/** The commits as a table: date, by whom, provider, items, and each file as a download button. */
export function SyncHistory({ client, commits, reference, online }: { client: DataClient; commits: SyncCommit[]; reference: ReferenceView; online: boolean }) {
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
      {commit.files.map((f) => {
        const label = syncFileLabel(f);
        return (
          <li key={f.name}>
            <Button size="sm" loading={busy === f.name} disabled={!online} onClick={() => void download(f.name)}>
              <span className="sr-only">Download </span>
              {f.name}
            </Button>
            <span className="muted accounting-file-size">
              {label && <span className="accounting-file-label">{label} · </span>}
              {formatFileSize(f.size)}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
