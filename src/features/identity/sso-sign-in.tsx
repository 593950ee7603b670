import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '../../components/button.tsx';
import { FormError } from '../../components/form-error.tsx';
import { TextField } from '../../components/text-field.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { AuthCard } from '../../components/auth-card.tsx';

/**
 * Single sign-on on the sign-in page (issue 14): "Continue with Google", "Sign in with SSO" (the
 * work email finds the company's identity provider), the offer of SSO when a password is refused
 * for an enforced domain, and the words of a failed SSO sign-in (`?sso_error=`). Starting a
 * sign-in sends the whole browser to the identity provider, which comes back to /sso/complete.
 */

type Start = { kind: 'sso'; email: string } | { kind: 'google' };

/** Asks the server where to send the browser, then goes there; a refusal is answered as words. */
async function startSignIn(client: DataClient, start: Start, redirect: string | undefined): Promise<string | null> {
  const r = start.kind === 'sso' ? await client.ssoStart(start.email, redirect) : await client.googleStart(redirect);
  if (!r.ok) return errorText(r.error);
  window.location.assign(r.authorization_url);
  return null;
}

/** `busy` stays on after a successful start: the page is leaving for the identity provider. */
function useStart(redirect: string | undefined) {
  const client = useDataClient();
  const [busy, setBusy] = useState<Start['kind'] | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function start(s: Start) {
    setBusy(s.kind);
    setError(null);
    const failure = await startSignIn(client, s, redirect).catch((e: unknown) => (e instanceof Error ? e.message : 'Single sign-on could not start.'));
    if (failure) {
      setError(failure);
      setBusy(null);
    }
  }
  return { busy, error, start };
}

/** A failed single sign-on, in the server's words, at the top of the sign-in card. */
export function SsoErrorAlert({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <div className="notice notice-error" role="alert" data-testid="sso-error">
      <strong>Single sign-on didn’t finish.</strong> {message}
    </div>
  );
}

export interface OtherSignInsProps {
  google: boolean;
  redirect: string | undefined;
  disabled: boolean;
  /** Opens the "Sign in with SSO" step. */
  onSso(): void;
}

/** Under the password form: Google (when this server has it) and SSO. Buttons, not a second form. */
export function OtherSignIns({ google, redirect, disabled, onSso }: OtherSignInsProps) {
  const { busy, error, start } = useStart(redirect);
  return (
    <div className="sso-sign-in">
      <div className="sso-divider">or</div>
      {google && (
        <Button block loading={busy === 'google'} disabled={disabled} onClick={() => void start({ kind: 'google' })}>
          {busy === 'google' ? 'Opening Google…' : 'Continue with Google'}
        </Button>
      )}
      <Button block disabled={disabled} onClick={onSso}>
        Sign in with SSO
      </Button>
      <FormError message={error} />
    </div>
  );
}

export interface SsoSignInCardProps {
  initialEmail: string;
  redirect: string | undefined;
  onBack(): void;
}

/** "Sign in with SSO": the work email, then the company's identity provider. */
export function SsoSignInCard({ initialEmail, redirect, onBack }: SsoSignInCardProps) {
  const online = useAppState((s) => s.online);
  const [email, setEmail] = useState(initialEmail);
  const { busy, error, start } = useStart(redirect);
  function submit(e: FormEvent) {
    e.preventDefault();
    if (email.trim()) void start({ kind: 'sso', email: email.trim() });
  }
  return (
    <AuthCard title="Sign in with SSO" onSubmit={submit}>
      <p className="muted">Enter your work email: you’ll continue at your company’s identity provider and come back signed in.</p>
      {!online && <p className="notice notice-warn">You are offline. Signing in needs a connection.</p>}
      <TextField label="Work email" type="email" name="email" autoComplete="username" required value={email} onChange={setEmail} autoFocus error={error} />
      <Button type="submit" variant="primary" block loading={busy === 'sso'} disabled={!email.trim() || !online}>
        {busy === 'sso' ? 'Opening your identity provider…' : 'Continue'}
      </Button>
      <p className="card-footer">
        <button type="button" className="btn-link" onClick={onBack}>Sign in with a password instead</button>
      </p>
    </AuthCard>
  );
}

/**
 * The password was refused with AUTH_7022: when the email's domain has single sign-on, offer it
 * for that email at once (the check is a start whose answer is not followed; the button starts
 * afresh). Otherwise nothing: AUTH_7022 also means sign-in is down or the account is suspended,
 * which the error above already says.
 */
export function SsoOffer({ email, redirect }: { email: string; redirect: string | undefined }) {
  const client = useDataClient();
  const [available, setAvailable] = useState(false);
  const { busy, error, start } = useStart(redirect);
  useEffect(() => {
    let live = true;
    void client.ssoStart(email, redirect).then((r) => live && setAvailable(r.ok), () => undefined);
    return () => {
      live = false;
    };
  }, [client, email, redirect]);
  if (!available) return null;
  return (
    <div className="notice sso-offer" data-testid="sso-offer">
      <p>Sign in through your company’s identity provider instead:</p>
      <Button variant="primary" block loading={busy === 'sso'} onClick={() => void start({ kind: 'sso', email })}>
        Continue with SSO as {email}
      </Button>
      <FormError message={error} />
    </div>
  );
}
