import { useEffect, useState, type FormEvent } from 'react';
import type { SecurityContact } from '../../../schema/business-settings.ts';
import { isAdmin } from '../../../schema/roles.ts';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { FormError } from '../../components/form-error.tsx';
import { SettingRow } from '../../components/section.tsx';
import { TextField } from '../../components/text-field.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { errorText } from '../../lib/error-text.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { contactProblems } from './settings-words.ts';

type Contact = NonNullable<SecurityContact['contact']>;

/**
 * Issue 32, Settings → Security → "Security contact" (owners and admins): who is told about
 * security changes besides the admins (`PUT`/`DELETE /businesses/security/contact`). The person
 * named, and the one replaced or removed, get an email. Removing asks first. Online only.
 */
export function SecurityContactRow() {
  const client = useDataClient();
  const user = useAppState((s) => s.session?.user ?? null);
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const admin = !!user && isAdmin(user);
  const [saved, setSaved] = useState<Contact | null | undefined>(undefined);
  const [form, setForm] = useState({ name: '', email: '', phone: '' });
  const [problems, setProblems] = useState<ReturnType<typeof contactProblems>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState(false);

  const show = (c: Contact | null) => {
    setSaved(c);
    setForm({ name: c?.name ?? '', email: c?.email ?? '', phone: c?.phone ?? '' });
  };
  useEffect(() => {
    if (!admin || !online) return;
    let live = true;
    void client.securityContact().then((r) => live && (r.ok ? show(r.contact) : setError(errorText(r.error))));
    return () => {
      live = false;
    };
  }, [client, admin, online]);

  if (!admin) return null;

  async function save(e: FormEvent) {
    e.preventDefault();
    const found = contactProblems(form);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    const r = await client.saveSecurityContact({ name: form.name.trim(), email: form.email.trim(), phone: form.phone.trim() || null });
    setBusy(false);
    if (!r.ok) return setError(errorText(r.error));
    show(r.contact);
    setError(null);
    toastInfo(`${r.contact?.name ?? 'The contact'} is the security contact now. They were told by email.`);
  }

  async function remove() {
    const r = await client.removeSecurityContact();
    if (!r.ok) return setError(errorText(r.error)), true;
    show(null);
    toastInfo('Security contact removed. Only admins hear about security changes now.');
    return true;
  }

  return (
    <SettingRow title="Security contact" description="Told by email about security changes to the business (beta programmes, this contact), besides the admins.">
      {!online && <p className="muted">You’re offline. The security contact needs a connection.</p>}
      <FormError message={error} />
      {online && saved === undefined && !error && <p className="muted" aria-live="polite">Loading…</p>}
      {saved !== undefined && (
        <form className="security-contact-form" onSubmit={save} noValidate>
          <TextField label="Name" value={form.name} onChange={(name) => setForm({ ...form, name })} maxLength={120} required error={problems.name} disabled={!online} />
          <TextField label="Email" type="email" value={form.email} onChange={(email) => setForm({ ...form, email })} maxLength={254} required error={problems.email} disabled={!online} />
          <TextField label="Phone (optional)" type="tel" value={form.phone} onChange={(phone) => setForm({ ...form, phone })} maxLength={20} error={problems.phone} disabled={!online} />
          <div className="person-form-actions">
            <Button type="submit" variant="primary" loading={busy} disabled={!online}>{saved ? 'Save contact' : 'Set contact'}</Button>
            {saved && <Button variant="ghost" disabled={!online} onClick={() => setAsking(true)}>Remove…</Button>}
          </div>
        </form>
      )}
      {asking && saved && (
        <ConfirmDialog title="Remove the security contact?" tone="danger" confirmLabel="Remove contact"
          description={`${saved.name} (${saved.email}) stops getting the business’s security emails and is told so.`}
          onClose={() => setAsking(false)} onConfirm={remove} />
      )}
    </SettingRow>
  );
}
