import { useLayoutEffect, useState, type FormEvent } from 'react';
import { Button } from '../../components/button.tsx';
import { Link, getRouteApi, useNavigate } from '@tanstack/react-router';
import { loginDownMessage, mfaDownMessage, type WebConfig } from '../../../schema/web-config.ts';
import { useAppStore, useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { sessionState } from '../../data-access/app-state.ts';
import { isBusinessSession } from '../../../workers/contracts/session.ts';
import type { SignInResult } from '../../data-access/types.ts';
import { MfaCodeForm } from './mfa-code-form.tsx';
import { MfaEnrolForm } from './mfa-enrol-form.tsx';
import { AuthCard } from '../../components/auth-card.tsx';
import { FormError } from '../../components/form-error.tsx';
import { safeRedirect } from '../../lib/redirect.ts';
import { readTabBusiness, rememberTabBusiness } from '../../lib/session-tab.ts';
import { errorText } from '../../lib/error-text.ts';
import { useAnswer } from '../../lib/use-answer.ts';
import { dropPrerendered, prerenderedFields } from '../../lib/prerendered.ts';
import { TextField } from '../../components/text-field.tsx';
import { SignInLinkForm } from './sign-in-link-form.tsx';
import { OtherSignIns, SsoErrorAlert, SsoOffer, SsoSignInCard } from './sso-sign-in.tsx';

export interface SignInPageProps {
  redirect: string | undefined;
  /** The words of a single sign-on that failed at the identity provider or on its way back. */
  ssoError?: string | undefined;
}

/** `redirect` (where the user was heading) and `sso_error` (a failed single sign-on's words). */
export const parseSignInSearch = (raw: Record<string, unknown>): { redirect?: string; sso_error?: string } => ({
  ...(typeof raw.redirect === 'string' && raw.redirect ? { redirect: raw.redirect } : {}),
  ...(typeof raw.sso_error === 'string' && raw.sso_error ? { sso_error: raw.sso_error.slice(0, 500) } : {}),
});

export function SignInRoute() {
  const { redirect, sso_error } = getRouteApi('/_guest/sign-in').useSearch();
  return <SignInPage redirect={redirect} ssoError={sso_error} />;
}

/** The §3 web config, read through the worker when the sign-in page opens. */
export function useWebConfig(): WebConfig | null {
  const client = useDataClient();
  return useAnswer(() => client.webConfig(), [client]);
}

/** Signed in: put the session in the store and go where the user was heading. */
export function useFinishSignIn(redirect: string | undefined) {
  const client = useDataClient();
  const store = useAppStore();
  const navigate = useNavigate();
  return async (result: Extract<SignInResult, { ok: true }>) => {
    if (isBusinessSession(result.session)) rememberTabBusiness(result.session.business.id);
    // Issue 31: another surface's session lands on its own home through the router's guards.
    store.set({ ...sessionState(result.session), status: await client.status() });
    await navigate({ href: safeRedirect(redirect), replace: true });
  };
}

/** Sign-in. The worker does the calls and keeps the token; the page shows the server's words. */
export function SignInPage({ redirect, ssoError }: SignInPageProps) {
  const client = useDataClient();
  const online = useAppState((s) => s.online);
  const config = useWebConfig();
  const finish = useFinishSignIn(redirect);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // A first visit painted this page from the HTML (lib/prerendered.ts): this page replaces that copy
  // before the next paint, keeping what was typed there and where the focus was (else the email's).
  // Read at commit, not at render: the first render may be sliced, and typing goes on meanwhile.
  useLayoutEffect(() => {
    const copy = prerenderedFields(document);
    if (!copy) return;
    /* eslint-disable react-hooks/set-state-in-effect -- the copy is outside React; this re-render happens before the paint */
    if (copy.values.email) setEmail(copy.values.email);
    if (copy.values.password) setPassword(copy.values.password);
    /* eslint-enable react-hooks/set-state-in-effect */
    dropPrerendered(document, copy.focused ?? 'email');
  }, []);
  const [error, setError] = useState<string | null>(null);
  /** The email a password was refused for with AUTH_7022 (its domain may sign in with SSO only). */
  const [refusedFor, setRefusedFor] = useState<string | null>(null);
  /** "Sign in with SSO" is open, with the email typed so far. */
  const [ssoFor, setSsoFor] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** The second step: a code from the authenticator, or its first enrolment when there is none yet. */
  const [mfaStep, setMfaStep] = useState<null | { kind: 'verify' } | { kind: 'enrol'; email: string | null }>(null);
  const loginDown = config?.isLoginDown === true;
  /** "Email me a sign-in link" (passwordless): its own card, since the password card is a form. */
  const [linkMode, setLinkMode] = useState(false);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setRefusedFor(null);
    try {
      const result = await client.signIn(email.trim(), password, readTabBusiness());
      if (result.ok) await finish(result);
      else if (result.mfa_required) {
        // check-mfa failing (MFA down, network) falls back to the code step, which says why.
        const mfa = await client.pendingMfaStatus();
        setMfaStep(mfa.ok && mfa.factors.length === 0 ? { kind: 'enrol', email: mfa.email } : { kind: 'verify' });
      }
      else {
        setError(errorText(result.error));
        if (result.error.error_code === 'AUTH_7022') setRefusedFor(email.trim());
      }
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Sign-in failed.');
    } finally {
      setBusy(false);
    }
  }

  const mfaDown = config?.isMfaDown ? mfaDownMessage(config) : null;
  if (mfaStep?.kind === 'enrol') {
    return (
      <AuthCard title="Set up two-factor authentication">
        <MfaEnrolForm email={mfaStep.email} downMessage={mfaDown} onVerified={finish} onCancel={() => setMfaStep(null)} />
      </AuthCard>
    );
  }
  if (mfaStep) {
    return (
      <AuthCard title="Two-factor authentication">
        <MfaCodeForm
          downMessage={mfaDown}
          onVerified={finish}
          onCancel={() => setMfaStep(null)}
        />
      </AuthCard>
    );
  }

  if (linkMode) {
    return (
      <AuthCard title="Sign in with an email link">
        {!online && <p className="notice notice-warn">You are offline. Sending a sign-in link needs a connection.</p>}
        <SignInLinkForm initialEmail={email.trim()} autoFocus />
        <Button variant="ghost" block onClick={() => setLinkMode(false)}>Sign in with a password instead</Button>
      </AuthCard>
    );
  }
  if (ssoFor !== null) return <SsoSignInCard initialEmail={ssoFor} redirect={redirect} onBack={() => setSsoFor(null)} />;

  return (
    <AuthCard title="Sign in" onSubmit={onSubmit}>
      <SsoErrorAlert message={ssoError} />
      {!online && <p className="notice notice-warn">You are offline. Signing in needs a connection.</p>}
      {config && loginDown && (
        <p className="notice notice-error" role="alert">
          {loginDownMessage(config)}
        </p>
      )}
      <TextField label="Email" type="email" name="email" autoComplete="username" required value={email} onChange={setEmail} autoFocus />
      <TextField label="Password" type="password" name="password" autoComplete="current-password" required value={password} onChange={setPassword} />
      <FormError message={error} />
      {refusedFor && !loginDown && <SsoOffer email={refusedFor} redirect={redirect} />}
      <Button type="submit" variant="primary" block loading={busy} disabled={loginDown || !email || !password}>
        Sign in
      </Button>
      <Button variant="ghost" block disabled={loginDown} onClick={() => setLinkMode(true)}>
        Email me a sign-in link
      </Button>
      <OtherSignIns google={config?.googleSignIn === true} redirect={redirect} disabled={loginDown || !online} onSso={() => setSsoFor(email.trim())} />
      <p className="card-footer">
        New to Ledgerline? <Link to="/sign-up">Create an account</Link>
      </p>
    </AuthCard>
  );
}
