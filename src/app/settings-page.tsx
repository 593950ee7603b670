import { useState } from 'react';
import { roleDisplayName } from '../../schema/roles.ts';
import { fullName } from '../../schema/entities/spend-user.ts';
import { useAppState } from '../data-access/data-context.tsx';
import { SecuritySettings } from '../features/identity/index.ts';
import { Button } from '../components/button.tsx';
import { Section, SettingRow } from '../components/section.tsx';
import { ThemeToggle } from '../components/theme-toggle.tsx';
import { useSignOut } from './use-sign-out.ts';
import { formatBytes, requestPersistence, useStorageInfo } from '../lib/storage.ts';

/**
 * /settings, composed here because its sections come from several features: Profile (the
 * session), Security (identity's password and two-factor rows, then sessions), Appearance.
 */
export function SettingsPage() {
  return (
    <div className="page">
      <div className="page-narrow">
        <h1>Settings</h1>
        <ProfileSection />
        <Section title="Security" description="Your password, two-factor authentication and where you are signed in.">
          <SecuritySettings>
            <SessionsRow />
          </SecuritySettings>
        </Section>
        <Section title="Appearance">
          <SettingRow title="Theme" description="System follows your device's light or dark setting.">
            <ThemeToggle />
          </SettingRow>
        </Section>
        <OfflineDataSection />
      </div>
    </div>
  );
}

function ProfileSection() {
  const session = useAppState((s) => s.session);
  if (!session) return null;
  const { user, business } = session;
  return (
    <Section title="Profile">
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
    </Section>
  );
}

function SessionsRow() {
  const signOut = useSignOut();
  return (
    <SettingRow title="Sessions" description="Signed in somewhere you no longer use? Sign out everywhere, this device included.">
      <Button variant="danger" onClick={() => void signOut(true)}>
        Sign out of all devices
      </Button>
    </SettingRow>
  );
}

/**
 * What this device keeps for offline use, told as it is: whether the first download is complete,
 * the storage the app uses, and whether the browser promised not to clear it (with a way to ask).
 */
function OfflineDataSection() {
  const status = useAppState((s) => s.status);
  const [asked, setAsked] = useState(0);
  const info = useStorageInfo(asked);
  const copy = !status ? 'Not signed in on this device.' : status.mirrored ? 'Complete: the app works with no network.' : 'Still downloading: some data is not on this device yet.';
  return (
    <Section title="Offline data" description="Ledgerline keeps a copy of your data on this device so it works without a network.">
      <SettingRow title="Offline copy" description={copy}>
        {null}
      </SettingRow>
      <SettingRow
        title="Storage used"
        description={info?.usage != null ? `${formatBytes(info.usage)} on this device${info.quota ? ` of ${formatBytes(info.quota)} available` : ''}.` : 'This browser does not report it.'}
      >
        {null}
      </SettingRow>
      <SettingRow
        title="Keep offline data"
        description={
          info?.persisted
            ? 'Kept: the browser will not clear it to free space.'
            : info?.persisted === false
              ? 'Not guaranteed: the browser may clear it when space runs low, including changes not yet synced.'
              : 'This browser does not say whether it keeps it.'
        }
      >
        {info?.persisted === false && (
          <Button variant="secondary" onClick={() => void requestPersistence().then(() => setAsked((n) => n + 1))}>
            Ask to keep it
          </Button>
        )}
      </SettingRow>
    </Section>
  );
}
