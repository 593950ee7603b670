import { useState } from 'react';
import { Button } from '../../components/button.tsx';
import type { TotpSetup } from '../../data-access/types.ts';
import { CodeField, isCompleteCode } from '../../components/code-field.tsx';
import { FormError } from '../../components/form-error.tsx';
import { passkeysSupported } from '../../lib/passkeys.ts';
import { MfaCodeForm, type MfaFormProps } from './mfa-code-form.tsx';
import { useMfaEnrolment } from './mfa-enrol-state.ts';

/**
 * First enrolment during sign-in: the business (or identity) requires MFA and the person has no
 * authenticator yet. The worker holds the half-scoped token; this form shows the new secret and
 * its otpauth link, mails a code to the person's own mailbox (the password alone must not bind an
 * authenticator), and turns the authenticator on with both codes. A TOTP code is accepted once,
 * so finishing the sign-in (verify-mfa) takes the NEXT code the app shows. Instead of the app,
 * the person may register a passkey with the same emailed code, then use it to finish.
 */
export function MfaEnrolForm({ email, downMessage, onVerified, onCancel }: MfaFormProps & { email: string | null }) {
  const { phase, setup, emailCode, setEmailCode, code, setCode, error, notice, busy, mailed, onSubmit, enrolPasskey, resend } = useMfaEnrolment(email, downMessage);

  if (phase === 'verify-passkey') {
    return (
      <div className="stack">
        <p className="notice" role="status">
          Your passkey is set up. Use it once more to finish signing in.
        </p>
        <MfaCodeForm downMessage={downMessage} onVerified={onVerified} onCancel={onCancel} factors={['webauthn']} />
      </div>
    );
  }
  if (phase === 'verify') {
    return (
      <div className="stack">
        <p className="notice" role="status">
          Two-factor authentication is on. Wait for your authenticator app to show a new code, then enter it to finish signing in.
        </p>
        <MfaCodeForm downMessage={downMessage} onVerified={onVerified} onCancel={onCancel} />
      </div>
    );
  }

  return (
    <form className="stack" onSubmit={(e) => void onSubmit(e)} noValidate>
      <p className="muted">Your business requires two-factor authentication. Add Ledgerline to your authenticator app to continue.</p>
      {downMessage && (
        <p className="notice notice-error" role="alert">
          {downMessage}
        </p>
      )}
      {setup && <SetupKey setup={setup} />}
      {setup && (
        <>
          <p className="muted">
            {mailed ? `We sent a code to ${email ?? 'your email address'}.` : 'Sending a code to your email address…'}{' '}
            <button type="button" className="btn-link" onClick={() => void resend()}>
              Resend code
            </button>
          </p>
          {notice && <p role="status">{notice}</p>}
          <CodeField label="Email code" name="email_code" value={emailCode} onChange={setEmailCode} autoComplete="off" />
          <CodeField label="Authenticator code" value={code} onChange={setCode} />
        </>
      )}
      {phase === 'starting' && !error && <p className="muted">Preparing your authenticator key…</p>}
      <FormError message={error} />
      {setup && (
        <Button
          type="submit"
          variant="primary"
          block
          loading={busy}
          disabled={downMessage !== null || !isCompleteCode(code) || !isCompleteCode(emailCode)}
        >
          Turn on and continue
        </Button>
      )}
      {setup && passkeysSupported() && (
        <>
          <p className="muted or-divider">or, instead of an authenticator app</p>
          <Button block loading={busy} disabled={downMessage !== null || !isCompleteCode(emailCode)} onClick={() => void enrolPasskey()}>
            Use a passkey instead
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

/** The secret and the otpauth link as text, each with a copy button (no QR: it must be typable too). */
function SetupKey({ setup }: { setup: TotpSetup }) {
  return (
    <dl className="totp-setup">
      <dt>Secret</dt>
      <dd>
        <code aria-label="Authenticator secret">{setup.secret}</code> <CopyButton text={setup.secret} label="Copy secret" />
      </dd>
      <dt>Link</dt>
      <dd>
        <code aria-label="Authenticator link">{setup.otpauth_uri}</code> <CopyButton text={setup.otpauth_uri} label="Copy link" />
      </dd>
    </dl>
  );
}

function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    // The clipboard may be refused (permissions, insecure origin): the text stays selectable.
    const ok = await navigator.clipboard?.writeText(text).then(() => true, () => false);
    setCopied(ok === true);
  }
  return (
    <button type="button" className="btn-link" aria-label={label} onClick={() => void copy()}>
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}