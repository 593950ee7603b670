import { useEffect, useState } from 'react';
import { Button } from './button.tsx';
import { useAppState, useDataClient } from '../data-access/data-context.tsx';
import type { StepUpInput } from '../data-access/types.ts';
import { CodeField } from './code-field.tsx';
import { FormError } from './form-error.tsx';
import { Modal } from './modal.tsx';
import { passkeysSupported, proveWithPasskey } from '../lib/passkeys.ts';
import { useSubmitAction } from '../lib/use-submit-action.ts';
import { TextField } from './text-field.tsx';

/**
 * §6 step-up: a sensitive action (or a command the outbox parked as needs_step_up) needs the
 * `sensitive` scope. The user re-enters the password, or an authenticator code when they have
 * MFA, or uses one of their passkeys; the worker keeps the stepped-up token for its lifetime,
 * for sensitive calls only.
 */
export function StepUpDialog({ onDone, onCancel }: { onDone: () => void | Promise<void>; onCancel: () => void }) {
  const client = useDataClient();
  const mfa = useAppState((s) => s.session?.mfa_enabled === true);
  const factors = useFactors(mfa);
  const hasPasskey = factors?.webauthn === true;
  // Unknown (offline, not loaded yet): the code stays offered to anyone with MFA.
  const offerCode = mfa && (factors === null || factors.totp);
  const [useCode, setUseCode] = useState(false);
  const [value, setValue] = useState('');
  const { error, busy, submit } = useSubmitAction();
  const [passkey, setPasskey] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });

  const onSubmit = submit(async () => {
    const input: StepUpInput = useCode ? { mfa_code: value.trim() } : { password: value };
    const result = await client.stepUp(input);
    if (!result.ok) return result.error;
    await onDone();
  });

  async function withPasskey() {
    setPasskey({ busy: true, error: null });
    const result = await proveWithPasskey(client, (webauthn) => client.stepUp({ webauthn }));
    setPasskey({ busy: false, error: result.ok ? null : result.message });
    if (!result.ok) return;
    await onDone();
  }

  return (
    <Modal title="Confirm it's you" onClose={onCancel} onSubmit={onSubmit}>
      {hasPasskey && (
        <div className="stack step-up-passkey">
          <Button variant="primary" block loading={passkey.busy} onClick={() => void withPasskey()}>
            Use a passkey
          </Button>
          <FormError message={passkey.error} />
          <p className="muted or-divider" aria-hidden="true">or</p>
        </div>
      )}
      <p className="muted">
        {useCode ? 'Enter the code from your authenticator app to continue.' : 'Enter your password to continue.'}
      </p>
      {useCode ? (
        <CodeField label="Authenticator code" value={value} onChange={setValue} autoFocus={!hasPasskey} />
      ) : (
        <TextField label="Password" type="password" autoComplete="current-password" value={value} onChange={setValue} autoFocus={!hasPasskey} />
      )}
      {offerCode && (
        <Button
          variant="ghost"
          size="sm"
          onClick={() => {
            setUseCode(!useCode);
            setValue('');
          }}
        >
          {useCode ? 'Use my password instead' : 'Use an authenticator code instead'}
        </Button>
      )}
      <FormError message={error} />
      <div className="modal-actions">
        <Button onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" variant={hasPasskey ? 'secondary' : 'primary'} loading={busy} disabled={!value}>
          Confirm
        </Button>
      </div>
    </Modal>
  );
}

/**
 * The person's second factors, asked once per dialog (online only), to offer "Use a passkey"
 * (when this browser can use one) and the code only to those with an authenticator app. Null
 * until known: offline or on failure the password and the code stay.
 */
function useFactors(mfa: boolean): { totp: boolean; webauthn: boolean } | null {
  const client = useDataClient();
  const online = useAppState((s) => s.online);
  const [factors, setFactors] = useState<{ totp: boolean; webauthn: boolean } | null>(null);
  useEffect(() => {
    if (!mfa || !online) return;
    let live = true;
    void client.listAuthenticators().then(
      (r) => {
        if (!live || !r.ok) return;
        const has = (type: string) => r.authenticators.some((a) => a.type === type);
        setFactors({ totp: has('totp'), webauthn: has('webauthn') && passkeysSupported() });
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [client, mfa, online]);
  return factors;
}
