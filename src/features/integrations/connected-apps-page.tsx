import { useCallback, useEffect, useState } from 'react';
import { API_RESOURCE_LABELS, type ApiResource } from '../../../schema/api/api-scopes.ts';
import { canManageApiClients } from '../../../schema/roles.ts';
import type { OAuthGrant } from '../../../schema/api/calls-developer-apps.ts';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { Skeleton } from '../../components/skeleton.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { formatLocalDateTime } from '../../lib/format.ts';
import { toastError, toastInfo } from '../../lib/toast-store.ts';
import './api-clients.css';

type ListResult = Awaited<ReturnType<DataClient['oauthGrants']>>;

/** "Read transactions", "Change vendors": an API scope in words. */
export function scopeWords(scope: string): string {
  const [resource, access] = scope.split(':') as [ApiResource, string];
  const label = API_RESOURCE_LABELS[resource]?.label.toLowerCase() ?? resource;
  return `${access === 'write' ? 'Change' : 'Read'} ${label}`;
}

/**
 * Issue 32: Settings → Integrations → Connected apps. The developer applications this business
 * allowed: who allowed each, when, its scopes in words, when it was last used. Disconnect asks
 * first, then stops its tokens at once.
 */
export function ConnectedAppsPage() {
  const client = useDataClient();
  const online = useAppState((s) => s.online);
  const user = useAppState((s) => s.session?.user);
  const [grants, setGrants] = useState<OAuthGrant[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [disconnecting, setDisconnecting] = useState<OAuthGrant | null>(null);

  const apply = useCallback((r: ListResult) => {
    if (r.ok) { setGrants(r.grants); setLoadError(null); } else setLoadError(errorText(r.error));
  }, []);
  const reload = useCallback(async () => apply(await client.oauthGrants()), [client, apply]);
  useEffect(() => {
    if (!online) return;
    let live = true;
    void client.oauthGrants().then((r) => live && apply(r));
    return () => { live = false; };
  }, [client, online, apply]);

  if (user && !canManageApiClients(user)) {
    return <><h1>Connected apps</h1><p>Only an admin or a developer admin can see and disconnect connected apps. Ask an admin of your business.</p></>;
  }

  async function disconnect(g: OAuthGrant): Promise<boolean> {
    const r = await client.revokeOAuthGrant(g.id);
    if (!r.ok) { toastError(errorText(r.error)); return false; }
    toastInfo(`${g.app.name} was disconnected. Its access stopped at once.`);
    void reload();
    return true;
  }

  return (
    <>
      <h1>Connected apps</h1>
      <p className="muted">Applications an admin of this business allowed. Each acts with the access of the person who allowed it, limited to what they allowed.</p>
      {!online && <p className="notice notice-warn" role="status">You’re offline. Connected apps show here once you’re back online.</p>}
      {online && loadError && (
        <div className="notice notice-error" role="alert">
          <span>Couldn’t load connected apps: {loadError}</span>
          <Button size="sm" onClick={() => void reload()}>Try again</Button>
        </div>
      )}
      {online && !loadError && grants === null && (
        <div className="stack" aria-busy="true"><span className="sr-only">Loading connected apps…</span><Skeleton height={72} /></div>
      )}
      {grants?.length === 0 && <EmptyState title="No connected apps">When an admin allows an application on its consent page, it shows here.</EmptyState>}
      {grants && grants.length > 0 && (
        <ul className="api-client-list" aria-label="Connected apps">
          {grants.map((g) => (
            <li key={g.id} className="api-client">
              <div className="api-client-head"><h2>{g.app.name}</h2></div>
              <p className="muted api-client-facts">
                By {g.app.publisher}{g.app.homepage_url ? <> · <a href={g.app.homepage_url} rel="noreferrer noopener" target="_blank">{new URL(g.app.homepage_url).host}</a></> : ''}
                {' '}· allowed by {g.allowed_by.name} on {formatLocalDateTime(g.created_at)}
                {g.last_used_at ? ` · last used ${formatLocalDateTime(g.last_used_at)}` : ' · never used'}
              </p>
              <ul className="dev-app-scope-words" aria-label={`What ${g.app.name} may do`}>
                {g.scopes.map((s) => <li key={s}>{scopeWords(s)}</li>)}
              </ul>
              <div className="row-actions">
                <Button size="sm" variant="danger" disabled={!online} onClick={() => setDisconnecting(g)}>
                  Disconnect<span className="sr-only"> {g.app.name}</span>
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {disconnecting && (
        <ConfirmDialog
          title={`Disconnect ${disconnecting.app.name}?`}
          description="Its access and refresh tokens stop working at once. To use it again, an admin must allow it again."
          confirmLabel="Disconnect" tone="danger" onClose={() => setDisconnecting(null)} onConfirm={() => disconnect(disconnecting)}
        />
      )}
    </>
  );
}
