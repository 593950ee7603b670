import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { ScimIntegration } from '../../../schema/api/calls-scim.ts';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { StepUpDialog } from '../../components/step-up-dialog.tsx';
import { useAppState } from '../../data-access/data-context.tsx';
import { errorText } from '../../lib/error-text.ts';
import { formatLocalDateTime } from '../../lib/format.ts';
import { toastError, toastInfo } from '../../lib/toast-store.ts';
import { usePageData } from '../../lib/use-page-data.ts';
import { useSensitiveAction } from '../../lib/use-sensitive-action.ts';

type List = { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready'; items: ScimIntegration[] };

/**
 * Issue 32: Settings → Integrations → SCIM provisioning. The base URL to paste into Okta or Entra,
 * the business's integrations, "Create token" (the token shown once), "Revoke" (asked first).
 * Creating and revoking change who may provision people: the server asks for a step-up.
 */
export function ScimPage() {
  const { client } = usePageData();
  const online = useAppState((s) => s.online);
  const [list, setList] = useState<List>({ state: 'loading' });
  const [name, setName] = useState('');
  const [token, setToken] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<ScimIntegration | null>(null);
  const sensitive = useSensitiveAction();
  const baseUrl = `${window.location.origin}/scim/v2`;

  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  useEffect(() => {
    if (!online) return;
    let live = true;
    void client.scimIntegrations().then((r) => {
      if (live) setList(r.ok ? { state: 'ready', items: r.integrations } : { state: 'error', message: errorText(r.error) });
    });
    return () => { live = false; };
  }, [client, online, version]);

  async function create(e: FormEvent) {
    e.preventDefault();
    await sensitive.run(() => client.putScimIntegration({ name: name.trim() }), (r) => {
      if (!r.ok) { toastError(`The token was not created: ${errorText(r.error)}`); return; }
      setToken((r as unknown as { token: string }).token);
      setName('');
      reload();
    });
  }

  async function revoke(item: ScimIntegration): Promise<boolean> {
    let done = false;
    await sensitive.run(() => client.revokeScimIntegration(item.id), (r) => {
      if (!r.ok) { toastError(`Not revoked: ${errorText(r.error)}`); return; }
      done = true;
      toastInfo(`${item.name} can no longer provision people.`);
      reload();
    });
    return done;
  }

  return (
    <div className="page">
      <div className="page-header"><h1>SCIM provisioning</h1></div>
      <p>
        SCIM lets your identity provider (Okta, Microsoft Entra ID, OneLogin…) add people, keep their names, managers and
        departments up to date, and suspend them when they leave. New people are invited by email.
      </p>
      <p>
        <strong>Base URL</strong> to paste into your identity provider: <code>{baseUrl}</code>{' '}
        <Button onClick={() => void navigator.clipboard.writeText(baseUrl).then(() => toastInfo('Base URL copied.'))}>Copy</Button>
      </p>
      {!online && <p role="status">You’re offline. SCIM integrations are managed online: connect to see or change them.</p>}
      <form onSubmit={(e) => void create(e)} aria-label="Create token">
        <label htmlFor="scim-name">Integration name</label>{' '}
        <input id="scim-name" value={name} maxLength={80} placeholder="Okta" onChange={(e) => setName(e.target.value)} />{' '}
        <Button type="submit" variant="primary" disabled={!online || name.trim() === ''}>Create token</Button>
      </form>
      {token && (
        <div role="alert" className="callout">
          <p><strong>Copy this token now: you won’t see it again.</strong> Paste it as the API token (Bearer) in your identity provider.</p>
          <code>{token}</code>{' '}
          <Button onClick={() => void navigator.clipboard.writeText(token).then(() => toastInfo('Token copied.'))}>Copy</Button>{' '}
          <Button onClick={() => setToken(null)}>Done</Button>
        </div>
      )}
      {online && list.state === 'loading' && <p role="status">Loading integrations…</p>}
      {online && list.state === 'error' && <p role="alert">The integrations could not be loaded: {list.message}</p>}
      {online && list.state === 'ready' && list.items.length === 0 && (
        <EmptyState title="No SCIM integrations yet">Create a token above, then paste it and the base URL into your identity provider.</EmptyState>
      )}
      {list.state === 'ready' && list.items.length > 0 && (
        <ul aria-label="SCIM integrations">
          {list.items.map((i) => (
            <li key={i.id}>
              <strong>{i.name}</strong> · token …{i.token_last_four} · created {formatLocalDateTime(i.created_at)}
              {i.created_by && ` by ${i.created_by.name}`} · {i.last_used_at ? `last used ${formatLocalDateTime(i.last_used_at)}` : 'never used'}{' '}
              <Button disabled={!online} onClick={() => setRevoking(i)}>Revoke</Button>
            </li>
          ))}
        </ul>
      )}
      {revoking && (
        <ConfirmDialog
          title={`Revoke ${revoking.name}?`}
          description="Its token stops working at once: your identity provider can no longer add, change or suspend people. People already provisioned stay."
          confirmLabel="Revoke" tone="danger" onClose={() => setRevoking(null)} onConfirm={() => revoke(revoking)}
        />
      )}
      {sensitive.prompting && <StepUpDialog onDone={sensitive.confirmed} onCancel={sensitive.cancelled} />}
    </div>
  );
}
