import { useEffect, useState, type FormEvent } from 'react';
import { useAppState, useDataClient } from '../data-access/data-context.tsx';
import type { DataClient } from '../data-access/types.ts';
import { Modal } from '../components/modal.tsx';
import { FormError } from '../components/form-error.tsx';
import { syncStatusView } from '../lib/sync-status-text.ts';
import { toastInfo } from '../lib/toast-store.ts';
import { errorText } from '../lib/error-text.ts';
import { rowsText } from './offline-data-text.ts';

type OfflineData = Awaited<ReturnType<DataClient['offlineData']>>;
// Straight from their files, not the features' index.ts (which the router imports statically):
// the sections stay in this lazy page's chunk, out of the first load (bench main_js_gzip_kb).
import { SecuritySettings } from '../features/identity/settings-page.tsx';
import { SupportAccessSection } from '../features/identity/support-access-settings.tsx';
import { AccountingFirmsLink } from '../features/accounting-firms/settings-link.tsx';
import { IntegrationsLink } from '../features/integrations/settings-link.tsx';
import { BillingLink } from '../features/billing/settings-link.tsx';
import { FeatureFlagsLink } from '../features/feature-flags/settings-link.tsx';
import { TravelSettingsSections } from '../features/travel/travel-settings.tsx';
import { DelegationSection } from '../features/approvals/delegation-settings.tsx';
import { PolicySettingsSection } from '../features/policies/policy-settings.tsx';
import { NotificationSettingsSection } from '../features/notifications/notification-settings.tsx';
import { ProfileSettingsSection } from '../features/profile/profile-settings.tsx';
import { MerchantRestrictionsSection } from '../features/cards/merchant-restrictions-settings.tsx';
import { CardBrandingSection } from '../features/cards/card-branding-settings.tsx';
import { CompanySettingsSection } from '../features/business-settings/company-settings.tsx';
import { SecurityContactRow } from '../features/business-settings/security-contact-settings.tsx';
import { Button } from '../components/button.tsx';
import { Section, SettingRow } from '../components/section.tsx';
import { ThemeToggle } from '../components/theme-toggle.tsx';
import { useSignOut } from '../lib/use-sign-out.ts';
import { formatBytes, requestPersistence, useStorageInfo } from '../lib/storage.ts';
import { formatCount, formatLocalDateTime } from '../lib/format.ts';

/**
 * /settings, composed here because its sections come from several features: Profile (the
 * session), Security (identity's password and two-factor rows, then sessions), Support access
 * (identity's, owners and admins only), Out of office (approvals' delegation, issue 29), Notifications (email per kind; admins' large transaction threshold), Travel (the traveller profile; the policy and settings for
 * admins), Appearance.
 */
export function SettingsPage() {
  return (
    <div className="page">
      <div className="page-narrow">
        <h1>Settings</h1>
        <ProfileSettingsSection />
        <Section title="Security" description="Your password, two-factor authentication and where you are signed in.">
          <SecuritySettings>
            <SessionsRow />
            <SecurityContactRow />
          </SecuritySettings>
        </Section>
        <SupportAccessSection />
        <AccountingFirmsLink />
        <IntegrationsLink />
        <BillingLink />
        <FeatureFlagsLink />
        <DelegationSection />
        <TravelSettingsSections />
        <PolicySettingsSection />
        <NotificationSettingsSection />
        <MerchantRestrictionsSection />
        <CardBrandingSection />
        <CompanySettingsSection />
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
 * What this device keeps for offline use, told as it is: whether the first download is complete
 * and what it holds, the last sync, the storage the app uses, and whether the browser promised
 * not to clear it (with a way to ask); "Download again" empties the copy and downloads it anew.
 */
function OfflineDataSection() {
  const client = useDataClient();
  const status = useAppState((s) => s.status);
  const dataVersion = useAppState((s) => s.dataVersion);
  const [asked, setAsked] = useState(0);
  const info = useStorageInfo(`${asked}|${dataVersion}`);
  const [data, setData] = useState<OfflineData | null>(null);
  const [confirming, setConfirming] = useState(false);
  const mirrored = status?.mirrored ?? false;
  const phase = status?.phase;
  useEffect(() => {
    let live = true;
    void client.offlineData().then((d) => live && setData(d), () => undefined);
    return () => {
      live = false;
    };
  }, [client, dataVersion, mirrored, phase]);

  const view = syncStatusView(status, status?.online ?? true);
  const copy = !status
    ? 'Not signed in on this device.'
    : mirrored
      ? 'Complete: the app works with no network.'
      : 'Still downloading: some data is not on this device yet.';
  const lastSync =
    view.state === 'synced'
      ? 'Up to date: connected and every change is synced.'
      : data?.last_synced_at
        ? `Last synced ${formatLocalDateTime(data.last_synced_at)}.`
        : 'Not synced yet on this device.';
  return (
    <Section title="Offline data" description="Ledgerline keeps a copy of your data on this device so it works without a network.">
      <SettingRow title="Offline copy" description={data ? `${copy} ${rowsText(data.rows)}.` : copy}>
        {null}
      </SettingRow>
      <SettingRow title="Last sync" description={lastSync}>
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
      <SettingRow title="Download again" description="Something looks out of date or missing? Replace this device's copy with a fresh one from the server.">
        <Button variant="secondary" disabled={!status || status.phase === 'signed_out'} onClick={() => setConfirming(true)}>
          Download again
        </Button>
      </SettingRow>
      {confirming && <DownloadAgainDialog onClose={() => setConfirming(false)} />}
    </Section>
  );
}

/** Confirms "Download again"; refused (with the reason) while changes wait to sync or offline. */
function DownloadAgainDialog({ onClose }: { onClose(): void }) {
  const client = useDataClient();
  const pageOnline = useAppState((s) => s.online);
  const [waiting, setWaiting] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void client.offlineData().then((d) => live && setWaiting(d.waiting), () => undefined);
    return () => {
      live = false;
    };
  }, [client]);
  const blocked = waiting !== null && waiting > 0;

  const confirm = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const result = await client.downloadAgain().catch(() => ({ ok: false as const, waiting: 0, message: errorText(null) }));
    setBusy(false);
    if (!result.ok) {
      setError(result.message);
      if (result.waiting > 0) setWaiting(result.waiting);
      return;
    }
    onClose();
    toastInfo('Downloading your data again. The app keeps working meanwhile.');
  };

  return (
    <Modal
      title="Download offline data again?"
      description="This device's copy of your data is deleted and downloaded again from the server. Until it is back, you see only what has arrived."
      onClose={onClose}
      onSubmit={confirm}
    >
      <p>
        {blocked
          ? `${formatCount(waiting)} ${waiting === 1 ? 'change' : 'changes'} made on this device ${waiting === 1 ? 'has' : 'have'} not synced yet. Changes are never deleted by a download: send them first (or discard the ones that failed), then download again.`
          : 'No changes are waiting to sync on this device. Changes you make while it downloads are kept and sent as usual: a download never deletes them.'}
      </p>
      {!pageOnline && <p>You are offline. Connect to the internet to download again.</p>}
      <FormError message={error} />
      <div className="modal-actions">
        <Button onClick={onClose}>{blocked ? 'Close' : 'Cancel'}</Button>
        {!blocked && (
          <Button type="submit" variant="primary" loading={busy} disabled={waiting === null || !pageOnline}>
            Download again
          </Button>
        )}
      </div>
    </Modal>
  );
}
