import { useEffect, useState } from 'react';
import type { BetaEnrollment, BusinessSetting } from '../../../schema/business-settings.ts';
import { isAdmin } from '../../../schema/roles.ts';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Section, SettingRow } from '../../components/section.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { errorText } from '../../lib/error-text.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { resetQuestion } from './settings-words.ts';

type Programme = BetaEnrollment['programmes'][number];
type Asking = { kind: 'reset'; setting: BusinessSetting } | { kind: 'join'; programme: Programme } | { kind: 'leave' } | null;

/**
 * Issue 32, Settings → Company (owners and admins): every business setting with its value in
 * words and "Reset to default" (`DELETE setting/{type}`), and the beta programmes (join, leave:
 * `PUT`/`DELETE beta-enrollment`). Each change asks first. Online only, and says so.
 */
export function CompanySettingsSection() {
  const client = useDataClient();
  const user = useAppState((s) => s.session?.user ?? null);
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const admin = !!user && isAdmin(user);
  const [settings, setSettings] = useState<BusinessSetting[] | null>(null);
  const [programmes, setProgrammes] = useState<Programme[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [asking, setAsking] = useState<Asking>(null);

  const [version, setVersion] = useState(0);

  useEffect(() => {
    if (!admin || !online) return;
    let live = true;
    void Promise.all([client.businessSettings(), client.betaEnrollment()]).then(([s, b]) => {
      if (!live) return;
      if (!s.ok) return setError(errorText(s.error));
      if (!b.ok) return setError(errorText(b.error));
      setSettings(s.settings);
      setProgrammes(b.programmes);
      setError(null);
    });
    return () => {
      live = false;
    };
  }, [client, admin, online, version]);

  if (!admin) return null;
  const enrolled = (programmes ?? []).filter((p) => p.enrolled_at);

  async function confirm(): Promise<boolean> {
    if (!asking) return true;
    const r = asking.kind === 'reset' ? await client.resetBusinessSetting(asking.setting.type)
      : asking.kind === 'join' ? await client.joinBetaProgrammes([asking.programme.id]) : await client.leaveBetaProgrammes();
    if (!r.ok) return setError(errorText(r.error)), true;
    toastInfo(asking.kind === 'reset' ? `${asking.setting.label} reset to default.` : asking.kind === 'join' ? `Joined ${asking.programme.name}.` : 'Left the beta programmes.');
    setVersion((v) => v + 1);
    return true;
  }

  return (
    <Section title="Company" description="Business-wide settings and their defaults. Changes apply to everyone in the business.">
      {!online && <p className="notice notice-warn" role="note">You’re offline. Company settings need a connection to be read or changed.</p>}
      <FormError message={error} />
      {online && settings === null && !error && <p className="muted" aria-live="polite">Loading the company settings…</p>}
      {settings?.map((s) => (
        <SettingRow key={s.type} title={s.label} description={<>{s.description} <strong>{s.is_default ? `Default: ${s.default_summary}` : s.summary}</strong></>}>
          <Button size="sm" disabled={!online || s.is_default} onClick={() => setAsking({ kind: 'reset', setting: s })}>
            {s.is_default ? 'At default' : 'Reset to default'}
          </Button>
        </SettingRow>
      ))}
      {programmes?.map((p) => (
        <SettingRow key={p.id} title={`Beta: ${p.name}`} description={`${p.description} ${p.enrolled_at ? 'Joined.' : 'Not joined.'}`}>
          {p.enrolled_at ? null : <Button size="sm" disabled={!online} onClick={() => setAsking({ kind: 'join', programme: p })}>Join beta</Button>}
        </SettingRow>
      ))}
      {enrolled.length > 0 && (
        <div className="person-form-actions">
          <Button variant="danger" size="sm" disabled={!online} onClick={() => setAsking({ kind: 'leave' })}>Leave beta programmes</Button>
        </div>
      )}
      {asking && (
        <ConfirmDialog
          title={asking.kind === 'reset' ? `Reset ${asking.setting.label.toLowerCase()}?` : asking.kind === 'join' ? `Join ${asking.programme.name}?` : 'Leave every beta programme?'}
          description={asking.kind === 'reset' ? resetQuestion(asking.setting) : asking.kind === 'join'
            ? `${asking.programme.description} These feature flags turn on for everyone: ${asking.programme.flags.join(', ')}. Your security contact is told.`
            : `The flags they turned on go back to the business’s own settings: ${enrolled.flatMap((p) => p.flags).join(', ')}.`}
          confirmLabel={asking.kind === 'reset' ? 'Reset to default' : asking.kind === 'join' ? 'Join beta' : 'Leave'}
          tone={asking.kind === 'join' ? 'primary' : 'danger'}
          onClose={() => setAsking(null)} onConfirm={confirm}
        />
      )}
    </Section>
  );
}
