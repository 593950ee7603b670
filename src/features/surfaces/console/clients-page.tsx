import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useAppState, useDataClient } from '../../../data-access/data-context.tsx';
import { Button } from '../../../components/button.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { Skeleton } from '../../../components/skeleton.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { usePagedQuery } from '../../../lib/use-paged-query.ts';
import { Pager } from '../../../components/pager.tsx';
import type { FirmClient } from '../../../../workers/api.ts';
import { useFinishScopeSwitch } from '../scope-picker.tsx';
import { keep, kept } from './console-cache.ts';
import { openItemsText, readAtText, rightsText } from './console-words.ts';

/** The worker's page of clients (handlers/advisor-console.ts CLIENTS_PAGE_SIZE). */
const CLIENTS_PAGE_SIZE = 25;
const OFFLINE_FIRST_READ = 'You’re offline and this device has not read your clients yet. They appear once you’re back online.';

/** Whether the page can reach the server now. */
export const useConsoleOnline = (): boolean => useAppState((s) => s.online && (s.status?.online ?? true));

/**
 * `/console`: the firm's clients, a page at a time (Previous/Next), each with its open items and the firm's rights
 * there; "Open" switches into the client acting for the firm. Offline: the last list read on this
 * device with its time, and Open says it needs a connection.
 */
export function ClientsPage() {
  const client = useDataClient();
  const identityId = useAppState((s) => s.surfaceSession?.identity_id ?? '');
  const online = useConsoleOnline();
  const finish = useFinishScopeSwitch();
  const [opening, setOpening] = useState<string | null>(null);
  const [openError, setOpenError] = useState<string | null>(null);
  // A page at a time (`usePagedQuery`); the first page is kept for offline, and shown then with its time.
  const paged = usePagedQuery<FirmClient>({
    search: { identity: identityId },
    pageSize: CLIENTS_PAGE_SIZE,
    online,
    readOffline: true,
    load: async ({ start }) => {
      const r = await client.consoleClients(start);
      if (r.ok) {
        if (!start) void keep(identityId, 'clients', r.rows, Date.now());
        return r;
      }
      const last = !start && 'offline' in r ? await kept<FirmClient[]>(identityId, 'clients') : null;
      if (last) return { ok: true, rows: last.value, next: null, readAt: last.at };
      return r;
    },
  });
  const { list: page, reload } = paged;
  const offlineAt = page.state === 'ready' && typeof page.readAt === 'number' ? page.readAt : null;
  const rows = page.state === 'ready' ? page.rows : [];

  async function openClient(c: FirmClient) {
    setOpening(c.business_id);
    setOpenError(null);
    const r = await client.openClient(c.business_id);
    setOpening(null);
    if (r.ok) await finish(r.session, null);
    else setOpenError(`${c.business_name} could not be opened: ${errorText(r.error)}`);
  }

  return (
    <section className="console-page" aria-labelledby="console-title">
      <div className="page-header">
        <h1 id="console-title">Clients</h1>
      </div>
      {offlineAt !== null && (
        <p className="notice" role="status">
          You’re offline: this is the list as last read on this device ({readAtText(offlineAt)}). Opening a client needs a connection.
        </p>
      )}
      <FormError message={openError ?? (page.state === 'error' || page.state === 'offline' ? (page.state === 'error' ? page.message : paged.pageIndex > 0 ? 'You’re offline. This page of clients loads once you’re back online.' : OFFLINE_FIRST_READ) : null)} />
      {page.state === 'error' && online && <Button size="sm" onClick={reload}>Try again</Button>}
      {page.state === 'loading' && (
        <div aria-busy="true">
          <span className="sr-only">Loading clients…</span>
          <Skeleton height={56} />
          <Skeleton height={56} />
        </div>
      )}
      {page.state === 'ready' && rows.length === 0 && paged.pageIndex === 0 && (
        <EmptyState title="No clients yet" action={<Link to="/console/$" params={{ _splat: 'proposals' }} className="btn btn-primary">Go to proposals</Link>}>
          A business becomes your client when it accepts your firm’s proposal. Send one from Proposals.
        </EmptyState>
      )}
      {rows.length > 0 && (
        <ul className="console-list" aria-label="Clients">
          {rows.map((c) => (
            <li key={c.business_id} className="console-row">
              <div className="console-row-main">
                <h2 className="console-row-title">{c.business_name}</h2>
                <p className="console-row-detail">{openItemsText(c.open_items)}</p>
                <p className="muted console-row-detail">Your firm can: {rightsText(c.rights)}</p>
              </div>
              <Button
                variant="primary"
                loading={opening === c.business_id}
                disabled={!online || offlineAt !== null || (opening !== null && opening !== c.business_id)}
                aria-label={`Open ${c.business_name}`}
                title={online ? undefined : 'Opening a client needs a connection'}
                onClick={() => void openClient(c)}
              >
                {online ? 'Open' : 'Open (needs a connection)'}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <Pager paged={paged} what="Clients" disabled={!online} />
    </section>
  );
}
