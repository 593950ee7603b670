import { useMemo, useState, type FormEvent } from 'react';
import { isAdmin, roleDisplayName, type Role } from '../../../schema/roles.ts';
import { invitableRoles, type TeamFlags } from '../../../schema/team-rules.ts';
import type { BusinessEntity } from '../../../schema/api/calls-admin.ts';
import { Button } from '../../components/button.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import { ReceiptCapture } from '../../components/receipt-capture.tsx';
import { SelectField } from '../../components/select-field.tsx';
import { TextField } from '../../components/text-field.tsx';
import type { DataClient, InviteUserInput } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';
import { saveFile } from '../../lib/save-file.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { inviteCsvTemplate, INVITE_CSV_COLUMNS, parseInviteCsv, previewText, type InviteCsvRow } from './invite-csv.ts';
import { NEEDS_CONNECTION } from './person-drawer.tsx';
import { managerOptions, TEAM_ROLES, type Answer, type Person } from './people-view.ts';

export interface InviteDialogProps {
  actor: { id: string; role: string; is_manager: boolean };
  /** The business's flags: which roles may be given (auditor_role) and whether managers invite. */
  flags: TeamFlags;
  people: readonly Person[];
  reference: ReferenceView;
  entities: readonly BusinessEntity[];
  client: DataClient;
  online: boolean;
  onInvited(user: Answer): void;
  onClose(): void;
  returnFocus(): HTMLElement | null | undefined;
}

type Mode = 'one' | 'csv';

/** "Invite people": one person by form, or many from a CSV file checked row by row first. */
export function InviteDialog(props: InviteDialogProps) {
  const [mode, setMode] = useState<Mode>('one');
  return (
    <Modal title="Invite people" description="Each person gets an email with a link to join, valid for 7 days." size="lg" onClose={props.onClose} returnFocus={props.returnFocus}>
      <fieldset className="segmented invite-mode" aria-label="How to invite">
        {(['one', 'csv'] as const).map((m) => (
          <label key={m}>
            <input type="radio" name="invite-mode" value={m} checked={mode === m} onChange={() => setMode(m)} />
            <span>{m === 'one' ? 'One person' : 'From CSV'}</span>
          </label>
        ))}
      </fieldset>
      {!props.online && <p className="notice notice-warn" role="note">{NEEDS_CONNECTION}</p>}
      {mode === 'one' ? <InviteOne {...props} /> : <InviteCsv {...props} />}
    </Modal>
  );
}

const NONE = '';
const EMPTY = { email: '', first_name: '', last_name: '', role: 'BUSINESS_USER' as Role, manager_id: NONE, department_id: NONE, location_id: NONE, entity_id: NONE };

function InviteOne({ actor, flags, people, reference, entities, client, online, onInvited, onClose }: InviteDialogProps) {
  const [form, setForm] = useState(EMPTY);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const admin = isAdmin(actor);
  const roles = invitableRoles(actor, TEAM_ROLES, flags);
  const set = (patch: Partial<typeof EMPTY>) => setForm((f) => ({ ...f, ...patch }));
  const why = sendInviteBlocker(form, online);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setFieldErrors({});
    const body: InviteUserInput = {
      email: form.email.trim(), first_name: form.first_name.trim(), last_name: form.last_name.trim(), role: form.role,
      ...(form.manager_id ? { manager_id: form.manager_id } : {}),
      ...(form.department_id ? { department_id: form.department_id } : {}),
      ...(form.location_id ? { location_id: form.location_id } : {}),
      ...(form.entity_id ? { entity_id: form.entity_id } : {}),
    };
    setBusy(true);
    try {
      const r = await client.inviteUser(body);
      if (!r.ok) {
        setFieldErrors(r.error.errors ?? {});
        return setError(errorText(r.error));
      }
      onInvited(r.user);
      toastInfo(`Invite sent to ${r.user.email}.`);
      onClose();
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="invite-form" onSubmit={(e) => void submit(e)} noValidate>
      <div className="modal-fields">
        <TextField label="Email" type="email" name="email" autoComplete="off" required autoFocus value={form.email} onChange={(v) => set({ email: v })} error={fieldErrors.email} />
        <SelectField label="Role" value={form.role} options={roles.map((r) => ({ value: r, label: roleDisplayName(r) }))} onChange={(v) => set({ role: v as Role })} />
        <TextField label="First name" name="first_name" autoComplete="off" required value={form.first_name} onChange={(v) => set({ first_name: v })} error={fieldErrors.first_name} />
        <TextField label="Last name" name="last_name" autoComplete="off" required value={form.last_name} onChange={(v) => set({ last_name: v })} error={fieldErrors.last_name} />
        {admin && (
          <SelectField label="Manager" value={form.manager_id} leading={[{ value: NONE, label: 'No manager' }]} options={managerOptions(people, null)} onChange={(v) => set({ manager_id: v })} />
        )}
        <SelectField label="Department" value={form.department_id} leading={[{ value: NONE, label: 'No department' }]} options={reference.options.departments} onChange={(v) => set({ department_id: v })} />
        <SelectField label="Location" value={form.location_id} leading={[{ value: NONE, label: 'No location' }]} options={reference.options.locations} onChange={(v) => set({ location_id: v })} />
        {entities.length > 0 && (
          <SelectField label="Entity" value={form.entity_id} leading={[{ value: NONE, label: 'No entity' }]} options={entities.map((x) => ({ value: x.id, label: x.name }))} onChange={(v) => set({ entity_id: v })} />
        )}
      </div>
      {!admin && <p className="muted">They will report to you.</p>}
      <FormError message={error} />
      {why && (
        <p id="invite-why" className="field-hint muted invite-why">
          {why}
        </p>
      )}
      <div className="modal-actions">
        <Button variant="ghost" onClick={onClose}>Cancel</Button>
        <Button type="submit" variant="primary" loading={busy} disabled={why !== null} aria-describedby={why ? 'invite-why' : undefined}>
          Send invite
        </Button>
      </div>
    </form>
  );
}

/** Why "Send invite" is off, in words shown under the form (null: it can be sent). */
function sendInviteBlocker(form: { email: string; first_name: string; last_name: string }, online: boolean): string | null {
  if (!online) return 'Sending an invite needs a connection.';
  const missing = [!form.email.trim() && 'email', !form.first_name.trim() && 'first name', !form.last_name.trim() && 'last name'].filter(
    (x): x is string => typeof x === 'string',
  );
  if (missing.length === 0) return null;
  const list = missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(', ')} and ${missing[missing.length - 1]}`;
  return `Enter their ${list} to send the invite.`;
}

type Outcome = { line: number; text: string; ok: boolean };

function InviteCsv({ actor, flags, people, reference, client, online, onInvited, onClose }: InviteDialogProps) {
  const [file, setFile] = useState<{ name: string; rows: InviteCsvRow[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [outcomes, setOutcomes] = useState<Map<number, Outcome> | null>(null);
  const [busy, setBusy] = useState(false);
  const ctx = useMemo(() => ({ actor, flags, users: people, departments: reference.data.departments, locations: reference.data.locations }), [actor, flags, people, reference]);
  const ready = file?.rows.filter((r) => r.body) ?? [];

  async function read(f: File) {
    setError(null);
    setOutcomes(null);
    setFile(null);
    if (f.size > 1_000_000) return setError(`${f.name} is too large: invite at most 500 people per file.`);
    const parsed = parseInviteCsv(await f.text(), ctx);
    if (!parsed.ok) return setError(`${f.name}: ${parsed.error}`);
    setFile({ name: f.name, rows: parsed.rows });
  }

  async function inviteAll() {
    setBusy(true);
    const done = new Map<number, Outcome>();
    let offline = false;
    // The server's words when an invite quota is used up (429 QUOTA_EXCEEDED): the rows after it
    // would be refused the same way, so they are not sent.
    let quota: string | null = null;
    try {
      for (const row of ready) {
        if (offline || quota) {
          done.set(row.line, { line: row.line, ok: false, text: offline ? 'Not sent: offline.' : 'Not sent: invite limit reached.' });
          continue;
        }
        const r = await client.inviteUser(row.body!);
        if (r.ok) onInvited(r.user);
        else if (r.offline) offline = true;
        else if (r.error.error_code === 'QUOTA_EXCEEDED') quota = errorText(r.error);
        done.set(row.line, r.ok ? { line: row.line, ok: true, text: 'Invited' } : { line: row.line, ok: false, text: r.offline ? 'Not sent: offline.' : errorText(r.error) });
        setOutcomes(new Map(done));
      }
      setOutcomes(new Map(done));
      setError(quota);
      const sent = [...done.values()].filter((o) => o.ok).length;
      toastInfo(`${sent} of ${ready.length} invites sent.`);
    } finally {
      setBusy(false);
    }
  }

  const sentCount = outcomes ? [...outcomes.values()].filter((o) => o.ok).length : 0;
  return (
    <div className="invite-csv">
      <p className="muted invite-columns">
        Columns: {INVITE_CSV_COLUMNS.map((c, i) => <span key={c}>{i > 0 && ', '}<code>{c}</code></span>)}. Role, manager (their email), department and location are optional.
      </p>
      <div className="invite-csv-actions">
        <Button size="sm" onClick={() => saveFile(new Blob([inviteCsvTemplate()], { type: 'text/csv' }), 'invite-people-template.csv')}>Download template</Button>
      </div>
      <ReceiptCapture label={file ? 'Choose another CSV file' : 'Choose CSV file'} accept=".csv,text/csv" multiple={false} camera={false} hint="or drop it here" disabled={busy}
        onFiles={(files) => void read(files[0]!)} />
      <FormError message={error} />
      {file && (
        <>
          <p role="status" className={ready.length < file.rows.length ? 'notice notice-warn' : 'notice'} data-testid="csv-preview-summary">
            <strong>{file.name}:</strong> {outcomes ? `${sentCount} of ${ready.length} invited.` : previewText(file.rows)}
          </p>
          <div className="invite-preview-wrap">
            <table className="invite-preview">
              <caption className="sr-only">People in the file</caption>
              <thead>
                <tr><th scope="col">Row</th><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Result</th></tr>
              </thead>
              <tbody>
                {file.rows.map((row) => {
                  const out = outcomes?.get(row.line);
                  return (
                    <tr key={row.line} className={row.errors.length || (out && !out.ok) ? 'invite-row-bad' : undefined}>
                      <td>{row.line}</td>
                      <td>{row.name || '—'}</td>
                      <td className="invite-email">{row.email || '—'}</td>
                      <td>{row.roleLabel}</td>
                      <td>{row.errors.length > 0 ? row.errors.join(' ') : out ? out.text : 'Ready'}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </>
      )}
      <div className="modal-actions">
        <Button variant="ghost" onClick={onClose}>{outcomes ? 'Done' : 'Cancel'}</Button>
        {!outcomes && (
          <Button variant="primary" loading={busy} disabled={!online || ready.length === 0} onClick={() => void inviteAll()}>
            {ready.length === 1 ? 'Invite 1 person' : `Invite ${ready.length} people`}
          </Button>
        )}
      </div>
    </div>
  );
}
