import { useEffect, useState } from 'react';
import { useAppState, useDataClient } from '../../../data-access/data-context.tsx';
import { Button } from '../../../components/button.tsx';
import { Facts } from '../../../components/facts.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { Skeleton } from '../../../components/skeleton.tsx';
import { StatusPill } from '../../../components/status-pill.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { formatDay } from '../../../lib/format.ts';
import { useSignOut } from '../../../lib/use-sign-out.ts';
import type { FirmApplication } from '../../../../workers/api.ts';
import { ScopePicker } from '../scope-picker.tsx';
import { useConsoleOnline } from './clients-page.tsx';
import { keep, kept } from './console-cache.ts';
import { readAtText } from './console-words.ts';

type Loaded = { application: FirmApplication; at: number; offline: boolean };

const STATUS: Record<FirmApplication['status'], { text: string; tone: 'info' | 'ok' | 'warn' }> = {
  APPLIED: { text: 'Being checked', tone: 'info' },
  MANUAL_REVIEW: { text: 'In review', tone: 'warn' },
  APPROVED: { text: 'Approved', tone: 'ok' },
};

/**
 * `/console/application`: the firm applicant's home (ADVISOR_CONSOLE_APPLICATION): where the
 * firm's application stands and what happens next — approved: switch to the console (or sign in
 * again); in review: what Ledgerline is checking. Offline: as last read on this device.
 */
export function FirmApplicationPage() {
  const client = useDataClient();
  const identityId = useAppState((s) => s.surfaceSession?.identity_id ?? '');
  const online = useConsoleOnline();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void client.consoleFirmApplication().then(async (r) => {
      if (!live) return;
      if (r.ok) {
        const at = Date.now();
        setLoaded({ application: r.application, at, offline: false });
        setError(null);
        void keep(identityId, 'firm-application', r.application, at);
        return;
      }
      const last = await kept<FirmApplication>(identityId, 'firm-application');
      if (!live) return;
      if (last) setLoaded({ application: last.value, at: last.at, offline: true });
      else setError('offline' in r ? 'You’re offline and this device has not read your application yet. It appears once you’re back online.' : errorText(r.error));
    });
    return () => {
      live = false;
    };
  }, [client, identityId, online]);

  return (
    <section className="console-page" aria-labelledby="firm-application-title">
      <div className="page-header">
        <h1 id="firm-application-title">Your firm’s application</h1>
      </div>
      {loaded?.offline && (
        <p className="notice" role="status">
          You’re offline: this is your application as last read on this device ({readAtText(loaded.at)}).
        </p>
      )}
      <FormError message={error} />
      {!loaded && !error && (
        <div aria-busy="true">
          <span className="sr-only">Loading your application…</span>
          <Skeleton height={120} />
        </div>
      )}
      {loaded && <Standing application={loaded.application} online={online && !loaded.offline} />}
    </section>
  );
}

function Standing({ application: a, online }: { application: FirmApplication; online: boolean }) {
  const signOut = useSignOut();
  const [picking, setPicking] = useState(false);
  return (
    <>
      <section className="console-section" aria-labelledby="firm-application-facts">
        <h2 id="firm-application-facts">{a.firm_name}</h2>
        <StatusPill tone={STATUS[a.status].tone}>{STATUS[a.status].text}</StatusPill>
        <Facts rows={[['Applied', formatDay(a.created_at)], ...(a.decided_at ? [['Decided', formatDay(a.decided_at)] as [string, string]] : [])]} />
      </section>
      <section className="console-section" aria-labelledby="firm-application-next">
        <h2 id="firm-application-next">What happens next</h2>
        {a.status === 'APPROVED' && (
          <>
            <p>Your firm is on Ledgerline. Switch to the advisor console to invite your team and propose to your first clients.</p>
            <div className="page-actions">
              <Button variant="primary" disabled={!online} title={online ? undefined : 'Switching needs a connection'} onClick={() => setPicking(true)}>
                Switch to the console
              </Button>
              <Button onClick={() => void signOut(false)}>Sign out and sign in again</Button>
            </div>
          </>
        )}
        {a.status === 'MANUAL_REVIEW' && (
          <>
            <p>Ledgerline is checking your application by hand before your firm can use the console. What we’re checking:</p>
            <ul>
              {(a.reasons.length ? a.reasons : ['The details of your application.']).map((r) => (
                <li key={r}>{r}</li>
              ))}
            </ul>
            <p className="muted">Nothing to do for now: we email you once it’s decided. Then sign in again to open the console.</p>
          </>
        )}
        {a.status === 'APPLIED' && <p>Ledgerline is checking your application. We email you once it’s decided; then sign in again to open the console.</p>}
      </section>
      {picking && <ScopePicker onClose={() => setPicking(false)} />}
    </>
  );
}
