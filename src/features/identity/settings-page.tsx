import { useState, type FormEvent, type ReactNode } from 'react';
import { useAppStore, useDataClient } from '../../data-access/data-context.tsx';
import { sessionState } from '../../data-access/app-state.ts';
import type { ActionResult, TotpSetup } from '../../data-access/types.ts';
import { StepUpDialog } from '../../components/step-up-dialog.tsx';
import { toastInfo } from '../../lib/toast-store.ts';
import { useSensitiveAction } from '../../lib/use-sensitive-action.ts';
import { errorText } from '../../lib/error-text.ts';
import { Button } from '../../components/button.tsx';
import { CodeField, isCompleteCode } from '../../components/code-field.tsx';
import { FormError } from '../../components/form-error.tsx';
import { SettingRow } from '../../components/section.tsx';
import { TextField } from '../../components/text-field.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { formatDay } from '../../lib/format.ts';
import { PasskeysSetting, useAuthenticators } from './passkeys-settings.tsx';
import { PhoneNumberSetting } from './phone-settings.tsx';

/**
 * The account's sensitive settings (password, two-factor authentication, passkeys, phone number), as rows of the
 * shell's Settings "Security" section; `children` adds rows after them (the shell's sessions).
 * A sensitive action asks for a step-up first ("Confirm it's you").
 */
export function SecuritySettings({ children }: { children?: ReactNode }) {
  const sensitive = useSensitiveAction();
  const auth = useAuthenticators();
  return (
    <>
      <ChangePassword sensitive={sensitive} />
      <TwoFactorSetup sensitive={sensitive} auth={auth} />
      <PasskeysSetting sensitive={sensitive} auth={auth} />
      <PhoneNumberSetting sensitive={sensitive} />
      {children}
      {sensitive.prompting && <StepUpDialog onDone={sensitive.confirmed} onCancel={sensitive.cancelled} />}
    </>
  );
}

function ChangePassword({ sensitive }: { sensitive: ReturnType<typeof useSensitiveAction> }) {
  const client = useDataClient();
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const mismatch = confirm !== '' && next !== confirm;

  function onResult(r: ActionResult) {
    if (r.ok) {
      setNext('');
      setConfirm('');
      setError(null);
      toastInfo('Your password was changed.');
    } else {
      setError(r.error.errors?.new_password ?? errorText(r.error));
    }
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await sensitive.run(() => client.changePassword(next), onResult);
    } finally {
      setBusy(false);
    }
  }

  return (
    <SettingRow title="Change password" description="You will be asked to confirm it's you first.">
      <form className="stack" onSubmit={(e) => void onSubmit(e)} noValidate>
        <TextField label="New password" type="password" autoComplete="new-password" value={next} onChange={setNext} />
        <TextField label="Confirm new password" type="password" autoComplete="new-password" value={confirm} onChange={setConfirm} />
        {mismatch && <p className="field-error">The passwords do not match.</p>}
        <FormError message={error} />
        <div>
          <Button type="submit" variant="primary" loading={busy} disabled={!next || next !== confirm}>
            Change password
          </Button>
        </div>
      </form>
    </SettingRow>
  );
}

/**
 * TOTP registration: show the secret and the otpauth URI, then verify the first code. With an
 * authenticator app already on, its row and "Remove" (sensitive: the step-up dialog first).
 */
function TwoFactorSetup({ sensitive, auth }: { sensitive: ReturnType<typeof useSensitiveAction>; auth: ReturnType<typeof useAuthenticators> }) {
  const client = useDataClient();
  const store = useAppStore();
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [justEnabled, setEnabled] = useState(false);
  const [removing, setRemoving] = useState(false);
  const app = auth.list?.find((a) => a.type === 'totp') ?? null;
  const enabled = justEnabled || app !== null;

  async function remove(): Promise<boolean> {
    if (!app) return true;
    setError(null);
    await sensitive.run(() => client.deleteTotp(app.id), async (r) => {
      if (!r.ok) return setError(errorText(r.error));
      setEnabled(false);
      toastInfo('The authenticator app was removed.');
      await auth.reload();
    });
    return true;
  }

  async function start() {
    setError(null);
    const r = await client.startTotp();
    if (r.ok) setSetup(r.setup);
    else setError(errorText(r.error));
  }

  async function verify(e: FormEvent) {
    e.preventDefault();
    if (!setup) return;
    const r = await client.verifyTotp(setup.authenticator_id, code);
    if (!r.ok) {
      setError(errorText(r.error));
      return;
    }
    setEnabled(true);
    setSetup(null);
    // The step-up prompt may now offer an authenticator code.
    store.set(sessionState(await client.session()));
    toastInfo('Two-factor authentication is on.');
    await auth.reload();
  }

  return (
    <SettingRow
      title="Two-factor authentication"
      description="A code from an authenticator app, asked for when you sign in and for sensitive changes."
    >
      {enabled && <p>Two-factor authentication is on. You will be asked for a code when you sign in.</p>}
      {app && (
        <div className="authenticator">
          <div className="authenticator-text">
            <span className="authenticator-name">{app.name}</span>
            <span className="muted">Added {formatDay(app.created_at)}</span>
          </div>
          <Button size="sm" variant="ghost" aria-label="Remove the authenticator app" onClick={() => setRemoving(true)}>
            Remove
          </Button>
        </div>
      )}
      {removing && (
        <ConfirmDialog
          title="Remove the authenticator app?"
          description="Its codes will no longer be accepted. Any passkeys you have still work."
          confirmLabel="Remove authenticator app"
          tone="danger"
          onClose={() => setRemoving(false)}
          onConfirm={remove}
        />
      )}
      {!setup && !enabled && (
        <Button onClick={() => void start()}>Set up an authenticator app</Button>
      )}
      {setup && (
        <form className="stack" onSubmit={(e) => void verify(e)} noValidate>
          <p>Add this account to your authenticator app with the secret or the link below, then enter the code it shows.</p>
          <dl className="totp-setup">
            <dt>Secret</dt>
            <dd>
              <code aria-label="Authenticator secret">{setup.secret}</code>
            </dd>
            <dt>Link</dt>
            <dd>
              <code aria-label="Authenticator link">{setup.otpauth_uri}</code>
            </dd>
          </dl>
          <CodeField label="Authenticator code" value={code} onChange={setCode} />
          <div>
            <Button type="submit" variant="primary" disabled={!isCompleteCode(code)}>
              Turn on two-factor authentication
            </Button>
          </div>
        </form>
      )}
      <FormError message={error} />
    </SettingRow>
  );
}
