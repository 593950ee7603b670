import { describe, expect, it } from 'vitest';
import type { SyncStatus } from '../data-access/types.ts';
import { syncStatusView, waitingChanges } from '../lib/sync-status-text.ts';
import { syncShortText } from './sync-short-text.ts';

const status = (over: Partial<SyncStatus>): SyncStatus => ({
  phase: 'live', online: true, progress: null, mirrored: true, checkpoint: 10, pending: 0, failed: 0, needsStepUp: 0, leader: true, lastError: null, ...over,
});
const short = (s: SyncStatus, online = true) => syncShortText(syncStatusView(s, online), waitingChanges(s));

describe('syncShortText (the phone’s top bar)', () => {
  it.each([
    ['offline with changes waiting', status({ online: false, pending: 3 }), false, 'Offline · 3 waiting'],
    ['offline, a bulk edit counted by its rows', status({ online: false, pending: 1, pendingItems: 1485 }), false, 'Offline · 1,485 waiting'],
    ['offline with nothing waiting', status({ online: false }), false, 'Offline'],
    ['the server silent', status({ online: false, reachable: false, pending: 2 }), true, 'No server · 2 waiting'],
    ['online, sending', status({ pending: 1 }), true, '1 waiting to sync'],
    ['refused changes', status({ failed: 1, pending: 2 }), true, 'Attention · 2 waiting'],
    ['first mirror', status({ mirrored: false, phase: 'initial', progress: { loaded: 38, total: 100 } }), true, 'Downloading · 38%'],
    ['all synced', status({}), true, 'Synced'],
    ['pulling', status({ phase: 'pulling' }), true, 'Syncing…'],
  ])('%s', (_, s, online, want) => {
    expect(short(s, online)).toBe(want);
  });

  it('fits the room a 360 px top bar leaves (about 25 characters at the indicator’s size)', () => {
    for (const s of [status({ online: false, pending: 12_345 }), status({ online: false, reachable: false, pending: 999 }), status({ failed: 3, pending: 1_234 })]) {
      expect(short(s, s.online).length).toBeLessThanOrEqual(25);
    }
  });
});
