import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createAppStore } from '../data-access/app-state.ts';
import { DataProvider } from '../data-access/data-context.tsx';
import type { DataClient, SyncStatus } from '../data-access/types.ts';
import { SyncIndicator } from './sync-indicator.tsx';

/**
 * The indicator's markup (server renderer): role="status" holds exactly the label the tests wait
 * for (tests/support/browser.ts SYNC_TEXT, anchored), and the phone's short words sit beside it,
 * hidden from assistive tech (phone.css shows them on a phone, the label laid over them).
 */
const SYNC_TEXT = /^\s*(Offline|Can't reach Ledgerline|Connecting|Signed out|[\d,]+ changes? waiting to sync|Downloading for offline use(?: · \d+%)?|Syncing…|All changes synced|Needs attention)\s*$/;
const status = (over: Partial<SyncStatus>): SyncStatus => ({
  phase: 'live', online: true, progress: null, mirrored: true, checkpoint: 10, pending: 0, failed: 0, needsStepUp: 0, leader: true, lastError: null, ...over,
});

function render(s: SyncStatus, online: boolean) {
  const store = createAppStore(online);
  store.set({ status: s });
  return renderToStaticMarkup(
    <DataProvider client={{} as DataClient} store={store}>
      <SyncIndicator />
    </DataProvider>,
  );
}
const roleStatus = (html: string) => /<span role="status"[^>]*>(.*?)<\/span>/.exec(html)?.[1] ?? null;
const short = (html: string) => /<span class="sync-short" aria-hidden="true">(.*?)<\/span>/.exec(html)?.[1] ?? null;

describe('SyncIndicator', () => {
  it('offline with changes waiting: "Offline" for the tests, "Offline · 3 waiting" for the phone', () => {
    const html = render(status({ online: false, pending: 3 }), false);
    expect(roleStatus(html)).toMatch(SYNC_TEXT);
    expect(roleStatus(html)).toBe('Offline');
    expect(short(html)).toBe('Offline · 3 waiting');
    expect(html).toContain('3 changes waiting to sync');
  });

  it('online and sending: the full count in the status, the short one beside it', () => {
    const html = render(status({ pending: 2 }), true);
    expect(roleStatus(html)).toBe('2 changes waiting to sync');
    expect(short(html)).toBe('2 waiting to sync');
  });
});
