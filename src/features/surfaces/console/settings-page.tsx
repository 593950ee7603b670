import { useEffect, useState } from 'react';
import { useAppState, useDataClient } from '../../../data-access/data-context.tsx';
import { Facts } from '../../../components/facts.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { Skeleton } from '../../../components/skeleton.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { formatDay } from '../../../lib/format.ts';
import type { FirmView } from '../../../../workers/api.ts';
import { keep, kept } from './console-cache.ts';
import { readAtText } from './console-words.ts';
import { useConsoleOnline } from './clients-page.tsx';
import { fullName, isFirmAdmin, ROLE_WORDS } from './team-model.ts';
import { LogoSection } from './firm-logo.tsx';

type Loaded = { view: FirmView; at: number; offline: boolean };

/**
 * `/console/settings`: the firm as Ledgerline knows it — its name, since when, its state — your
 * role in it, who its admins are and its logo (admins upload or remove it). Offline: as last read
 * on this device, with its time.
 */
export function FirmSettingsPage() {
  const client = useDataClient();
  const identityId = useAppState((s) => s.surfaceSession?.identity_id ?? '');
  const online = useConsoleOnline();
  const [firm, setFirm] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void client.consoleFirm().then(async (r) => {
      if (!live) return;
      if (r.ok) {
        const at = Date.now();
        setFirm({ view: r.firm, at, offline: false });
        setError(null);
        void keep(identityId, 'firm', r.firm, at);
        return;
      }
      const last = await kept<FirmView>(identityId, 'firm');
      if (!live) return;
      if (last) setFirm({ view: last.value, at: last.at, offline: true });
      else setError('offline' in r ? 'You’re offline and this device has not read your firm yet. It appears once you’re back online.' : errorText(r.error));
    });
    return () => {
      live = false;
    };
  }, [client, identityId, online]);

  return (
    <section className="console-page" aria-labelledby="firm-settings-title">
      <div className="page-header">
        <h1 id="firm-settings-title">Firm settings</h1>
      </div>
      {firm?.offline && (
        <p className="notice" role="status">
          You’re offline: this is your firm as last read on this device ({readAtText(firm.at)}).
        </p>
      )}
      <FormError message={error} />
      {!firm && !error && (
        <div aria-busy="true">
          <span className="sr-only">Loading your firm…</span>
          <Skeleton height={120} />
        </div>
      )}
      {firm && <FirmFacts view={firm.view} />}
      {firm && <LogoSection firmName={firm.view.firm.name} admin={isFirmAdmin(firm.view)} online={online && !firm.offline} />}
    </section>
  );
}

function FirmFacts({ view }: { view: FirmView }) {
  const admins = view.members.filter((m) => m.role === 'EXTERNAL_FIRM_ADMIN');
  const role = ROLE_WORDS[view.me.role];
  return (
    <>
      <section className="console-section" aria-labelledby="firm-facts">
        <h2 id="firm-facts">Your firm</h2>
        <Facts
          rows={[
            ['Name', view.firm.name],
            ['On Ledgerline since', formatDay(view.firm.created_at)],
            ['State', view.firm.status === 'ACTIVE' ? 'Active' : 'Suspended: your clients cannot be opened until Ledgerline lifts it'],
            ['Your role', `${role.name}: ${role.does.charAt(0).toLowerCase()}${role.does.slice(1)}`],
          ]}
        />
      </section>
      <section className="console-section" aria-labelledby="firm-admins">
        <h2 id="firm-admins">{admins.length === 1 ? 'Your firm’s admin' : 'Your firm’s admins'}</h2>
        <p className="muted">
          {isFirmAdmin(view) ? 'Admins invite and remove people, send proposals and see every client of the firm.' : 'Ask an admin to invite someone or to change who works on a client.'}
        </p>
        <ul className="console-list" aria-label="Firm admins">
          {admins.map((m) => (
            <li key={m.id} className="console-row">
              <div className="console-row-main">
                <p className="console-row-title">
                  {fullName(m)}
                  {m.id === view.me.id && <span className="muted"> (you)</span>}
                </p>
                <p className="muted console-row-detail">{m.email}</p>
              </div>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
