import { useCallback, useEffect, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { canManageApiClients } from '../../../schema/roles.ts';
import type { DeveloperApp } from '../../../schema/api/calls-developer-apps.ts';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { Skeleton } from '../../components/skeleton.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { StepUpDialog } from '../../components/step-up-dialog.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { formatDay } from '../../lib/format.ts';
import { toastError, toastInfo } from '../../lib/toast-store.ts';
import { useSensitiveAction } from '../../lib/use-sensitive-action.ts';
import { SecretDialog } from './api-client-dialogs.tsx';
import { RegisterAppDialog, type NewAppForm } from './developer-app-dialog.tsx';
import './api-clients.css';

type ListResult = Awaited<ReturnType<DataClient['developerApps']>>;
type Shown = { clientId: string; clientName: string; secret: string };
type Confirm = { kind: 'rotate' | 'delete'; app: DeveloperApp };

/**
 * Issue 32: Settings → Integrations → Developer applications. A business registers the apps it
 * makes for other businesses (exact redirect URIs, the scopes they may ask for, confidential or
 * public); a confidential app's secret is shown once, like an API client's. Rotating and deleting
 * ask first (with a step-up when the server wants one).
 */
export function DeveloperAppsPage() {
  const client = useDataClient();
  const online = useAppState((s) => s.online);
  const user = useAppState((s) => s.session?.user);
  const sensitive = useSensitiveAction();
  const [apps, setApps] = useState<DeveloperApp[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [creating, setCreating] = useState<{ busy: boolean; error: string | null } | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const [confirm, setConfirm] = useState<Confirm | null>(null);

  const apply = useCallback((r: ListResult) => {
    if (r.ok) { setApps(r.apps); setLoadError(null); } else setLoadError(errorText(r.error));
  }, []);
  const reload = useCallback(async () => apply(await client.developerApps()), [client, apply]);
  useEffect(() => {
    if (!online) return;
    let live = true;
    void client.developerApps().then((r) => live && apply(r));
    return () => { live = false; };
  }, [client, online, apply]);

  if (user && !canManageApiClients(user)) {
    return <><h1>Developer applications</h1><p>Only an admin or a developer admin can register applications. Ask an admin of your business.</p></>;
  }

  function create(form: NewAppForm) {
    setCreating({ busy: true, error: null });
    void sensitive.run(() => client.createDeveloperApp(form), (r) => {
      if (!r.ok) return setCreating({ busy: false, error: errorText(r.error) });
      setCreating(null);
      if (r.secret) setShown({ clientId: r.app.client_id, clientName: r.app.name, secret: r.secret.client_secret });
      else toastInfo(`${r.app.name} is registered. Its client ID is ${r.app.client_id}.`);
      void reload();
    });
  }

  async function confirmed(c: Confirm): Promise<boolean> {
    let done = true;
    if (c.kind === 'delete') {
      await sensitive.run(() => client.deleteDeveloperApp(c.app.id), (r) => {
        if (!r.ok) { done = false; toastError(errorText(r.error)); return; }
        toastInfo(`${c.app.name} was deleted. Every business’s connection to it stopped.`);
        void reload();
      });
    } else {
      await sensitive.run(() => client.rotateDeveloperAppSecret(c.app.id), (r) => {
        if (!r.ok) { done = false; toastError(errorText(r.error)); return; }
        if (r.secret) setShown({ clientId: c.app.client_id, clientName: c.app.name, secret: r.secret.client_secret });
        void reload();
      });
    }
    return done;
  }

  return (
    <>
      <div className="api-page-head">
        <div>
          <h1>Developer applications</h1>
          <p className="muted">Register software you make for other businesses. Their admins connect it with OAuth 2.0 (authorization code with PKCE).</p>
        </div>
        <Button variant="primary" disabled={!online} onClick={() => setCreating({ busy: false, error: null })}>Register application</Button>
      </div>
      <p className="muted">Apps your business has connected are under <Link to="/settings/integrations/connected-apps">Connected apps</Link>.</p>
      {!online && <p className="notice notice-warn" role="status">You’re offline. Applications are managed on the server: they show here once you’re back online.</p>}
      {online && loadError && (
        <div className="notice notice-error" role="alert">
          <span>Couldn’t load applications: {loadError}</span>
          <Button size="sm" onClick={() => void reload()}>Try again</Button>
        </div>
      )}
      {online && !loadError && apps === null && (
        <div className="stack" aria-busy="true"><span className="sr-only">Loading applications…</span><Skeleton height={72} /><Skeleton height={72} /></div>
      )}
      {apps?.length === 0 && (
        <EmptyState title="No applications yet">Register one to get a client ID that other businesses’ admins can connect from a consent page.</EmptyState>
      )}
      {apps && apps.length > 0 && (
        <ul className="api-client-list" aria-label="Developer applications">
          {apps.map((a) => <AppItem key={a.id} item={a} online={online} onConfirm={setConfirm} />)}
        </ul>
      )}
      <AuthorizeExample />
      {creating && <RegisterAppDialog busy={creating.busy} error={creating.error} onCancel={() => setCreating(null)} onCreate={create} />}
      {shown && <SecretDialog {...shown} onDone={() => setShown(null)} />}
      {confirm && (
        <ConfirmDialog
          title={confirm.kind === 'delete' ? `Delete ${confirm.app.name}?` : `Rotate the secret of ${confirm.app.name}?`}
          description={confirm.kind === 'delete'
            ? 'Every business that connected it is disconnected at once and its tokens stop working. This cannot be undone.'
            : 'A new secret is shown once, and the current one is revoked: the application needs the new one to get tokens.'}
          confirmLabel={confirm.kind === 'delete' ? 'Delete application' : 'Rotate secret'}
          tone="danger" onClose={() => setConfirm(null)} onConfirm={() => confirmed(confirm)}
        />
      )}
      {sensitive.prompting && (
        <StepUpDialog onDone={() => sensitive.confirmed()} onCancel={() => { sensitive.cancelled(); setCreating((s) => s && { ...s, busy: false }); }} />
      )}
    </>
  );
}

function AppItem({ item, online, onConfirm }: { item: DeveloperApp; online: boolean; onConfirm(c: Confirm): void }) {
  const live = item.secrets.find((s) => s.revoked_at === null);
  return (
    <li className="api-client">
      <div className="api-client-head">
        <h2>{item.name}</h2>
        <StatusPill tone="neutral">{item.client_type === 'public' ? 'Public' : 'Confidential'}</StatusPill>
      </div>
      {item.description && <p className="api-client-facts">{item.description}</p>}
      <p className="muted api-client-facts">
        Client ID <code>{item.client_id}</code> · registered {formatDay(item.created_at)} ·{' '}
        {item.connected_businesses === 1 ? 'connected by 1 business' : `connected by ${item.connected_businesses} businesses`}
        {live ? <> · secret <code>{live.hint}</code></> : ''}
      </p>
      <p className="api-client-scopes" aria-label={`Scopes ${item.name} may ask for`}>{item.scopes.map((s) => <code key={s}>{s}</code>)}</p>
      <ul className="api-secret-list" aria-label={`Redirect URIs of ${item.name}`}>
        {item.redirect_uris.map((u) => <li key={u}><code>{u}</code></li>)}
      </ul>
      <div className="row-actions">
        {item.client_type === 'confidential' && (
          <Button size="sm" disabled={!online} onClick={() => onConfirm({ kind: 'rotate', app: item })}>
            Rotate secret<span className="sr-only"> of {item.name}</span>
          </Button>
        )}
        <Button size="sm" variant="danger" disabled={!online} onClick={() => onConfirm({ kind: 'delete', app: item })}>
          Delete<span className="sr-only"> {item.name}</span>
        </Button>
      </div>
    </li>
  );
}

function AuthorizeExample() {
  const origin = window.location.origin;
  const text = `${origin}/oauth/authorize?response_type=code&client_id=$CLIENT_ID
  &redirect_uri=$REDIRECT_URI&scope=transactions:read&state=$STATE
  &code_challenge=$S256_CHALLENGE&code_challenge_method=S256

curl -s -u "$CLIENT_ID:$CLIENT_SECRET" -d grant_type=authorization_code \\
  -d code=$CODE -d redirect_uri=$REDIRECT_URI -d code_verifier=$VERIFIER \\
  ${origin}/v1/public/token`;
  return (
    <section className="section api-curl" aria-labelledby="dev-app-flow-title">
      <h2 id="dev-app-flow-title">Connect a business</h2>
      <p className="muted">
        Send an admin to the consent page; after Allow, exchange the code (valid 60 seconds, once) for an access token (one hour) and
        a refresh token (30 days, a new one on each use). A public app sends client_id in the body instead of a secret.
      </p>
      <pre tabIndex={0} aria-label="Example authorization request"><code>{text}</code></pre>
    </section>
  );
}
