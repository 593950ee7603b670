import { useCallback, useMemo, useState } from 'react';
import type { SsoProvider } from '../../../../schema/api/calls-sso.ts';
import { Button } from '../../../components/button.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ListStatus } from '../../../components/online-list-status.tsx';
import { useAppState, useDataClient } from '../../../data-access/data-context.tsx';
import { useOnlineList } from '../../../lib/use-online-list.ts';
import { TeamNav } from '../team-nav.tsx';
import { ProviderCard } from './provider-card.tsx';
import { AddProviderDialog } from './provider-dialog.tsx';

const OFFLINE_BODY =
  'Identity providers are set up on the server, not on this device, so they cannot be shown or changed while you’re offline. People who already signed in stay signed in.';

/**
 * Issue 14: /team/sso, single sign-on for the admin. One identity provider per email domain
 * (SAML or OpenID Connect), added as a draft, then enabled, then — once someone has signed in
 * through it — enforced. Server-only: offline the page says so and shows nothing as if current.
 */
export function SsoPage() {
  const client = useDataClient();
  const online = useAppState((s) => s.online);
  const { list, reload } = useOnlineList(online, 'sso-providers', useCallback(async () => {
    const r = await client.ssoProviders();
    return r.ok ? { ok: true as const, rows: r.providers } : r;
  }, [client]));
  const [adding, setAdding] = useState(false);
  // A call's answer shows at once, until the list read after it arrives (a new rows array).
  const [overlay, setOverlay] = useState<{ base: SsoProvider[] | null; changes: Record<string, SsoProvider | null> }>({ base: null, changes: {} });
  const listed = list.state === 'ready' ? list.rows : null;
  const rows = useMemo(() => {
    if (!listed) return [];
    const byId = new Map(listed.map((p) => [p.id, p]));
    if (overlay.base === listed) {
      for (const [id, p] of Object.entries(overlay.changes)) {
        if (p) byId.set(id, p);
        else byId.delete(id);
      }
    }
    return [...byId.values()].sort((a, b) => a.domain.localeCompare(b.domain));
  }, [listed, overlay]);
  const onChanged = (id: string, p: SsoProvider | null) => {
    setOverlay((o) => ({ base: listed, changes: o.base === listed ? { ...o.changes, [id]: p } : { [id]: p } }));
    reload();
  };

  const addButton = (
    <Button variant="primary" onClick={() => setAdding(true)} disabled={!online}>
      Add identity provider
    </Button>
  );

  return (
    <div className="sso-page">
      <div className="sso">
        <TeamNav current="/team/sso" />
        <div className="page-header">
          <h1>Single sign-on</h1>
          <span className="spacer" />
          {list.state === 'ready' && rows.length > 0 && addButton}
        </div>
        <p className="muted sso-lead">
          Let people sign in with your company’s identity provider (Okta, Microsoft Entra ID, Google Workspace…), by SAML or OpenID Connect, one provider per email domain.
        </p>
        {!online && list.state !== 'offline' && (
          <p className="notice notice-warn">You’re offline. Changing single sign-on needs a connection.</p>
        )}
        <ListStatus list={list} what="Identity providers" offlineBody={OFFLINE_BODY} online={online} onRetry={reload} />
        {list.state === 'ready' && rows.length === 0 && (
          <EmptyState title="No identity provider yet" action={addButton}>
            With single sign-on, people on your email domain sign in through your company’s identity provider instead of a Ledgerline password, and leave when they leave it.
          </EmptyState>
        )}
        {rows.length > 0 && (
          <ul className="sso-list" aria-label="Identity providers" aria-busy={list.state === 'ready' && list.refreshing ? true : undefined}>
            {rows.map((p) => (
              <li key={p.id}>
                <ProviderCard client={client} provider={p} online={online} onChanged={(next) => onChanged(p.id, next)} />
              </li>
            ))}
          </ul>
        )}
        {adding && (
          <AddProviderDialog client={client} onClose={() => setAdding(false)} onCreated={(p) => onChanged(p.id, p)} />
        )}
      </div>
    </div>
  );
}
