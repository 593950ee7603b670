import { useState, type FormEvent } from 'react';
import type { SftpDestination, SftpDestinationBody } from '../../../schema/api/calls-sftp.ts';
import { Button } from '../../components/button.tsx';
import { DateField } from '../../components/date-field.tsx';
import { FormError } from '../../components/form-error.tsx';
import { SelectField } from '../../components/select-field.tsx';
import { TextField } from '../../components/text-field.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';

type Props = { client: DataClient; current: SftpDestination | null; online: boolean; onSaved(d: SftpDestination): void; onCancel(): void };

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const HOURS = Array.from({ length: 24 }, (_, h) => ({ value: String(h), label: `${String(h).padStart(2, '0')}:00 UTC` }));
const firstOfMonth = () => `${new Date().toISOString().slice(0, 7)}-01`;

type Form = {
  name: string; host: string; port: string; username: string; folder: string; method: 'password' | 'private_key';
  password: string; private_key: string; passphrase: string; schedule: 'daily' | 'weekly'; weekday: string; hour: string; start_date: string;
};

function initial(c: SftpDestination | null): Form {
  return {
    name: c?.name ?? '', host: c?.host ?? '', port: String(c?.port ?? 22), username: c?.username ?? '', folder: c?.folder ?? '/',
    method: c?.auth_method ?? 'password', password: '', private_key: '', passphrase: '', schedule: c?.schedule ?? 'daily',
    weekday: String(c?.weekday ?? 1), hour: String(c?.hour_utc ?? 6), start_date: firstOfMonth(),
  };
}

/** The credentials to send: new ones when typed; on an edit, none typed keeps the stored ones. */
function credentialsOf(f: Form, editing: boolean): SftpDestinationBody['credentials'] | undefined {
  if (f.method === 'password') return f.password || !editing ? { method: 'password', password: f.password } : undefined;
  if (!f.private_key && editing) return undefined;
  return { method: 'private_key', private_key: f.private_key, ...(f.passphrase && { passphrase: f.passphrase }) };
}

/** Add (or change) an SFTP destination: where files go, how to sign in, and when. */
export function SftpForm({ client, current, online, onSaved, onCancel }: Props) {
  const [f, setForm] = useState<Form>(() => initial(current));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const set = <K extends keyof Form>(k: K, v: Form[K]) => setForm((x) => ({ ...x, [k]: v }));
  const editing = current !== null;
  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setFieldErrors({});
    const base = {
      name: f.name, host: f.host.trim(), port: Number(f.port) || 22, username: f.username, folder: f.folder, schedule: f.schedule,
      weekday: f.schedule === 'weekly' ? Number(f.weekday) : null, hour_utc: Number(f.hour),
    };
    const credentials = credentialsOf(f, editing);
    const r = current
      ? await client.updateSftpDestination(current.id, { ...base, ...(credentials && { credentials }) })
      : await client.createSftpDestination({ ...base, credentials: credentials!, start_date: f.start_date });
    setBusy(false);
    if (r.ok) return onSaved(r.destination);
    setError(errorText(r.error));
    setFieldErrors(r.error.errors ?? {});
  }
  const fe = (k: string) => fieldErrors[k] ?? null;
  return (
    <form className="sftp-form" onSubmit={(e) => void submit(e)} aria-label="SFTP destination">
      <TextField label="Name" value={f.name} onChange={(v) => set('name', v)} required maxLength={80} error={fe('name')} hint="What your team calls it, e.g. “Data warehouse”." />
      <div className="sftp-row">
        <TextField label="Host" value={f.host} onChange={(v) => set('host', v)} required error={fe('host')} hint="A public host name or IP, e.g. sftp.example.com" />
        <TextField label="Port" value={f.port} onChange={(v) => set('port', v.replace(/\D/g, ''))} maxLength={5} error={fe('port')} />
      </div>
      <TextField label="Username" value={f.username} onChange={(v) => set('username', v)} required autoComplete="off" error={fe('username')} />
      <fieldset className="sftp-choice">
        <legend>Sign in with</legend>
        <label><input type="radio" name="sftp-method" checked={f.method === 'password'} onChange={() => set('method', 'password')} /> Password</label>
        <label><input type="radio" name="sftp-method" checked={f.method === 'private_key'} onChange={() => set('method', 'private_key')} /> Private key</label>
      </fieldset>
      {f.method === 'password'
        ? <TextField label="Password" type="password" value={f.password} onChange={(v) => set('password', v)} required={!editing} autoComplete="new-password"
          error={fe('credentials.password')} hint={editing ? 'Leave empty to keep the stored password.' : 'Stored encrypted; never shown again.'} />
        : <>
          <label className="field">
            <span className="field-label">Private key</span>
            <textarea className="sftp-key" value={f.private_key} onChange={(e) => set('private_key', e.target.value)} required={!editing} spellCheck={false}
              placeholder="-----BEGIN OPENSSH PRIVATE KEY-----" rows={5} />
            <span className="field-note">{editing ? 'Leave empty to keep the stored key.' : 'OpenSSH or PEM. Stored encrypted; never shown again.'}</span>
          </label>
          <TextField label="Passphrase (if the key has one)" type="password" value={f.passphrase} onChange={(v) => set('passphrase', v)} autoComplete="new-password" />
        </>}
      <TextField label="Remote folder" value={f.folder} onChange={(v) => set('folder', v)} required error={fe('folder')} hint="A path on the server, e.g. /uploads/ledgerline (or uploads, relative to the login folder)" />
      <div className="sftp-row">
        <SelectField label="Upload" value={f.schedule} options={[{ value: 'daily', label: 'Every day' }, { value: 'weekly', label: 'Every week' }]}
          onChange={(v) => set('schedule', v as Form['schedule'])} />
        {f.schedule === 'weekly' && (
          <SelectField label="On" value={f.weekday} options={WEEKDAYS.map((d, i) => ({ value: String(i + 1), label: d }))} onChange={(v) => set('weekday', v)} />
        )}
        <SelectField label="At" value={f.hour} options={HOURS} onChange={(v) => set('hour', v)} />
      </div>
      {!editing && <DateField label="Include transactions from" value={f.start_date} onChange={(v) => set('start_date', v)}
        hint="The first file holds cleared transactions dated from this day; each later file only those cleared since the previous one." />}
      <FormError message={error} />
      <div className="sftp-actions">
        <Button variant="ghost" onClick={onCancel}>Cancel</Button>
        <Button variant="primary" type="submit" loading={busy} disabled={!online}>{editing ? 'Save changes' : 'Add destination'}</Button>
      </div>
    </form>
  );
}
