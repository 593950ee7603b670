import { useEffect, useState } from 'react';
import { Button } from '../../components/button.tsx';
import { useDataClient } from '../../data-access/data-context.tsx';
import type { SecondFactor, SignInResult } from '../../data-access/types.ts';
import { CodeField, isCompleteCode } from '../../components/code-field.tsx';
import { FormError } from '../../components/form-error.tsx';
import { PASSKEY_UNSUPPORTED_MESSAGE, passkeysSupported, proveWithPasskey } from '../../lib/passkeys.ts';
import { useSubmitAction } from '../../lib/use-submit-action.ts';

/**
 * The second sign-in step: "Use a passkey" when the person has one, and/or a 6-digit
 * authenticator code → verify-mfa → a fully scoped token. While MFA is switched off by the web
 * config (isMfaDown) only its message is shown.
 */
export interface MfaFormProps {
  /** The web config's MFA-down message: while set, codes cannot be checked. */
  downMessage: string | null;
  onVerified: (r: Extract<SignInResult, { ok: true }>) => Promise<void> | void;
  onCancel?: () => void;
}

export function MfaCodeForm({ downMessage, onVerified, onCancel, factors: given }: MfaFormProps & { factors?: SecondFactor[] }) {
  const client = useDataClient();
  const [code, setCode] = useState('');
  const { error, busy, submit } = useSubmitAction();
  const factors = usePendingFactors(given);
  const passkey = factors?.includes('webauthn') === true;
  // Unknown factors (check failed): the code form, which says why on submit.
  const showCode = factors === null || factors.includes('totp') || !passkey;

  const onSubmit = submit(async () => {
    const result = await client.verifyMfa(code);
    if (!result.ok) return result.error;
    await onVerified(result);
  });

  return (
    <form className="stack" onSubmit={(e) => void onSubmit(e)} noValidate>
      {downMessage && (
        <p className="notice notice-error" role="alert">
          {downMessage}
        </p>
      )}
      {passkey && <p className="muted">Use your passkey — your fingerprint, face or device PIN — to finish signing in.</p>}
      {passkey && <PasskeyButton disabled={downMessage !== null} hasCode={showCode} onVerified={onVerified} />}
      {passkey && showCode && <p className="muted or-divider" aria-hidden="true">or</p>}
      {showCode && (
        <>
          <p className="muted">Enter the 6-digit code from your authenticator app.</p>
          <CodeField label="Verification code" value={code} onChange={setCode} autoFocus={!passkey} />
          <FormError message={error} />
          <Button type="submit" variant={passkey ? 'secondary' : 'primary'} block loading={busy} disabled={downMessage !== null || !isCompleteCode(code)}>
            Verify
          </Button>
        </>
      )}
      {onCancel && (
        <Button block onClick={onCancel}>
          Back
        </Button>
      )}
    </form>
  );
}

/** The pending sign-in's enrolled factors: given by the caller, or asked once; null when unknown. */
function usePendingFactors(given: SecondFactor[] | undefined): SecondFactor[] | null {
  const client = useDataClient();
  const [factors, setFactors] = useState<SecondFactor[] | null>(given ?? null);
  useEffect(() => {
    if (given) return;
    let live = true;
    void client.pendingMfaStatus().then(
      (s) => live && s.ok && setFactors(s.factors),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [client, given]);
  return factors;
}

/** "Use a passkey": request options with the pending token, the browser's prompt, then verify-mfa. */
function PasskeyButton({ disabled, hasCode, onVerified }: { disabled: boolean; hasCode: boolean } & Pick<MfaFormProps, 'onVerified'>) {
  const client = useDataClient();
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const supported = passkeysSupported();

  async function run() {
    setState({ busy: true, error: null });
    const result = await proveWithPasskey(client, (webauthn) => client.verifyMfa({ webauthn }));
    if (!result.ok) return setState({ busy: false, error: result.message });
    await onVerified(result);
  }

  return (
    <div className="stack">
      <Button variant="primary" block loading={state.busy} disabled={disabled || !supported} onClick={() => void run()}>
        Use a passkey
      </Button>
      {!supported && (
        <p className="muted">
          {PASSKEY_UNSUPPORTED_MESSAGE}{' '}
          {hasCode ? 'Enter a code from your authenticator app instead.' : 'Sign in on a device or browser that supports passkeys.'}
        </p>
      )}
      <FormError message={state.error} />
    </div>
  );
}
