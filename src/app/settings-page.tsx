import { roleDisplayName } from '../../schema/roles.ts';
import { fullName } from '../../schema/entities/spend-user.ts';
import { useAppState } from '../data-access/data-context.tsx';
import { SecuritySettings } from '../features/identity/index.ts';
import { Button } from '../components/button.tsx';
import { Section, SettingRow } from '../components/section.tsx';
import { ThemeToggle } from '../components/theme-toggle.tsx';
import { useSignOut } from './use-sign-out.ts';

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
        {/* Slot: the "Offline data" section (what this device keeps, storage used, clearing it) goes here. */}
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
