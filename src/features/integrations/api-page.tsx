import { useCallback, useEffect, useState } from 'react';
import { canManageApiClients } from '../../../schema/roles.ts';
import type { ApiClient, ApiClientRequest } from '../../../schema/api/calls-api-clients.ts';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Skeleton } from '../../components/skeleton.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { StepUpDialog } from '../../components/step-up-dialog.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { formatDay, formatLocalDateTime } from '../../lib/format.ts';
import { toastError, toastInfo } from '../../lib/toast-store.ts';
import { useSensitiveAction } from '../../lib/use-sensitive-action.ts';
import { CreateClientDialog, SecretDialog, type NewClientForm } from './api-client-dialogs.tsx';
import './api-clients.css';

type ListResult = Awaited<ReturnType<DataClient['apiClients']>>;
type Shown = { clientId: string; clientName: string; secret: string };
type Confirm = { kind: 'rotate' | 'delete'; client: ApiClient } | { kind: 'revoke'; client: ApiClient; secretId: string; hint: string };

/**
 * Issue 32: Settings → Integrations → API clients. An admin (or developer admin) creates clients
 * with scopes and a rate limit, copies each new secret once, rotates or revokes secrets, deletes
 * clients (each asked first, with a step-up when the server wants one) and reads recent requests.
 */
export function ApiClientsPage() {
  const client = useDataClient();
  const online = useAppState((s) => s.online);
  const user = useAppState((s) => s.session?.user);
  const sensitive = useSensitiveAction();
  const [clients, setClients] = useState<ApiClient[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [creating, setCreating] = useState<{ busy: boolean; error: string | null } | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const [confirm, setConfirm] = useState<Confirm | null>(null);

  // Whether a client has expired is judged against when the page opened (render stays pure).
  const [openedAt] = useState(() => Date.now());
  const apply = useCallback((r: ListResult) => {
    if (r.ok) { setClients(r.clients); setLoadError(null); } else setLoadError(errorText(r.error));
  }, []);
  const reload = useCallback(async () => apply(await client.apiClients()), [client, apply]);
  useEffect(() => {
    if (!online) return;
    let live = true;
    void client.apiClients().then((r) => live && apply(r));
    return () => { live = false; };
  }, [client, online, apply]);

  if (user && !canManageApiClients(user)) {
    return <><h1>API clients</h1><p>Only an admin or a developer admin can manage API clients. Ask an admin of your business.</p></>;
  }

  function create(form: NewClientForm) {
    setCreating({ busy: true, error: null });
    void sensitive.run(() => client.createApiClient(form), (r) => {
      if (!r.ok) return setCreating({ busy: false, error: errorText(r.error) });
      setCreating(null);
      setShown({ clientId: r.client.id, clientName: r.client.name, secret: r.secret.client_secret });
      void reload();
    });
  }

  /** Runs the confirmed action; a step-up parks it (the confirmation closes, the step-up dialog opens). */
  async function confirmed(c: Confirm): Promise<boolean> {
    const action = c.kind === 'delete' ? () => client.deleteApiClient(c.client.id)
      : c.kind === 'revoke' ? () => client.revokeApiClientSecret(c.secretId)
        : () => client.createApiClientSecret(c.client.id, true);
    let done = true;
    await sensitive.run(action, (r) => {
      if (!r.ok) { done = false; toastError(errorText(r.error)); return; }
      if (c.kind === 'rotate') {
        const made = r as unknown as { secret: { client_secret: string } };
        setShown({ clientId: c.client.id, clientName: c.client.name, secret: made.secret.client_secret });
      } else if (c.kind === 'revoke') toastInfo(`Secret ${c.hint} was revoked.`);
      else toastInfo(`${c.client.name} was deleted. Its tokens no longer work.`);
      void reload();
    });
    return done;
  }

  return (
    <>
      <div className="api-page-head">
        <div>
          <h1>API clients</h1>
          <p className="muted">Let your own scripts and tools read and change Ledgerline data with OAuth 2.0 client credentials.</p>
        </div>
        <Button variant="primary" disabled={!online} onClick={() => setCreating({ busy: false, error: null })}>Create API client</Button>
      </div>
      {!online && <p className="notice notice-warn" role="status">You’re offline. API clients are managed on the server: they show here once you’re back online.</p>}
      {online && loadError && (
        <div className="notice notice-error" role="alert">
          <span>Couldn’t load API clients: {loadError}</span>
          <Button size="sm" onClick={() => void reload()}>Try again</Button>
        </div>
      )}
      {online && !loadError && clients === null && (
        <div className="stack" aria-busy="true"><span className="sr-only">Loading API clients…</span><Skeleton height={72} /><Skeleton height={72} /></div>
      )}
      {clients?.length === 0 && (
        <EmptyState title="No API clients yet">Create one to get a client ID and secret your scripts exchange for short-lived access tokens.</EmptyState>
      )}
      {clients && clients.length > 0 && (
        <ul className="api-client-list" aria-label="API clients">
          {clients.map((c) => <ClientItem key={c.id} item={c} online={online} now={openedAt} onConfirm={setConfirm} />)}
        </ul>
      )}
      <CurlExample />
      {creating && <CreateClientDialog busy={creating.busy} error={creating.error} onCancel={() => setCreating(null)} onCreate={create} />}
      {shown && <SecretDialog {...shown} onDone={() => setShown(null)} />}
      {confirm && <ConfirmFor confirm={confirm} onClose={() => setConfirm(null)} onConfirm={() => confirmed(confirm)} />}
      {sensitive.prompting && (
        <StepUpDialog onDone={() => sensitive.confirmed()} onCancel={() => { sensitive.cancelled(); setCreating((s) => s && { ...s, busy: false }); }} />
      )}
    </>
  );
}

function ConfirmFor({ confirm, onClose, onConfirm }: { confirm: Confirm; onClose(): void; onConfirm(): Promise<boolean> }) {
  const name = confirm.client.name;
  const words = {
    rotate: { title: `Rotate the secret of ${name}?`, label: 'Rotate secret', body: 'A new secret is shown once, and every current secret of this client is revoked: tokens issued with them stop working at once.' },
    revoke: { title: `Revoke secret ${confirm.kind === 'revoke' ? confirm.hint : ''}?`, label: 'Revoke secret', body: 'Scripts using this secret can no longer get tokens, and tokens issued with it stop working at once.' },
    delete: { title: `Delete ${name}?`, label: 'Delete client', body: 'Every secret and token of this client stops working at once. Its request history is kept. This cannot be undone.' },
  }[confirm.kind];
  return <ConfirmDialog title={words.title} description={words.body} confirmLabel={words.label} tone="danger" onClose={onClose} onConfirm={onConfirm} />;
}

function ClientItem({ item, online, now, onConfirm }: { item: ApiClient; online: boolean; now: number; onConfirm(c: Confirm): void }) {
  const expired = item.expires_at !== null && new Date(item.expires_at).getTime() <= now;
  const live = item.secrets.filter((s) => s.revoked_at === null);
  return (
    <li className="api-client">
      <div className="api-client-head">
        <h2>{item.name}</h2>
        {expired ? <StatusPill tone="danger">Expired</StatusPill> : <StatusPill tone="ok">Active</StatusPill>}
      </div>
      <p className="muted api-client-facts">
        Client ID <code>{item.client_id}</code> · {item.rate_limit_per_minute.toLocaleString()} requests a minute
        {item.expires_at ? ` · expires ${formatDay(item.expires_at)}` : ''} · acts as {item.acts_as.name}
        {item.last_used_at ? ` · last used ${formatLocalDateTime(item.last_used_at)}` : ' · never used'}
      </p>
      <p className="api-client-scopes">{item.scopes.map((s) => <code key={s}>{s}</code>)}</p>
      <ul className="api-secret-list" aria-label={`Secrets of ${item.name}`}>
        {item.secrets.map((s) => (
          <li key={s.id}>
            <code>{s.hint}</code>
            <span className="muted">created {formatDay(s.created_at)}{s.last_used_at ? `, last used ${formatLocalDateTime(s.last_used_at)}` : ''}</span>
            {s.revoked_at ? <StatusPill tone="neutral">Revoked</StatusPill> : (
              <Button size="sm" variant="ghost" disabled={!online} onClick={() => onConfirm({ kind: 'revoke', client: item, secretId: s.id, hint: s.hint })}>
                Revoke<span className="sr-only"> secret {s.hint}</span>
              </Button>
            )}
          </li>
        ))}
      </ul>
      <div className="row-actions">
        <Button size="sm" disabled={!online} onClick={() => onConfirm({ kind: 'rotate', client: item })}>
          {live.length ? 'Rotate secret' : 'New secret'}<span className="sr-only"> of {item.name}</span>
        </Button>
        <Button size="sm" variant="danger" disabled={!online} onClick={() => onConfirm({ kind: 'delete', client: item })}>
          Delete<span className="sr-only"> {item.name}</span>
        </Button>
      </div>
      <RecentRequests clientId={item.id} name={item.name} online={online} />
    </li>
  );
}

function RecentRequests({ clientId, name, online }: { clientId: string; name: string; online: boolean }) {
  const client = useDataClient();
  const [state, setState] = useState<{ rows: ApiClientRequest[] | null; error: string | null; open: boolean }>({ rows: null, error: null, open: false });
  async function toggle() {
    if (state.open) return setState((s) => ({ ...s, open: false }));
    setState({ rows: null, error: null, open: true });
    const r = await client.apiClient(clientId);
    setState(r.ok ? { rows: (r as unknown as { recent_requests: ApiClientRequest[] }).recent_requests, error: null, open: true } : { rows: null, error: errorText(r.error), open: true });
  }
  return (
    <div className="api-requests">
      <Button size="sm" variant="ghost" disabled={!online} aria-expanded={state.open} onClick={() => void toggle()}>
        Recent requests<span className="sr-only"> of {name}</span>
      </Button>
      {state.open && state.error && <FormError message={state.error} />}
      {state.open && !state.error && state.rows === null && <Skeleton height={40} />}
      {state.open && state.rows?.length === 0 && <p className="muted">No requests yet.</p>}
      {state.open && state.rows && state.rows.length > 0 && (
        <div className="api-requests-wrap" tabIndex={0} role="region" aria-label="Recent requests (scrolls sideways)">
          <table className="api-requests-table">
            <caption className="sr-only">Recent requests of {name}</caption>
            <thead><tr><th scope="col">When</th><th scope="col">Call</th><th scope="col">Status</th><th scope="col">Time</th></tr></thead>
            <tbody>
              {state.rows.map((r, i) => (
                <tr key={i}>
                  <td>{formatLocalDateTime(r.at)}</td>
                  <td><code>{r.method} {r.path}</code></td>
                  <td><StatusPill tone={r.status < 400 ? 'ok' : r.status === 429 ? 'warn' : 'danger'}>{r.status}</StatusPill></td>
                  <td>{r.duration_ms} ms</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function CurlExample() {
  const origin = window.location.origin;
  const text = `curl -s -u "$CLIENT_ID:$CLIENT_SECRET" \\
  -d grant_type=client_credentials -d scope=transactions:read \\
  ${origin}/v1/public/token

curl -s -H "Authorization: Bearer $ACCESS_TOKEN" \\
  "${origin}/v1/auth/transactions?page_size=50"`;
  return (
    <section className="section api-curl" aria-labelledby="api-curl-title">
      <h2 id="api-curl-title">Use it</h2>
      <p className="muted">Exchange the client ID and secret for an access token (valid one hour), then send it as a bearer token.</p>
      <pre tabIndex={0} aria-label="Example requests"><code>{text}</code></pre>
    </section>
  );
}
