import type { SyncStatus } from '../data-access/types.ts';

/**
 * What the sync indicator says. The three phrases are fixed by issue 2 (tests and assistive
 * tech look for them): "Offline", "All changes synced", "N pending".
 */
export function syncIndicatorText(status: SyncStatus | null, pageOnline: boolean): string {
  if (!pageOnline || (status !== null && !status.online)) return 'Offline';
  if (status === null) return 'Connecting';
  if (status.phase === 'signed_out') return 'Signed out';
  if (status.pending > 0) return `${status.pending} pending`;
  if (status.failed === 0 && status.needsStepUp === 0) return 'All changes synced';
  // Only refused or parked commands are left: they are shown beside the indicator with actions.
  return 'Sync needs attention';
}

/** Tone for the indicator's dot. */
export function syncTone(status: SyncStatus | null, pageOnline: boolean): 'offline' | 'busy' | 'ok' | 'error' {
  if (!pageOnline || (status !== null && !status.online)) return 'offline';
  if (status === null || status.pending > 0 || status.phase === 'initial' || status.phase === 'pulling') return 'busy';
  if (status.failed > 0 || status.needsStepUp > 0 || status.phase === 'error') return 'error';
  return 'ok';
}

/** First-mirror progress for the progress bar, or null when no first mirror is running. */
export function mirrorProgress(status: SyncStatus | null): { loaded: number; total: number; percent: number } | null {
  // The engine reports progress only while a first mirror runs; offline, the bar would stall.
  if (!status?.progress || (status.phase !== 'initial' && status.phase !== 'pulling')) return null;
  const { loaded, total } = status.progress;
  const percent = total > 0 ? Math.min(100, Math.round((loaded / total) * 100)) : 0;
  return { loaded: Math.min(loaded, total), total, percent };
}

/** Beside "Offline": how many edits wait on this device for the connection. */
export const waitingText = (pending: number): string =>
  pending === 1 ? '1 change waiting to sync' : `${pending.toLocaleString('en-US')} changes waiting to sync`;
