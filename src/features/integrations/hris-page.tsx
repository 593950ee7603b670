import { useCallback, useState } from 'react';
import type { HrisConnection, HrisImport, HrisImportSummary } from '../../../schema/api/calls-hris.ts';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { CsvDropZone } from '../../components/csv-drop-zone.tsx';
import { ListStatus } from '../../components/online-list-status.tsx';
import { Section } from '../../components/section.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { errorText } from '../../lib/error-text.ts';
import { useOnlineList } from '../../lib/use-online-list.ts';
import { HrisConnectionForm } from './hris-connection-form.tsx';
import { HrisReview } from './hris-review.tsx';
import { HrisHistory } from './hris-history.tsx';
import './hris.css';

const OFFLINE_BODY = 'The HRIS connection and its imports live on the server, so they cannot be shown or changed while you’re offline. People already imported are unaffected.';

/**
 * Issue 32: Settings → Integrations → HRIS. Connect an HR system, upload its people export (or let
 * the server pick files up from a drop folder), review the diff, apply it; the history of imports.
 */
export function HrisPage() {
  const client = useDataClient();
  const online = useAppState((s) => s.online);
  const { list, reload } = useOnlineList(online, 'hris', useCallback(async () => {
    const [c, i] = await Promise.all([client.hrisConnection(), client.hrisImports()]);
    if (!c.ok) return c;
    if (!i.ok) return i;
    return { ok: true as const, rows: [{ connection: c.connection, imports: i.imports }] };
  }, [client]));
  const [editing, setEditing] = useState(false);
  const [disconnecting, setDisconnecting] = useState(false);
  const [open, setOpen] = useState<HrisImport | null>(null);
  const state = list.state === 'ready' ? list.rows[0] ?? null : null;
  const connection: HrisConnection | null = state?.connection ?? null;
  const saved = () => { setEditing(false); reload(); };

  return (
    <div className="hris-page">
      <div className="page-header"><h1>HRIS</h1></div>
      <p className="muted">Import people, departments, managers and locations from your HR system. Each file shows what it would change before anything happens.</p>
      {!online && list.state !== 'offline' && <p className="notice notice-warn">You’re offline. The HRIS connection needs a connection to the server.</p>}
      <ListStatus list={list} what="HRIS connection" offlineBody={OFFLINE_BODY} online={online} onRetry={reload} />
      {state && (!connection || editing) && (
        <Section title={connection ? 'Change the connection' : 'Connect your HR system'}>
          <HrisConnectionForm client={client} current={connection} online={online} onSaved={saved} {...(connection && { onCancel: () => setEditing(false) })} />
        </Section>
      )}
      {state && connection && !editing && (
        <Section title={`Connected: ${connection.provider}`}
          actions={<><Button variant="ghost" onClick={() => setEditing(true)} disabled={!online}>Change</Button>
            <Button variant="ghost" onClick={() => setDisconnecting(true)} disabled={!online}>Disconnect</Button></>}>
          <ConnectionFacts connection={connection} />
          {connection.mode === 'upload' && <Upload client={client} online={online} onImported={(i) => { setOpen(i); reload(); }} />}
        </Section>
      )}
      {open && (
        <Section title={`Review: ${open.file_name}`} actions={<Button variant="ghost" onClick={() => setOpen(null)}>Close</Button>}>
          <HrisReview client={client} imp={open} online={online} onChanged={(i) => { setOpen(i); reload(); }} />
        </Section>
      )}
      {state && (connection || state.imports.length > 0) && (
        <Section title="Imports">
          <HrisHistory imports={state.imports} onOpen={async (s: HrisImportSummary) => {
            const r = await client.hrisImport(s.id);
            if (r.ok) setOpen(r.import);
          }} />
        </Section>
      )}
      {disconnecting && (
        <ConfirmDialog title="Disconnect the HRIS?" tone="danger" confirmLabel="Disconnect" onClose={() => setDisconnecting(false)}
          description="Imports stop and dropped files are no longer picked up. People, departments and locations stay as they are; past imports stay listed."
          onConfirm={async () => {
            const r = await client.disconnectHris();
            if (r.ok) { setOpen(null); reload(); }
            return r.ok;
          }} />
      )}
    </div>
  );
}

function ConnectionFacts({ connection: c }: { connection: HrisConnection }) {
  return (
    <dl className="hris-facts">
      <div><dt>Files</dt><dd>{c.mode === 'upload' ? 'Uploaded here' : 'Dropped in a folder the server watches'}</dd></div>
      <div><dt>New hires</dt><dd>{c.invite_new_hires ? 'Invited' : 'Not invited'}</dd></div>
      <div><dt>Leavers</dt><dd>{c.suspend_leavers ? 'Suspended' : 'Left active'}</dd></div>
      {c.mode === 'drop' && (
        <div><dt>Drop folder</dt><dd>
          <code>HRIS_DROP_DIR/{c.drop_folder}</code>
          <span className="hris-detail">{c.drop_watching ? (c.auto_apply ? 'Files are applied as they arrive.' : 'Each file’s diff waits here for review.') : 'This server has no HRIS_DROP_DIR set: ask whoever runs it to set one.'}</span>
        </dd></div>
      )}
      <div><dt>Connected by</dt><dd>{c.connected_by.name}</dd></div>
    </dl>
  );
}

function Upload({ client, online, onImported }: { client: ReturnType<typeof useDataClient>; online: boolean; onImported(i: HrisImport): void }) {
  const send = async (file: File) => {
    const r = await client.uploadHrisFile(file);
    if (!r.ok) return errorText(r.error);
    onImported(r.import);
    return null;
  };
  return (
    <CsvDropZone prompt="Drop your people export (CSV) here, or" online={online} onFile={send}
      detail="Columns: employee_id, email, first_name, last_name, status (active or terminated); optional title, department, location, manager_email or manager_employee_id, start_date, end_date. Your HR system’s own header names (Work Email, Job Title, Hire Date…) work too." />
  );
}
