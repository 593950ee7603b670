import { useEffect, useState, type FormEvent } from 'react';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { Button } from '../../components/button.tsx';
import { CodeField, isCompleteCode } from '../../components/code-field.tsx';
import { FormError } from '../../components/form-error.tsx';
import { errorText } from '../../lib/error-text.ts';
import { toastInfo } from '../../lib/toast-store.ts';

type Pending = { email: string };

/**
 * "Confirm your email" (issue 24): after sign-up the person is in the app at once, and this
 * banner asks for the 6-digit code the server mailed, with a resend. It blocks nothing; what
 * needs a confirmed address (inviting people, single sign-on, support access, mailing others) is
 * refused by the server with words that say so (PROFILE_UNVERIFIED). Checked once per signed-in
 * person and load, online only; a confirmed address shows nothing.
 */
export function EmailVerificationBanner() {
  const client = useDataClient();
  const userId = useAppState((s) => s.session?.user.id ?? null);
  const online = useAppState((s) => s.online);
  const [pending, setPending] = useState<Pending | null>(null);
  const [hidden, setHidden] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [busy, setBusy] = useState<'verify' | 'send' | null>(null);

  useEffect(() => {
    if (!userId || !online) return;
    let live = true;
    void client.emailVerification().then((r) => {
      if (live && r.ok) setPending(r.verification.verified ? null : { email: r.verification.email });
    });
    return () => {
      live = false;
    };
  }, [client, userId, online]);

  if (!pending || hidden) return null;

  async function verify(e: FormEvent) {
    e.preventDefault();
    setBusy('verify');
    setError(null);
    try {
      const r = await client.verifyEmail(code);
      if (r.ok || r.error.error_code === 'PROFILE_7027') {
        setPending(null);
        toastInfo('Your email address is confirmed.');
      } else {
        setError(errorText(r.error));
      }
    } finally {
      setBusy(null);
    }
  }

  async function resend() {
    setBusy('send');
    setError(null);
    setSentTo(null);
    try {
      const r = await client.sendEmailVerification();
      if (r.ok) {
        setCode('');
        setSentTo(pending!.email);
      } else if (r.error.error_code === 'PROFILE_7027') {
        setPending(null);
      } else {
        setError(errorText(r.error));
      }
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="verify-banner" aria-label="Confirm your email">
      <form className="verify-banner-form" onSubmit={(e) => void verify(e)} noValidate>
        <p className="verify-banner-text">
          <strong>Confirm your email</strong> — enter the 6-digit code we sent to <strong>{pending.email}</strong>. Until then you
          can use Ledgerline, but not invite people, set up single sign-on or turn on support access.
        </p>
        <div className="verify-banner-actions">
          <CodeField label="Email code" name="email-code" value={code} onChange={setCode} />
          <Button type="submit" variant="primary" loading={busy === 'verify'} disabled={!isCompleteCode(code) || busy !== null}>
            Confirm email
          </Button>
          <Button variant="ghost" loading={busy === 'send'} disabled={busy !== null} onClick={() => void resend()}>
            Send a new code
          </Button>
          <Button variant="ghost" onClick={() => setHidden(true)}>
            Later
          </Button>
        </div>
        {sentTo && <p className="muted" role="status">We sent a new code to {sentTo}. The previous one no longer works.</p>}
        <FormError message={error} />
      </form>
    </section>
  );
}
