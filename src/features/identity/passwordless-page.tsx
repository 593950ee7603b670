import { useEffect, useState } from 'react';
import { getRouteApi, Link } from '@tanstack/react-router';
import type { SignInResult } from '../../data-access/types.ts';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { AuthCard } from '../../components/auth-card.tsx';
import { SignInLinkForm } from './sign-in-link-form.tsx';
import { SignedInLinkNotice } from './signed-in-link.tsx';
import { useSignInSteps } from './sign-in-steps.tsx';
import { useWebConfig } from './sign-in-page.tsx';

const routeApi = getRouteApi('/_guest/passwordless');

export { parsePasswordlessSearch } from './search-params.ts';

export function PasswordlessRoute() {
  const { token } = routeApi.useSearch();
  const session = useAppState((s) => s.session);
  return session ? <SignedInLinkNotice session={session} purpose="sign-in link" /> : <PasswordlessPage token={token} />;
}

/**
 * A link works once: React may mount the page twice (StrictMode) and a reload may repeat it, so
 * each token is sent at most once per page load and every mount shares that one answer.
 */
const attempts = new Map<string, Promise<SignInResult>>();
function signInOnce(client: DataClient, token: string): Promise<SignInResult> {
  let p = attempts.get(token);
  if (!p) attempts.set(token, (p = client.signInWithLink(token)));
  return p;
}

/** Words for a link that cannot sign in (PROFILE_7016 expired, PROFILE_7017 used or replaced). */
export function linkRefusalText(code: string, message: string): string {
  if (code === 'PROFILE_7016') return 'This sign-in link has expired: links work for 15 minutes.';
  if (code === 'PROFILE_7017') return 'This sign-in link can’t be used: it was used already, or a newer link was sent.';
  return message;
}

/**
 * `/passwordless?token=…`, the link in a sign-in email (issue 14): signs in at once through the
 * sign-in page's steps (MFA too) and lands in the app; a link that cannot sign in says why and
 * offers a new one.
 */
export function PasswordlessPage({ token }: { token: string | undefined }) {
  const client = useDataClient();
  const config = useWebConfig();
  const steps = useSignInSteps(config);
  const [refusal, setRefusal] = useState<string | null>(token ? null : 'This page needs the sign-in link from your email.');
  const { handle } = steps;

  useEffect(() => {
    if (!token) return;
    let live = true;
    void signInOnce(client, token).then(async (r) => {
      if (!live) return;
      if (!r.ok && !r.mfa_required) return setRefusal(linkRefusalText(r.error.error_code, r.error.message));
      const words = await handle(r);
      if (live && words) setRefusal(words);
    });
    return () => {
      live = false;
    };
    // handle is a new function each render; the token is what this effect is about.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, token]);

  if (steps.view) return steps.view;
  if (!refusal) {
    return (
      <AuthCard title="Signing you in">
        <p className="muted" role="status">Checking your sign-in link…</p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Sign-in link">
      <p className="notice notice-warn" role="alert">{refusal}</p>
      <SignInLinkForm submitLabel="Send a new link" />
      <p className="card-footer"><Link to="/sign-in">Sign in with a password</Link></p>
    </AuthCard>
  );
}
