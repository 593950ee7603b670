import { useCallback } from 'react';
import { ListStatus } from '../../components/online-list-status.tsx';
import { Section } from '../../components/section.tsx';
import { useOnlineList } from '../../lib/use-online-list.ts';
import { ConnectionSection } from './connection-section.tsx';
import { ManualMatchSection } from './manual-match-section.tsx';
import { MappingRulesSection } from './mapping-rules-section.tsx';
import { SyncHistory, SyncSection } from './sync-section.tsx';
import { useAccountingPage } from './use-accounting-page.ts';

const OFFLINE_BODY =
  'The accounting connection, sync commits and mapping rules are kept on the server, not on this device, so nothing of them is shown while you’re offline. You can still code transactions: they sync when you are back online.';

/**
 * Issue 12 §7 Accounting: /accounting, what a bookkeeper uses at month end. The file-based
 * provider (connected, changed, disconnected) and its QuickBooks account names; "Sync now", which
 * exports every coded, approved, not-yet-synced item in one commit; the commits with their files
 * to download; the mapping rules that code new spend; and a manual reconciliation match. All of
 * it is server-only: offline the page says so and shows nothing as if it were current.
 */
export function AccountingPage() {
  const { client, online, reference, vendorName, vendorOptions } = useAccountingPage();
  const { list: currentList, reload: reloadCurrent } = useOnlineList(online, 'current', useCallback(async () => {
    const r = await client.accountingCurrent();
    return r.ok ? { ok: true as const, rows: [r.current] } : r;
  }, [client]));
  const { list: commits, reload: reloadCommits } = useOnlineList(online, 'commits', useCallback(async () => {
    const r = await client.syncCommits();
    return r.ok ? { ok: true as const, rows: r.commits } : r;
  }, [client]));
  const current = currentList.state === 'ready' ? currentList.rows[0] ?? null : null;

  return (
    <div className="accounting-page">
    <div className="accounting">
      <div className="page-header">
        <h1>Accounting</h1>
      </div>
      <p className="muted accounting-lead">
        Send coded, approved spend to your accounting system as files it imports, and keep the rules that code new spend for you.
      </p>
      {currentList.state !== 'ready' ? (
        <ListStatus list={currentList} what="Accounting settings" offlineBody={OFFLINE_BODY} online={online} onRetry={reloadCurrent} />
      ) : current ? (
        <>
          <ConnectionSection client={client} current={current} reference={reference} online={online} onChanged={reloadCurrent} />
          <SyncSection client={client} current={current} online={online} onSynced={() => { reloadCommits(); reloadCurrent(); }} />
          <Section title="Sync history" description="Every sync commit, newest first, with the files it produced. Download a file again at any time.">
            <ListStatus list={commits} what="Sync commits" offlineBody={OFFLINE_BODY} online={online} onRetry={reloadCommits} />
            {commits.state === 'ready' && (
              <SyncHistory client={client} commits={commits.rows} reference={reference} online={online} />
            )}
          </Section>
          <MappingRulesSection client={client} online={online} reference={reference} vendorName={vendorName} vendorOptions={vendorOptions} />
          <ManualMatchSection client={client} online={online} />
        </>
      ) : null}
    </div>
    </div>
  );
}
