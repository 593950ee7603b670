import { useEffect, useState } from 'react';
import { Link, getRouteApi, useNavigate } from '@tanstack/react-router';
import { mfaDownMessage } from '../../../schema/web-config.ts';
import { buttonClass } from '../../components/button.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import type { DataClient, SignInResult } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { AuthCard } from '../../components/auth-card.tsx';
import { MfaStep } from './mfa-step.tsx';
import { useFinishSignIn, useWebConfig } from './sign-in-page.tsx';

export { parseSsoCompleteSearch } from './search-params.ts';

export function SsoCompleteRoute() {
  const { code } = getRouteApi('/_guest/sso/complete').useSearch();
  return <SsoCompletePage code={code} />;
}

type Answer = SignInResult & { redirect: string | null };

/**
 * One trade per code for the page's life: the code works once, and React may run the effect
 * twice (StrictMode) — a second call would answer "already used" over the first one's success.
 */
const trades = new Map<string, Promise<Answer>>();
function tradeOnce(client: DataClient, code: string): Promise<Answer> {
  let p = trades.get(code);
  if (!p) {
    p = client.ssoComplete(code);
    trades.set(code, p);
  }
  return p;
}

type Phase =
  | { kind: 'working' }
  | { kind: 'mfa'; redirect: string | undefined }
  | { kind: 'done'; result: Extract<SignInResult, { ok: true }>; redirect: string | undefined }
  | { kind: 'failed'; message: string };

/**
 * /sso/complete?code=… (issue 14): where the identity provider's sign-in lands. The code is traded
 * for the session (sso.complete), then sign-in finishes as with a password: the second factor when
 * the business asks for it, then on to where the person was heading (safeRedirect).
 */
export function SsoCompletePage({ code }: { code: string | undefined }) {
  const client = useDataClient();
  const online = useAppState((s) => s.online);
  const navigate = useNavigate();
  const config = useWebConfig();
  const [phase, setPhase] = useState<Phase>(() =>
    code ? { kind: 'working' } : { kind: 'failed', message: 'This address has no sign-in code. Start single sign-on again from the sign-in page.' });
  const finish = useFinishSignIn(phase.kind === 'mfa' || phase.kind === 'done' ? phase.redirect : undefined);

  useEffect(() => {
    if (!code || !online) return;
    let live = true;
    tradeOnce(client, code).then(
      (r) => {
        if (!live) return;
        const redirect = r.redirect ?? undefined;
        if (r.ok) setPhase({ kind: 'done', result: r, redirect });
        else if (r.mfa_required) setPhase({ kind: 'mfa', redirect });
        else setPhase({ kind: 'failed', message: errorText(r.error) });
      },
      (e: unknown) => live && setPhase({ kind: 'failed', message: e instanceof Error ? e.message : 'Sign-in failed.' }),
    );
    return () => {
      live = false;
    };
  }, [client, code, online]);

  useEffect(() => {
    if (phase.kind === 'done') void finish(phase.result);
    // `finish` is new each render; the phase is what says to run it (once).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [phase]);

  if (phase.kind === 'mfa') {
    return (
      <AuthCard title="Two-factor authentication">
        <MfaStep downMessage={config?.isMfaDown ? mfaDownMessage(config) : null} onVerified={finish}
          onCancel={() => void navigate({ to: '/sign-in', replace: true })} />
      </AuthCard>
    );
  }
  if (phase.kind === 'failed') {
    return (
      <AuthCard title="Sign-in didn’t finish">
        <div className="sso-complete">
          <p className="notice notice-error" role="alert" data-testid="sso-complete-error">{phase.message}</p>
          <p className="muted">A single sign-on link works once and for a minute only. Start again from the sign-in page: your identity provider usually lets you straight through.</p>
          <Link to="/sign-in" className={buttonClass({ variant: 'primary', block: true })}>Back to sign-in</Link>
        </div>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Signing you in">
      <div className="sso-complete" role="status">
        {online ? (
          <p>{phase.kind === 'done' ? 'Signed in. Opening Ledgerline…' : 'Your identity provider confirmed who you are. Finishing your sign-in…'}</p>
        ) : (
          <p className="notice notice-warn">You’re offline. Finishing your sign-in needs a connection: it continues when you’re back online.</p>
        )}
      </div>
    </AuthCard>
  );
}
