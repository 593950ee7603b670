import { useEffect, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useAppState, useDataClient } from '../../../data-access/data-context.tsx';
import { Button } from '../../../components/button.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { Skeleton } from '../../../components/skeleton.tsx';
import { errorText } from '../../../lib/error-text.ts';
import type { FirmClient } from '../../../../workers/api.ts';
import { useFinishScopeSwitch } from '../scope-picker.tsx';
import { keep, kept } from './console-cache.ts';
import { openItemsText, readAtText, rightsText } from './console-words.ts';

type Loaded = { rows: FirmClient[]; next: string | null; at: number; offline: boolean };

/** Whether the page can reach the server now. */
export const useConsoleOnline = (): boolean => useAppState((s) => s.online && (s.status?.online ?? true));

/**
 * `/console`: the firm's clients, a page at a time, each with its open items and the firm's rights
 * there; "Open" switches into the client acting for the firm. Offline: the last list read on this
 * device with its time, and Open says it needs a connection.
 */
export function ClientsPage() {
  const client = useDataClient();
  const identityId = useAppState((s) => s.surfaceSession?.identity_id ?? '');
  const online = useConsoleOnline();
  const finish = useFinishScopeSwitch();
  const [list, setList] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [opening, setOpening] = useState<string | null>(null);
  const [openError, setOpenError] = useState<string | null>(null);
  const [more, setMore] = useState(false);

  useEffect(() => {
    let live = true;
    void client.consoleClients().then(async (r) => {
      if (!live) return;
      if (r.ok) {
        const at = Date.now();
        setList({ rows: r.rows, next: r.next, at, offline: false });
        void keep(identityId, 'clients', r.rows, at);
        return;
      }
      const last = await kept<FirmClient[]>(identityId, 'clients');
      if (!live) return;
      if (last) setList({ rows: last.value, next: null, at: last.at, offline: true });
      else setError('offline' in r ? 'You’re offline and this device has not read your clients yet. They appear once you’re back online.' : errorText(r.error));
    });
    return () => {
      live = false;
    };
  }, [client, identityId, online]);

  async function loadMore() {
    if (!list?.next) return;
    setMore(true);
    const r = await client.consoleClients(list.next);
    setMore(false);
    if (r.ok) setList({ ...list, rows: [...list.rows, ...r.rows], next: r.next });
    else setOpenError(errorText(r.error));
  }

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
      {list?.offline && (
        <p className="notice" role="status">
          You’re offline: this is the list as last read on this device ({readAtText(list.at)}). Opening a client needs a connection.
        </p>
      )}
      <FormError message={openError ?? error} />
      {!list && !error && (
        <div aria-busy="true">
          <span className="sr-only">Loading clients…</span>
          <Skeleton height={56} />
          <Skeleton height={56} />
        </div>
      )}
      {list && list.rows.length === 0 && (
        <EmptyState title="No clients yet" action={<Link to="/console/$" params={{ _splat: 'proposals' }} className="btn btn-primary">Go to proposals</Link>}>
          A business becomes your client when it accepts your firm’s proposal. Send one from Proposals.
        </EmptyState>
      )}
      {list && list.rows.length > 0 && (
        <ul className="console-list" aria-label="Clients">
          {list.rows.map((c) => (
            <li key={c.business_id} className="console-row">
              <div className="console-row-main">
                <h2 className="console-row-title">{c.business_name}</h2>
                <p className="console-row-detail">{openItemsText(c.open_items)}</p>
                <p className="muted console-row-detail">Your firm can: {rightsText(c.rights)}</p>
              </div>
              <Button
                variant="primary"
                loading={opening === c.business_id}
                disabled={!online || list.offline || (opening !== null && opening !== c.business_id)}
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
      {list?.next && (
        <Button loading={more} disabled={!online} onClick={() => void loadMore()}>
          Show more clients
        </Button>
      )}
    </section>
  );
}
