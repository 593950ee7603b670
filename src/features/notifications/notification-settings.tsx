import { useCallback, useEffect, useRef, useState } from 'react';
import type { NotificationPreferences, NotifyThreshold } from '../../../schema/api/calls-notifications.ts';
import type { NotificationKind } from '../../../schema/entities/notification.ts';
import { isAdmin } from '../../../schema/roles.ts';
import { Button } from '../../components/button.tsx';
import { FormError } from '../../components/form-error.tsx';
import { MoneyField } from '../../components/money-field.tsx';
import { Section, SettingRow } from '../../components/section.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { currencyChoices } from '../../lib/currency-choices.ts';
import { errorText } from '../../lib/error-text.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { KIND_LABELS } from './notification-words.ts';
import { DevicePushRow } from './device-push.tsx';
import { shownPreferences, stillUnsaved, thresholdAmountText, thresholdFromForm, thresholdText } from './settings-form.ts';

type Email = NotificationPreferences['email'];
type Changes = Partial<Record<NotificationKind, boolean>>;
const useOnline = () => useAppState((s) => s.online && (s.status?.online ?? true));

/**
 * Issue 29, Settings → Notifications: the person's "Email me" switch per kind (the in-app
 * notification always comes), and for admins the large card transaction threshold. Both live on
 * the server: online only, said plainly; a switch changed offline is kept and saved on reconnect.
 */
export function NotificationSettingsSection() {
  const admin = useAppState((s) => (s.session ? isAdmin(s.session.user) : false));
  return (
    <Section title="Notifications" description="Everything shows under the bell, on this device too when offline. Choose what is also emailed to you.">
      <EmailPreferences />
      <DevicePushRow />
      {admin && <NotifyThresholdRow />}
    </Section>
  );
}

function EmailPreferences() {
  const client = useDataClient();
  const online = useOnline();
  const [saved, setSaved] = useState<Email | null>(null);
  const [unsaved, setUnsaved] = useState<Changes>({});
  const [error, setError] = useState<string | null>(null);
  const kept = useRef(unsaved);
  useEffect(() => {
    kept.current = unsaved;
  });

  const save = useCallback(async (changes: Changes) => {
    const r = await client.saveNotificationPreferences(changes);
    if (!r.ok) {
      // Offline or refused: the choice stays on screen, sent again when the connection is back.
      if (!('offline' in r && r.offline)) setError(errorText(r.error));
      return;
    }
    setError(null);
    setSaved(r.preferences.email);
    setUnsaved((u) => stillUnsaved(r.preferences.email, u));
  }, [client]);

  // Read on every reconnect; changes kept while offline are then sent.
  useEffect(() => {
    if (!online) return;
    let live = true;
    void client.notificationPreferences().then((r) => {
      if (!live) return;
      if (!r.ok) return setError(errorText(r.error));
      setSaved(r.preferences.email);
      const left = stillUnsaved(r.preferences.email, kept.current);
      if (Object.keys(left).length > 0) void save(left);
    });
    return () => {
      live = false;
    };
  }, [client, online, save]);

  if (!saved) {
    return (
      <SettingRow title="Send me mail about" description={online ? (error ?? 'Loading…') : 'You’re offline. Email settings are kept on the server: connect to see or change them.'}>
        {null}
      </SettingRow>
    );
  }
  const shown = shownPreferences(saved, unsaved);
  const waiting = Object.keys(stillUnsaved(saved, unsaved)).length;
  const toggle = (kind: NotificationKind, on: boolean) => {
    setUnsaved((u) => ({ ...u, [kind]: on }));
    if (online) void save({ [kind]: on });
  };
  return (
    <SettingRow
      title="Send me mail about"
      description={!online && waiting > 0 ? 'You’re offline: your changes are kept here and saved when you reconnect.' : !online ? 'You’re offline: changes are saved when you reconnect.' : 'Saved as you switch.'}
    >
      <ul className="ntf-prefs">
        {(Object.keys(KIND_LABELS) as NotificationKind[]).map((kind) => (
          <li key={kind}>
            <label className="ntf-switch">
              <input type="checkbox" role="switch" checked={shown[kind]} onChange={(e) => toggle(kind, e.target.checked)} />
              <span>{KIND_LABELS[kind]}</span>
            </label>
          </li>
        ))}
      </ul>
      <FormError message={error} />
    </SettingRow>
  );
}

function NotifyThresholdRow() {
  const client = useDataClient();
  const online = useOnline();
  const businessCurrency = useAppState((s) => s.session?.business.currency ?? 'USD');
  const [saved, setSaved] = useState<NotifyThreshold['threshold'] | undefined>(undefined);
  const [amount, setAmount] = useState('');
  const [currency, setCurrency] = useState(businessCurrency);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const answered = useCallback((t: NotifyThreshold['threshold']) => {
    setSaved(t);
    setAmount(thresholdAmountText(t));
    if (t) setCurrency(t.currency);
  }, []);
  useEffect(() => {
    if (!online) return;
    let live = true;
    void client.notifyThreshold().then((r) => {
      if (live && r.ok) answered(r.threshold);
      else if (live && !r.ok) setError(errorText(r.error));
    });
    return () => {
      live = false;
    };
  }, [client, online, answered]);

  const send = async (threshold: NotifyThreshold['threshold']) => {
    setBusy(true);
    const r = await client.saveNotifyThreshold(threshold);
    setBusy(false);
    if (!r.ok) return setError(errorText(r.error));
    setError(null);
    answered(r.threshold);
    toastInfo(r.threshold ? 'Large transaction notifications saved.' : 'Large transaction notifications switched off.');
  };
  const submit = () => {
    const parsed = thresholdFromForm(amount, currency);
    if (!parsed.ok) return setError(parsed.error);
    void send(parsed.threshold);
  };
  const description = saved === undefined
    ? (online ? 'Loading…' : 'You’re offline. The threshold is kept on the server: connect to see or change it.')
    : `${thresholdText(saved)} Each admin gets it under the bell (and by email unless they switched that off). Other currencies are not compared.`;
  return (
    <SettingRow title="Notify admins of card transactions at or above" description={description}>
      {saved !== undefined && (
        <form className="ntf-threshold" onSubmit={(e) => { e.preventDefault(); submit(); }}>
          <MoneyField amount={amount} currency={currency} currencies={currencyChoices(businessCurrency, saved?.currency)} error={error}
            amountLabel="Threshold amount" onAmount={setAmount} onCurrency={setCurrency} />
          <div className="ntf-threshold-actions">
            <Button type="submit" variant="primary" size="sm" loading={busy} disabled={!online}>{online ? 'Save threshold' : 'Save (needs a connection)'}</Button>
            {saved && <Button variant="ghost" size="sm" disabled={!online || busy} onClick={() => void send(null)}>Turn off</Button>}
          </div>
        </form>
      )}
      {saved === undefined && <FormError message={error} />}
    </SettingRow>
  );
}
