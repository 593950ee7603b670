import { useCallback, useState } from 'react';
import type { SftpDestination, SftpUpload } from '../../../schema/api/calls-sftp.ts';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { FormError } from '../../components/form-error.tsx';
import { ListStatus } from '../../components/online-list-status.tsx';
import { Section } from '../../components/section.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { useOnlineList } from '../../lib/use-online-list.ts';
import { SftpForm, WEEKDAYS } from './sftp-form.tsx';
import './sftp.css';

const OFFLINE_BODY = 'SFTP destinations and their uploads live on the server, so they cannot be shown or changed while you’re offline. Scheduled uploads still run.';
const STATE: Record<SftpUpload['state'], string> = { queued: 'Waiting', running: 'Uploading', done: 'Uploaded', failed: 'Failed', canceled: 'Canceled' };
const hour = (h: number) => `${String(h).padStart(2, '0')}:00 UTC`;
const when = (d: SftpDestination) => (d.schedule === 'daily' ? `Every day at ${hour(d.hour_utc)}` : `Every ${WEEKDAYS[(d.weekday ?? 1) - 1]} at ${hour(d.hour_utc)}`);

/**
 * Issue 32: Settings → Integrations → SFTP uploads. Admins point Ledgerline at their SFTP server;
 * each day or week it writes transactions-YYYY-MM-DD.csv (the transactions export's columns) with
 * the transactions cleared since the previous file. "Upload now" and a history of every file.
 */
export function SftpPage() {
  const client = useDataClient();
  const online = useAppState((s) => s.online);
  const { list, reload } = useOnlineList(online, 'sftp', useCallback(async () => {
    const r = await client.sftpDestinations();
    return r.ok ? { ok: true as const, rows: r.destinations } : r;
  }, [client]));
  const [editing, setEditing] = useState<SftpDestination | 'new' | null>(null);
  const [deleting, setDeleting] = useState<SftpDestination | null>(null);
  const rows = list.state === 'ready' ? list.rows : null;
  const saved = () => { setEditing(null); reload(); };
  return (
    <div className="sftp-page">
      <div className="page-header">
        <h1>SFTP uploads</h1>
        {rows && rows.length > 0 && editing === null && <Button variant="secondary" onClick={() => setEditing('new')} disabled={!online}>Add destination</Button>}
      </div>
      <p className="muted">Send your cleared card transactions to your own SFTP server every day or week, as a CSV with the same columns as the transactions export. Each file holds only what cleared since the previous one.</p>
      {!online && list.state !== 'offline' && <p className="notice notice-warn">You’re offline. SFTP uploads need a connection to the server.</p>}
      <ListStatus list={list} what="SFTP destinations" offlineBody={OFFLINE_BODY} online={online} onRetry={reload} />
      {editing !== null && (
        <Section title={editing === 'new' ? 'Add an SFTP destination' : `Change ${editing.name}`}>
          <SftpForm client={client} current={editing === 'new' ? null : editing} online={online} onSaved={saved} onCancel={() => setEditing(null)} />
        </Section>
      )}
      {rows && rows.length === 0 && editing === null && (
        <EmptyState title="No SFTP destination yet" action={<Button variant="primary" onClick={() => setEditing('new')} disabled={!online}>Add a destination</Button>}>
          Add your server’s host, a username with its password or key, and the folder files should land in.
        </EmptyState>
      )}
      {rows?.map((d) => (
        <Destination key={d.id} client={client} destination={d} online={online} onEdit={() => setEditing(d)} onDelete={() => setDeleting(d)} onChanged={reload} />
      ))}
      {deleting && (
        <ConfirmDialog title={`Stop uploads to ${deleting.name}?`} tone="danger" confirmLabel="Delete destination" onClose={() => setDeleting(null)}
          description="No more files are sent and a waiting upload is canceled. Files already on your server stay there; the stored password or key is no longer used."
          onConfirm={async () => {
            const r = await client.deleteSftpDestination(deleting.id);
            if (r.ok) reload();
            return r.ok;
          }} />
      )}
    </div>
  );
}

type DestinationProps = { client: DataClient; destination: SftpDestination; online: boolean; onEdit(): void; onDelete(): void; onChanged(): void };

function Destination({ client, destination: d, online, onEdit, onDelete, onChanged }: DestinationProps) {
  const [history, setHistory] = useState<SftpUpload[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const loadHistory = async () => {
    const r = await client.sftpDestination(d.id);
    if (r.ok) setHistory(r.uploads);
    else setError(errorText(r.error));
  };
  const uploadNow = async () => {
    setBusy(true);
    setError(null);
    const r = await client.runSftpUpload(d.id);
    setBusy(false);
    if (!r.ok) return setError(errorText(r.error));
    setNotice(`${r.upload.file_name} is queued; it is sent within a minute. Refresh the history to follow it.`);
    onChanged();
    if (history) void loadHistory();
  };
  return (
    <Section title={d.name} actions={<>
      <Button variant="primary" size="sm" loading={busy} disabled={!online} onClick={() => void uploadNow()}>Upload now</Button>
      <Button variant="ghost" size="sm" disabled={!online} onClick={onEdit}>Change</Button>
      <Button variant="ghost" size="sm" disabled={!online} onClick={onDelete}>Delete</Button>
    </>}>
      <dl className="sftp-facts">
        <div><dt>Server</dt><dd><code>{d.username}@{d.host}:{d.port}</code></dd></div>
        <div><dt>Folder</dt><dd><code>{d.folder}</code></dd></div>
        <div><dt>Signs in with</dt><dd>{d.auth_method === 'password' ? 'Password (set)' : 'Private key (set)'}</dd></div>
        <div><dt>Schedule</dt><dd>{when(d)}<span className="sftp-detail">Next: {new Date(d.next_run_at).toLocaleString()}</span></dd></div>
        <div><dt>Last upload</dt><dd>{d.last_upload ? <UploadLine u={d.last_upload} /> : 'None yet'}</dd></div>
        <div><dt>Host key</dt><dd>{d.host_key_fingerprint ? <code className="sftp-fp">{d.host_key_fingerprint}</code> : 'Pinned at the first upload'}</dd></div>
      </dl>
      {notice && <p className="notice" role="status">{notice}</p>}
      <FormError message={error} />
      {history === null
        ? <Button variant="ghost" size="sm" onClick={() => void loadHistory()}>Show upload history</Button>
        : <History uploads={history} onRefresh={() => void loadHistory()} />}
    </Section>
  );
}

function UploadLine({ u }: { u: SftpUpload }) {
  return (
    <span>
      <span className={`sftp-state sftp-state-${u.state}`}>{STATE[u.state]}</span> {u.file_name}
      {u.row_count !== null && ` · ${u.row_count} ${u.row_count === 1 ? 'transaction' : 'transactions'}`}
      {u.error && <span className="sftp-detail sftp-error">{u.error}</span>}
    </span>
  );
}

function History({ uploads, onRefresh }: { uploads: SftpUpload[]; onRefresh(): void }) {
  return (
    <div className="sftp-history">
      <div className="sftp-history-head"><h3>Upload history</h3><Button variant="ghost" size="sm" onClick={onRefresh}>Refresh</Button></div>
      {uploads.length === 0
        ? <p className="muted">No uploads yet. The first runs on schedule, or now with “Upload now”.</p>
        : (
          <ul>
            {uploads.map((u) => (
              <li key={u.id}>
                <UploadLine u={u} />
                <span className="sftp-detail">
                  {new Date(u.created_at).toLocaleString()} · {u.trigger === 'manual' ? 'Upload now' : 'Scheduled'}
                  {u.attempts > 1 && ` · ${u.attempts} attempts`}
                </span>
              </li>
            ))}
          </ul>
        )}
    </div>
  );
}
