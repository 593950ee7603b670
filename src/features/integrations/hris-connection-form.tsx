import { useState, type FormEvent } from 'react';
import type { HrisConnection, HrisConnectionBody } from '../../../schema/api/calls-hris.ts';
import { HRIS_DEFAULT_ROLES, HRIS_PROVIDERS } from '../../../schema/hris.ts';
import { roleDisplayName } from '../../../schema/roles.ts';
import { Button } from '../../components/button.tsx';
import { FormError } from '../../components/form-error.tsx';
import { SelectField } from '../../components/select-field.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';

type Props = { client: DataClient; current: HrisConnection | null; online: boolean; onSaved(c: HrisConnection): void; onCancel?: () => void };

/** Connect (or change) the HRIS: which system, how files arrive, and what an import may do. */
export function HrisConnectionForm({ client, current, online, onSaved, onCancel }: Props) {
  const [form, setForm] = useState<Required<HrisConnectionBody>>({
    provider: current?.provider ?? 'BambooHR', mode: current?.mode ?? 'upload',
    invite_new_hires: current?.invite_new_hires ?? true, suspend_leavers: current?.suspend_leavers ?? true,
    auto_apply: current?.auto_apply ?? false, default_role: current?.default_role ?? 'BUSINESS_USER',
  });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const set = <K extends keyof HrisConnectionBody>(k: K, v: Required<HrisConnectionBody>[K]) => setForm((f) => ({ ...f, [k]: v }));
  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const r = await client.saveHrisConnection({ ...form, auto_apply: form.mode === 'drop' && form.auto_apply });
    setBusy(false);
    if (r.ok) onSaved(r.connection);
    else setError(errorText(r.error));
  }
  return (
    <form className="hris-form" onSubmit={(e) => void submit(e)} aria-label="HRIS connection">
      <SelectField label="HR system" value={form.provider} options={HRIS_PROVIDERS.map((p) => ({ value: p, label: p === 'CSV' ? 'Another system (CSV export)' : p }))}
        onChange={(v) => set('provider', v as HrisConnectionBody['provider'])} />
      <fieldset className="hris-modes">
        <legend>How files arrive</legend>
        <label><input type="radio" name="hris-mode" checked={form.mode === 'upload'} onChange={() => set('mode', 'upload')} /> Upload a CSV here</label>
        <label><input type="radio" name="hris-mode" checked={form.mode === 'drop'} onChange={() => set('mode', 'drop')} /> Drop folder (SFTP): the server picks up new files</label>
      </fieldset>
      <label className="hris-check"><input type="checkbox" checked={form.invite_new_hires} onChange={(e) => set('invite_new_hires', e.target.checked)} /> Invite new hires</label>
      <label className="hris-check"><input type="checkbox" checked={form.suspend_leavers} onChange={(e) => set('suspend_leavers', e.target.checked)} /> Suspend leavers</label>
      {form.mode === 'drop' && (
        <label className="hris-check"><input type="checkbox" checked={form.auto_apply} onChange={(e) => set('auto_apply', e.target.checked)} /> Apply dropped files without review</label>
      )}
      <SelectField label="New hires join as" value={form.default_role} options={HRIS_DEFAULT_ROLES.map((r) => ({ value: r, label: roleDisplayName(r) }))}
        onChange={(v) => set('default_role', v as (typeof HRIS_DEFAULT_ROLES)[number])} />
      <FormError message={error} />
      <div className="hris-actions">
        {onCancel && <Button variant="ghost" onClick={onCancel}>Cancel</Button>}
        <Button variant="primary" type="submit" loading={busy} disabled={!online}>{current ? 'Save changes' : 'Connect'}</Button>
      </div>
    </form>
  );
}
