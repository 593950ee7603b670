import { describe, expect, it } from 'vitest';
import type { SyncStatus } from '../data-access/types.ts';
import { mirrorProgress, syncIndicatorText, syncTone, waitingText } from './sync-text.ts';

const status = (over: Partial<SyncStatus> = {}): SyncStatus => ({
  phase: 'live',
  online: true,
  progress: null,
  checkpoint: 10,
  pending: 0,
  failed: 0,
  needsStepUp: 0,
  leader: true,
  lastError: null,
  ...over,
});

describe('syncIndicatorText', () => {
  it.each([
    ['page offline', status(), false, 'Offline'],
    ['worker offline', status({ online: false, pending: 3 }), true, 'Offline'],
    ['synced', status(), true, 'All changes synced'],
    ['pending', status({ pending: 3 }), true, '3 pending'],
    ['pending beats failed', status({ pending: 1, failed: 2 }), true, '1 pending'],
    ['failed only', status({ failed: 2 }), true, 'Sync needs attention'],
    ['step-up only', status({ needsStepUp: 1 }), true, 'Sync needs attention'],
    ['no status yet', null, true, 'Connecting'],
    ['no status yet, offline', null, false, 'Offline'],
    ['signed out', status({ phase: 'signed_out' }), true, 'Signed out'],
  ] as const)('%s → %s', (_name, s, online, expected) => {
    expect(syncIndicatorText(s, online)).toBe(expected);
  });
});

describe('syncTone', () => {
  it.each([
    [status(), true, 'ok'],
    [status(), false, 'offline'],
    [status({ pending: 1 }), true, 'busy'],
    [status({ phase: 'initial' }), true, 'busy'],
    [status({ failed: 1 }), true, 'error'],
  ] as const)('%j online=%s → %s', (s, online, expected) => {
    expect(syncTone(s, online)).toBe(expected);
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
