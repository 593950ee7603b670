import { useCallback, useEffect, useState } from 'react';
import { Button } from '../../components/button.tsx';
import { FormError } from '../../components/form-error.tsx';
import { SettingRow } from '../../components/section.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { errorText } from '../../lib/error-text.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import {
  applicationServerKey, permissionText, pushEnv, pushSupport, PUSH_TOKEN_KEY, subscriptionBody,
} from '../../lib/web-push.ts';

type State = { kind: 'checking' } | { kind: 'unsupported'; reason: string } | { kind: 'off' } | { kind: 'on' };

const useOnline = () => useAppState((s) => s.online && (s.status?.online ?? true));

async function currentSubscription(): Promise<PushSubscription | null> {
  const reg = await navigator.serviceWorker.getRegistration();
  return reg ? reg.pushManager.getSubscription() : null;
}

/**
 * Issue 32, Settings → Notifications → "Notifications on this device": Web Push through the
 * service worker (workers/service-worker/push.ts shows each one and opens its page on click).
 * Turning it on asks the browser's permission, subscribes with the server's VAPID key and
 * registers the subscription; a visit while on registers it again (the server refreshes it, or
 * learns the browser's new one). What the browser refuses is said as it is.
 */
export function DevicePushRow() {
  const client = useDataClient();
  const online = useOnline();
  const [support] = useState(() => pushSupport(pushEnv(window)));
  const [state, setState] = useState<State>(() => (support.ok ? { kind: 'checking' } : { kind: 'unsupported', reason: support.reason }));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const register = useCallback(async (sub: PushSubscription) => {
    const body = subscriptionBody(sub.toJSON());
    if (!body) return 'The browser gave no encryption keys for its subscription.';
    const previous = localStorage.getItem(PUSH_TOKEN_KEY) ?? undefined;
    const r = await client.registerPush(body, previous);
    if (!r.ok) return errorText(r.error);
    localStorage.setItem(PUSH_TOKEN_KEY, r.device.token);
    return null;
  }, [client]);

  useEffect(() => {
    if (!support.ok) return;
    let live = true;
    void (async () => {
      const sub = Notification.permission === 'granted' ? await currentSubscription().catch(() => null) : null;
      if (!live) return;
      setState(sub ? { kind: 'on' } : { kind: 'off' });
      // Refresh: the server keeps it fresh (or takes the browser's new subscription).
      if (sub && online) {
        const failed = await register(sub);
        if (live && failed) setError(failed);
      }
    })();
    return () => {
      live = false;
    };
  }, [online, register, support.ok]);

  const turnOn = async () => {
    setBusy(true);
    setError(null);
    try {
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') {
        setError(permissionText(permission) ?? 'Notifications were not allowed, so nothing changed.');
        return;
      }
      const key = await client.pushKey();
      if (!key.ok) return setError(errorText(key.error));
      const reg = await navigator.serviceWorker.ready;
      const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: applicationServerKey(key.publicKey) });
      const failed = await register(sub);
      if (failed) {
        await sub.unsubscribe().catch(() => undefined);
        return setError(failed);
      }
      setState({ kind: 'on' });
      toastInfo('Notifications are on for this device.');
    } catch (err) {
      setError(`The browser refused to subscribe: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      setBusy(false);
    }
  };

  const turnOff = async () => {
    setBusy(true);
    setError(null);
    try {
      const sub = await currentSubscription();
      const token = localStorage.getItem(PUSH_TOKEN_KEY);
      if (token) {
        const r = await client.unregisterPush(token);
        // Already gone on the server (removed elsewhere) is what was asked for.
        if (!r.ok && r.error.error_code !== 'REQUEST_7004') return setError(errorText(r.error));
        localStorage.removeItem(PUSH_TOKEN_KEY);
      }
      await sub?.unsubscribe();
      setState({ kind: 'off' });
      toastInfo('Notifications are off for this device.');
    } finally {
      setBusy(false);
    }
  };

  const description = state.kind === 'unsupported'
    ? state.reason
    : state.kind === 'on'
      ? 'On: new notifications pop up on this device, even with Ledgerline closed. Tap one to open it.'
      : 'Get a pop-up on this device for each new notification, even with Ledgerline closed.';
  return (
    <SettingRow title="Notifications on this device" description={description}>
      {state.kind === 'on' && (
        <Button variant="secondary" loading={busy} disabled={!online} onClick={() => void turnOff()}>Turn off</Button>
      )}
      {state.kind === 'off' && (
        <Button loading={busy} disabled={!online} onClick={() => void turnOn()}>Turn on</Button>
      )}
      {!online && state.kind !== 'unsupported' && state.kind !== 'checking' && <p className="muted">Needs a connection.</p>}
      <FormError message={error} />
    </SettingRow>
  );
}
