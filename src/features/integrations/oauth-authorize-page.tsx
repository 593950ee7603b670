import { useEffect, useState } from 'react';
import type { z } from 'zod';
import type { oauthAppInfoSchema } from '../../../schema/api/calls-developer-apps.ts';
import { Button } from '../../components/button.tsx';
import { Skeleton } from '../../components/skeleton.tsx';
import { StepUpDialog } from '../../components/step-up-dialog.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { errorText } from '../../lib/error-text.ts';
import { useSensitiveAction } from '../../lib/use-sensitive-action.ts';
import { scopeWords } from './connected-apps-page.tsx';
import './api-clients.css';

type AppInfo = z.infer<typeof oauthAppInfoSchema>;
type Asked = { clientId: string; redirectUri: string; state: string | null; scope: string[]; challenge: string | null; method: string | null; responseType: string | null };
type View =
  | { kind: 'loading' }
  | { kind: 'fatal'; message: string }
  | { kind: 'ask'; app: AppInfo; asked: Asked }
  | { kind: 'leaving' };

const read = (): Asked => {
  const p = new URLSearchParams(window.location.search);
  return {
    clientId: p.get('client_id') ?? '', redirectUri: p.get('redirect_uri') ?? '', state: p.get('state'),
    scope: [...new Set((p.get('scope') ?? '').split(' ').filter(Boolean))], challenge: p.get('code_challenge'),
    method: p.get('code_challenge_method'), responseType: p.get('response_type'),
  };
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** RFC 6749 §4.1.2.1: back to the app's (verified) redirect URI with `error` and the app's `state`. */
function sendBack(asked: Asked, error: string, description?: string) {
  const target = new URL(asked.redirectUri);
  target.searchParams.append('error', error);
  if (description) target.searchParams.append('error_description', description);
  if (asked.state !== null) target.searchParams.append('state', asked.state);
  window.location.assign(target.toString());
}

/** What is wrong with a request whose client and redirect URI are good: an error to send back, else null. */
function requestProblem(asked: Asked, registered: readonly string[]): [string, string] | null {
  if (asked.responseType !== 'code') return ['unsupported_response_type', 'Only response_type=code is supported.'];
  if (!asked.state) return ['invalid_request', 'state is required.'];
  if (!asked.challenge || !/^[A-Za-z0-9_-]{43}$/.test(asked.challenge)) return ['invalid_request', 'code_challenge (S256) is required.'];
  if (asked.method !== 'S256') return ['invalid_request', 'code_challenge_method must be S256.'];
  if (asked.scope.length === 0) return ['invalid_scope', 'scope is required.'];
  const outside = asked.scope.filter((s) => !registered.includes(s));
  if (outside.length) return ['invalid_scope', `Not registered by this application: ${outside.join(' ')}.`];
  return null;
}

/**
 * Issue 32: the consent page, `/oauth/authorize` (RFC 6749 §4.1.1, PKCE S256). The shell has asked
 * for sign-in first and comes back here. A bad client_id or redirect_uri is said on the page and
 * never redirected (§4.1.2.1); anything else wrong goes back to the app with error= and state.
 * Allow asks the server for a one-time code and follows its redirect; Deny sends access_denied.
 */
export function OAuthAuthorizePage() {
  const client = useDataClient();
  const online = useAppState((s) => s.online);
  const session = useAppState((s) => s.session);
  const sensitive = useSensitiveAction();
  const [asked] = useState(read);
  const incomplete = !UUID.test(asked.clientId) || !asked.redirectUri;
  const [view, setView] = useState<View>(incomplete
    ? { kind: 'fatal', message: 'This link is incomplete: it must name the application (client_id) and where to return (redirect_uri). Go back to the application and start again.' }
    : { kind: 'loading' });
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);

  useEffect(() => {
    if (incomplete) return;
    let live = true;
    void client.oauthApp(asked.clientId, asked.redirectUri).then((r) => {
      if (!live) return;
      if (!r.ok) {
        const message = r.error.error_code === 'REQUEST_7004'
          ? 'This application was not found: the link is wrong, or the application was deleted.'
          : r.error.errors?.redirect_uri ? 'This application did not register the address it asked to return to (redirect_uri), so you are not sent there. Tell the application’s maker.'
            : errorText(r.error);
        return setView({ kind: 'fatal', message });
      }
      const problem = requestProblem(asked, r.scopes);
      if (problem) { setView({ kind: 'leaving' }); sendBack(asked, ...problem); return; }
      setView({ kind: 'ask', app: r.app, asked });
    });
    return () => { live = false; };
  }, [client, asked, incomplete]);

  function allow(a: Asked) {
    setBusy(true);
    setRefused(null);
    void sensitive.run(() => client.createOAuthConsent({
      client_id: a.clientId, redirect_uri: a.redirectUri, scope: a.scope.join(' '), state: a.state ?? '', code_challenge: a.challenge ?? '', code_challenge_method: 'S256',
    }), (r) => {
      if (!r.ok) { setBusy(false); setRefused(errorText(r.error)); return; }
      setView({ kind: 'leaving' });
      window.location.assign(r.redirect_to);
    });
  }

  return (
    <div className="oauth-consent">
      {view.kind === 'loading' && <div aria-busy="true"><h1>Connect an application</h1><span className="sr-only">Loading…</span><Skeleton height={120} /></div>}
      {view.kind === 'fatal' && (
        <>
          <h1>This connection can’t continue</h1>
          <p className="notice notice-error" role="alert">{view.message}</p>
        </>
      )}
      {view.kind === 'leaving' && <><h1>Returning to the application…</h1><p className="muted" role="status">You’re being sent back.</p></>}
      {view.kind === 'ask' && (
        <>
          {view.app.logo_url && <img className="oauth-consent-logo" src={view.app.logo_url} alt="" />}
          <h1>Allow {view.app.name} to access {session?.business.name ?? 'your business'}?</h1>
          <p className="muted">
            Made by {view.app.publisher}
            {view.app.homepage_url && <> · <a href={view.app.homepage_url} rel="noreferrer noopener" target="_blank">{new URL(view.app.homepage_url).host}</a></>}
          </p>
          {view.app.description && <p>{view.app.description}</p>}
          <section aria-labelledby="oauth-scopes-title">
            <h2 id="oauth-scopes-title">It will be able to</h2>
            <ul className="dev-app-scope-words">{view.asked.scope.map((s) => <li key={s}>{scopeWords(s)}</li>)}</ul>
          </section>
          <p className="muted">
            It acts with your access{session ? ` (${session.user.first_name} ${session.user.last_name})` : ''}, limited to the above. An admin can disconnect it at any time in Settings → Integrations → Connected apps.
          </p>
          {!online && <p className="notice notice-warn" role="status">You’re offline. Connect to allow or deny.</p>}
          {refused && <p className="notice notice-error" role="alert">{refused}</p>}
          <div className="row-actions">
            <Button variant="ghost" disabled={busy} onClick={() => { setView({ kind: 'leaving' }); sendBack(view.asked, 'access_denied', 'The user denied the request.'); }}>Deny</Button>
            <Button variant="primary" loading={busy} disabled={!online} onClick={() => allow(view.asked)}>Allow</Button>
          </div>
        </>
      )}
      {sensitive.prompting && <StepUpDialog onDone={() => sensitive.confirmed()} onCancel={() => { sensitive.cancelled(); setBusy(false); }} />}
    </div>
  );
}
