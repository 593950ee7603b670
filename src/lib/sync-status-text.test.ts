import { describe, expect, it } from 'vitest';
import type { SyncStatus } from '../data-access/types.ts';
import { downloadingEmptyText, mirrorProgress, partialResultsText, syncStatusView, waitingChanges, waitingText } from './sync-status-text.ts';

const status = (over: Partial<SyncStatus> = {}): SyncStatus => ({
  phase: 'live',
  online: true,
  progress: null,
  mirrored: true,
  checkpoint: 10,
  pending: 0,
  failed: 0,
  needsStepUp: 0,
  leader: true,
  lastError: null,
  ...over,
});

describe('syncStatusView', () => {
  it.each([
    ['page offline', status(), false, 'offline', 'Offline'],
    ['worker offline, edits waiting', status({ online: false, pending: 3 }), true, 'offline', 'Offline'],
    ['synced', status(), true, 'synced', 'All changes synced'],
    ['first mirror at 2,000 of 20,149', status({ phase: 'initial', mirrored: false, progress: { loaded: 2000, total: 20149 } }), true, 'downloading', 'Downloading for offline use · 9%'],
    ['first mirror, live but not complete', status({ mirrored: false }), true, 'downloading', 'Downloading for offline use'],
    ['first mirror resumed without a total', status({ phase: 'pulling', mirrored: false, progress: { loaded: 0, total: 0 } }), true, 'downloading', 'Downloading for offline use'],
    ['pending', status({ pending: 3 }), true, 'waiting', '3 changes waiting to sync'],
    ['one pending', status({ pending: 1 }), true, 'waiting', '1 change waiting to sync'],
    ['pending during the first mirror', status({ pending: 1, mirrored: false, phase: 'initial' }), true, 'waiting', '1 change waiting to sync'],
    ['failed beats pending', status({ pending: 1, failed: 2 }), true, 'attention', 'Needs attention'],
    ['step-up only', status({ needsStepUp: 1 }), true, 'attention', 'Needs attention'],
    ['pulling after an announcement', status({ phase: 'pulling' }), true, 'syncing', 'Syncing…'],
    ['last pull failed', status({ phase: 'error', lastError: 'Service unavailable' }), true, 'syncing', 'Syncing…'],
    ['engine not started', status({ phase: 'idle' }), true, 'syncing', 'Syncing…'],
    ['no status yet', null, true, 'connecting', 'Connecting'],
    ['no status yet, offline', null, false, 'offline', 'Offline'],
    ['signed out', status({ phase: 'signed_out' }), true, 'signed_out', 'Signed out'],
    ['a network, the server silent (captive portal, no internet)', status({ online: false, phase: 'offline', reachable: false }), false, 'unreachable', "Can't reach Ledgerline"],
    ['the server silent, edits waiting', status({ online: false, phase: 'offline', reachable: false, pending: 2 }), false, 'unreachable', "Can't reach Ledgerline"],
    ['back online, not answered yet', status({ online: false, phase: 'offline' }), true, 'offline', 'Offline'],
  ] as const)('%s → %s', (_name, s, online, state, label) => {
    expect(syncStatusView(s, online)).toMatchObject({ state, label });
  });

  it('never says "All changes synced" while the first mirror runs, waits or the last pull failed', () => {
    const notSynced = [
      status({ mirrored: false }),
      status({ phase: 'initial', mirrored: false, progress: { loaded: 2000, total: 20149 } }),
      status({ pending: 1 }),
      status({ phase: 'error' }),
      status({ phase: 'pulling' }),
    ];
    for (const s of notSynced) expect(syncStatusView(s, true).label).not.toBe('All changes synced');
  });

  it('says why and what to do', () => {
    expect(syncStatusView(status({ failed: 1 }), true).detail).toBe(
      '1 change was not saved by the server: open the list to see why, then retry or discard.',
    );
    expect(syncStatusView(status({ online: false, pending: 2 }), true).detail).toContain('2 changes waiting to sync: saved on this device');
    expect(syncStatusView(status({ phase: 'error', lastError: 'Service unavailable' }), true).detail).toBe(
      "Can't reach the server (Service unavailable); retrying.",
    );
    expect(syncStatusView(status({ phase: 'initial', mirrored: false, progress: { loaded: 2000, total: 20149 } }), true).detail).toBe(
      '2,000 of 20,149 records on this device; you can work with what has arrived.',
    );
    expect(syncStatusView(status(), true).detail).toBe('Ready offline: everything is on this device.');
    const silent = syncStatusView(status({ online: false, phase: 'offline', reachable: false, pending: 2 }), false).detail;
    expect(silent).toContain('Ledgerline does not answer (a Wi-Fi sign-in page, or a network without internet)');
    expect(silent).toContain('2 changes waiting to sync: saved on this device, sent once it answers.');
  });
});

describe('partialResultsText', () => {
  const partial = status({ phase: 'initial', mirrored: false, progress: { loaded: 2000, total: 20149 } });
  it.each([
    ['complete', status(), 50, false, null],
    ['no status', null, 50, false, null],
    ['signed out', status({ phase: 'signed_out', mirrored: false }), 50, false, null],
    ['default view', partial, 1852, false, 'Showing 1,852 transactions downloaded so far (2,000 of 20,149 records so far): older ones are still downloading.'],
    ['search', partial, 3, true, 'Showing 3 matching transactions from the data downloaded so far (2,000 of 20,149 records so far): older ones are still downloading and may match too.'],
    ['no progress known', status({ mirrored: false, phase: 'offline', online: false }), 1, false, 'Showing 1 transaction downloaded so far: older ones are still downloading.'],
  ] as const)('%s', (_name, s, shown, filtered, expected) => {
    expect(partialResultsText(s, shown, filtered)).toBe(expected);
  });
  it('names what another list holds', () => {
    expect(partialResultsText(partial, 2, false, ['reimbursement', 'reimbursements'])).toBe(
      'Showing 2 reimbursements downloaded so far (2,000 of 20,149 records so far): older ones are still downloading.',
    );
  });
});

describe('mirrorProgress', () => {
  it.each([
    [null, null],
    [status({ phase: 'live', progress: { loaded: 5, total: 10 } }), null],
    [status({ phase: 'initial', progress: null }), null],
    [status({ phase: 'offline', progress: { loaded: 5, total: 10 } }), null],
    [status({ phase: 'pulling', progress: { loaded: 5, total: 10 } }), { loaded: 5, total: 10, percent: 50 }],
    [status({ phase: 'initial', progress: { loaded: 2500, total: 10000 } }), { loaded: 2500, total: 10000, percent: 25 }],
    [status({ phase: 'initial', progress: { loaded: 0, total: 0 } }), { loaded: 0, total: 0, percent: 0 }],
    [status({ phase: 'initial', progress: { loaded: 12, total: 10 } }), { loaded: 10, total: 10, percent: 100 }],
  ] as const)('%#', (s, expected) => {
    expect(mirrorProgress(s)).toEqual(expected);
  });
});

describe('waitingText', () => {
  it.each([
    [1, '1 change waiting to sync'],
    [2, '2 changes waiting to sync'],
    [12000, '12,000 changes waiting to sync'],
  ])('%s → %s', (n, expected) => {
    expect(waitingText(n)).toBe(expected);
  });
});

describe('waitingChanges (issue 25: a bulk edit counts its rows)', () => {
  it('reads the rows the pending entries change, not the entries', () => {
    expect(waitingChanges({ pending: 1, pendingItems: 1485 })).toBe(1485);
    expect(waitingText(waitingChanges({ pending: 1, pendingItems: 1485 }))).toBe('1,485 changes waiting to sync');
  });
  it('falls back to the entries for a status stored before the count, and is 0 without a status', () => {
    expect(waitingChanges({ pending: 3 })).toBe(3);
    expect(waitingChanges(null)).toBe(0);
  });
});

describe('downloadingEmptyText (issue 25: an empty list during the first download says so, never "No … match")', () => {
  const base = { phase: 'initial' as const, online: true, mirrored: false, checkpoint: 0, pending: 0, failed: 0, needsStepUp: 0, leader: true, lastError: null };
  it('says it is downloading with the share of records arrived', () => {
    expect(downloadingEmptyText({ ...base, progress: { loaded: 4_200, total: 10_000 } })).toEqual({
      title: 'Downloading your data for offline use · 42%',
      body: '4,200 of 10,000 records are on this device so far. Nothing here has arrived yet; this list fills in as the download goes on.',
    });
    expect(downloadingEmptyText({ ...base, progress: null })?.title).toBe('Downloading your data for offline use…');
  });
  it('offline: the download resumes online', () => {
    expect(downloadingEmptyText({ ...base, phase: 'offline', online: false, progress: { loaded: 1, total: 4 } })?.title).toBe('Only part of your data is on this device · 25%');
  });
  it('null once the mirror is complete, or signed out: the list says "No … match" then', () => {
    expect(downloadingEmptyText({ ...base, phase: 'live', mirrored: true, progress: null })).toBeNull();
    expect(downloadingEmptyText({ ...base, phase: 'signed_out', progress: null })).toBeNull();
    expect(downloadingEmptyText(null)).toBeNull();
  });
});
