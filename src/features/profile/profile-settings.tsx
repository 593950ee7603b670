import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { PROFILE_PICTURE_TYPES, type UserPreferences, type UserSettings } from '../../../schema/api/calls-users.ts';
import { roleDisplayName } from '../../../schema/roles.ts';
import { fullName } from '../../../schema/entities/spend-user.ts';
import { Button } from '../../components/button.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Section } from '../../components/section.tsx';
import { SelectField } from '../../components/select-field.tsx';
import { TextField } from '../../components/text-field.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { errorText } from '../../lib/error-text.ts';
import { showPicture, useMyPicture } from '../../lib/profile-picture.ts';
import { rememberLanding } from '../../lib/landing-page.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { PREFERENCE_FIELDS, calledName, formOf, localeChoices, patchFrom, timeZoneChoices, type ProfileForm } from './profile-form.ts';

const useOnline = () => useAppState((s) => s.online && (s.status?.online ?? true));
const SIDE = 512;

/** A large photo scaled down in the browser (longest side 512 px, JPEG) so it fits the server's limits; else the file as chosen. */
async function shrink(file: File): Promise<Blob> {
  if (typeof createImageBitmap !== 'function') return file;
  try {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, SIDE / Math.max(bitmap.width, bitmap.height));
    if (scale === 1 && file.size < 512 * 1024) return file;
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(16, Math.round(bitmap.width * scale));
    canvas.height = Math.max(16, Math.round(bitmap.height * scale));
    canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.9));
    return blob ?? file;
  } catch {
    // Not an image the browser can read: sent as is, and the server says why it refuses it.
    return file;
  }
}

/**
 * Issue 32, Settings → Profile: who the person is (names and email are the admins'), their
 * picture, what the app calls them, their time zone and language, and the app's preferences.
 * All of it lives on the server: online only, said plainly.
 */
export function ProfileSettingsSection() {
  const client = useDataClient();
  const online = useOnline();
  const session = useAppState((s) => s.session);
  const [settings, setSettings] = useState<UserSettings | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  useEffect(() => {
    if (!online) return;
    let live = true;
    void client.userSettings().then((r) => {
      if (!live) return;
      if (r.ok) setSettings(r.settings);
      else setLoadError(errorText(r.error));
    });
    return () => {
      live = false;
    };
  }, [client, online]);
  if (!session) return null;
  const { user, business } = session;
  return (
    <Section title="Profile" description="Your name, email and role are set by your administrators.">
      <dl className="facts">
        <dt>Name</dt>
        <dd>{fullName(user)}</dd>
        <dt>Email</dt>
        <dd>{user.email}</dd>
        <dt>Role</dt>
        <dd>{roleDisplayName(user.role, user.is_manager)}</dd>
        <dt>Business</dt>
        <dd>{business.name}</dd>
      </dl>
      {!settings && !online && <p className="muted">Your picture and preferences load when you’re back online.</p>}
      {!settings && online && !loadError && <p className="muted" aria-live="polite">Loading your profile…</p>}
      <FormError message={loadError} />
      {settings && (
        <>
          <PictureRow settings={settings} onSaved={setSettings} online={online} />
          <ProfileFields settings={settings} onSaved={setSettings} online={online} />
          <PreferencesForm online={online} />
        </>
      )}
    </Section>
  );
}

type RowProps = { settings: UserSettings; onSaved(s: UserSettings): void; online: boolean };

function PictureRow({ settings, onSaved, online }: RowProps) {
  const client = useDataClient();
  const url = useMyPicture(client, settings.user_id, online);
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const saved = async (r: { ok: true; settings: UserSettings } | { ok: false; error: Parameters<typeof errorText>[0] }, words: string) => {
    if (!r.ok) return setError(errorText(r.error));
    setError(null);
    onSaved(r.settings);
    await showPicture(client, r.settings.user_id, r.settings.picture);
    toastInfo(words);
  };
  const choose = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    setBusy(true);
    try {
      await saved(await client.uploadProfilePicture(await shrink(file)), 'Your picture is saved.');
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    setBusy(true);
    try {
      await saved(await client.removeProfilePicture(), 'Your picture is removed.');
    } finally {
      setBusy(false);
    }
  };
  const initials = (settings.first_name[0] ?? '') + (settings.last_name[0] ?? '');
  return (
    <div className="profile-picture">
      {url ? <img className="avatar avatar-lg" src={url} alt="Your profile picture" /> : <span className="avatar avatar-lg" aria-hidden="true">{initials}</span>}
      <div className="profile-picture-actions">
        <input ref={input} type="file" accept={PROFILE_PICTURE_TYPES.join(',')} className="sr-only" tabIndex={-1} aria-hidden="true"
          onChange={(e) => void choose(e)} />
        <Button variant="secondary" loading={busy} disabled={!online} onClick={() => input.current?.click()}>
          {settings.picture ? 'Change picture' : 'Add a picture'}
        </Button>
        {settings.picture && <Button variant="ghost" disabled={!online || busy} onClick={() => void remove()}>Remove</Button>}
        <p className="muted">PNG, JPEG or WebP. It shows in your account menu instead of your initials.</p>
        <FormError message={error} />
      </div>
    </div>
  );
}

function ProfileFields({ settings, onSaved, online }: RowProps) {
  const client = useDataClient();
  const [form, setForm] = useState<ProfileForm>(() => formOf(settings));
  const [errors, setErrors] = useState<Partial<Record<keyof ProfileForm, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const zones = timeZoneChoices(settings.timezone).map((z) => ({ value: z, label: z.replace(/_/g, ' ') }));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const p = patchFrom(form, settings);
    if (!p.ok) return setErrors(p.errors);
    setErrors({});
    if (Object.keys(p.patch).length === 0) return toastInfo('Nothing changed.');
    setBusy(true);
    const r = await client.saveUserSettings(p.patch);
    setBusy(false);
    if (!r.ok) return setError(errorText(r.error));
    setError(null);
    onSaved(r.settings);
    setForm(formOf(r.settings));
    toastInfo(`Saved. Ledgerline will call you ${calledName(r.settings)}.`);
  };
  return (
    <form className="stack" onSubmit={(e) => void submit(e)} aria-label="Name, time zone and language">
      <TextField label="What should we call you?" value={form.preferred_name} maxLength={60} error={errors.preferred_name}
        hint={`Leave empty to use your first name (${settings.first_name}).`} onChange={(v) => setForm({ ...form, preferred_name: v })} />
      <SelectField label="Time zone" value={form.timezone} leading={[{ value: '', label: 'This device’s time zone' }]} options={zones}
        onChange={(v) => setForm({ ...form, timezone: v })} />
      <FormError message={errors.timezone} />
      <SelectField label="Language and region" value={form.locale} leading={[{ value: '', label: 'This browser’s language' }]} options={localeChoices}
        onChange={(v) => setForm({ ...form, locale: v })} />
      <FormError message={errors.locale ?? error} />
      <div><Button type="submit" loading={busy} disabled={!online}>Save profile</Button></div>
    </form>
  );
}

/**
 * The preferences this app applies today: the start page (opening `/`). Dates, week start and
 * amounts are kept in the object (replaced whole, so their values stay) for clients that use them;
 * the web app does not offer them until its screens follow them.
 */
const APPLIED: ReadonlySet<string> = new Set(['landing_page']);

function PreferencesForm({ online }: { online: boolean }) {
  const client = useDataClient();
  const [prefs, setPrefs] = useState<UserPreferences | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    void client.userPreferences().then((r) => {
      if (!live) return;
      if (!r.ok) return setError(errorText(r.error));
      setPrefs(r.preferences);
      rememberLanding(localStorage, r.preferences.landing_page);
    });
    return () => {
      live = false;
    };
  }, [client]);
  if (!prefs) return <FormError message={error} />;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const r = await client.saveUserPreferences(prefs);
    setBusy(false);
    if (!r.ok) return setError(errorText(r.error));
    setError(null);
    setPrefs(r.preferences);
    rememberLanding(localStorage, r.preferences.landing_page);
    toastInfo('Preferences saved.');
  };
  return (
    <form className="stack" onSubmit={(e) => void submit(e)} aria-label="Preferences">
      <h3>Preferences</h3>
      {PREFERENCE_FIELDS.filter((f) => APPLIED.has(f.key)).map((f) => (
        <SelectField key={f.key} label={f.label} value={prefs[f.key]} options={f.options}
          onChange={(v) => setPrefs({ ...prefs, [f.key]: v } as UserPreferences)} />
      ))}
      <FormError message={error} />
      <div><Button type="submit" loading={busy} disabled={!online}>Save preferences</Button></div>
    </form>
  );
}
