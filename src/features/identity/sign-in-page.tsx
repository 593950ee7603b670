import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '../../components/button.tsx';
import { Link, getRouteApi, useNavigate } from '@tanstack/react-router';
import { loginDownMessage, mfaDownMessage, type WebConfig } from '../../../schema/web-config.ts';
import { useAppStore, useAppState, useDataClient } from '../../data-access/data-context.tsx';
import type { SignInResult } from '../../data-access/types.ts';
import { MfaCodeForm } from './mfa-code-form.tsx';
import { MfaEnrolForm } from './mfa-enrol-form.tsx';
import { AuthCard } from './auth-card.tsx';
import { FormError } from '../../components/form-error.tsx';
import { safeRedirect } from '../../lib/redirect.ts';
import { readTabBusiness, rememberTabBusiness } from '../../lib/session-tab.ts';
import { errorText } from '../../lib/error-text.ts';
import { TextField } from '../../components/text-field.tsx';

export interface SignInPageProps {
  redirect: string | undefined;
}

/** `redirect` (where the user was heading) is the only search parameter sign-in reads. */
export const parseSignInSearch = (raw: Record<string, unknown>): { redirect?: string } =>
  typeof raw.redirect === 'string' && raw.redirect ? { redirect: raw.redirect } : {};

export function SignInRoute() {
  const { redirect } = getRouteApi('/_guest/sign-in').useSearch();
  return <SignInPage redirect={redirect} />;
}

/** The §3 web config, read through the worker when the sign-in page opens. */
export function useWebConfig(): WebConfig | null {
  const client = useDataClient();
  const [config, setConfig] = useState<WebConfig | null>(null);
  useEffect(() => {
    let live = true;
    void client.webConfig().then((c) => live && setConfig(c), () => undefined);
    return () => {
      live = false;
    };
  }, [client]);
  return config;
}

/** Signed in: put the session in the store and go where the user was heading. */
export function useFinishSignIn(redirect: string | undefined) {
  const client = useDataClient();
  const store = useAppStore();
  const navigate = useNavigate();
  return async (result: Extract<SignInResult, { ok: true }>) => {
    rememberTabBusiness(result.session.business.id);
    store.set({ session: result.session, status: await client.status() });
    await navigate({ href: safeRedirect(redirect), replace: true });
  };
}

/** Sign-in. The worker does the calls and keeps the token; the page shows the server's words. */
export function SignInPage({ redirect }: SignInPageProps) {
  const client = useDataClient();
  const online = useAppState((s) => s.online);
  const config = useWebConfig();
  const finish = useFinishSignIn(redirect);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** The second step: a code from the authenticator, or its first enrolment when there is none yet. */
  const [mfaStep, setMfaStep] = useState<null | { kind: 'verify' } | { kind: 'enrol'; email: string | null }>(null);
  const loginDown = config?.isLoginDown === true;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const result = await client.signIn(email.trim(), password, readTabBusiness());
      if (result.ok) await finish(result);
      else if (result.mfa_required) {
        // check-mfa failing (MFA down, network) falls back to the code step, which says why.
        const mfa = await client.pendingMfaStatus();
        setMfaStep(mfa.ok && mfa.factors.length === 0 ? { kind: 'enrol', email: mfa.email } : { kind: 'verify' });
      }
      else setError(errorText(result.error));
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

  return (
    <AuthCard title="Sign in" onSubmit={onSubmit}>
      {!online && <p className="notice notice-warn">You are offline. Signing in needs a connection.</p>}
      {config && loginDown && (
        <p className="notice notice-error" role="alert">
          {loginDownMessage(config)}
        </p>
      )}
      <TextField label="Email" type="email" name="email" autoComplete="username" required value={email} onChange={setEmail} autoFocus />
      <TextField label="Password" type="password" name="password" autoComplete="current-password" required value={password} onChange={setPassword} />
      <FormError message={error} />
      <Button type="submit" variant="primary" block loading={busy} disabled={loginDown || !email || !password}>
        Sign in
      </Button>
      <p className="card-footer">
        New to Ledgerline? <Link to="/sign-up">Create an account</Link>
      </p>
    </AuthCard>
  );
}
