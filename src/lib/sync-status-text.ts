import type { SyncStatus } from '../data-access/types.ts';
import { formatCount } from './format.ts';

/**
 * What the sync indicator says, from the worker's SyncStatus alone (issue 8: truthful status).
 * `label` is the indicator's role="status" text (tests and bench wait for these words, see
 * tests/support/browser.ts SYNC_TEXT); `detail` says why and what to do, beside it.
 *
 * Order: Can't reach Ledgerline (a network, but the server does not answer: `reachable` false,
 * sync/reachability.ts) › Offline › Signed out › Needs attention (refused or parked changes) › N changes waiting
 * to sync › Downloading for offline use (first mirror) › Syncing… (a pull runs, or the last one
 * failed and is retried) › All changes synced (first mirror complete, nothing waits, last pull
 * succeeded: phase `live`).
 */
export type SyncState = 'connecting' | 'offline' | 'unreachable' | 'signed_out' | 'attention' | 'waiting' | 'downloading' | 'syncing' | 'synced';
export type SyncTone = 'offline' | 'busy' | 'ok' | 'error';

export interface SyncView {
  state: SyncState;
  label: string;
  detail: string | null;
  tone: SyncTone;
}

const fmt = formatCount;

/** "N changes waiting to sync" (the indicator's words for edits not yet on the server). */
export const waitingText = (pending: number): string =>
  pending === 1 ? '1 change waiting to sync' : `${fmt(pending)} changes waiting to sync`;

/**
 * How many changes wait to sync, as the person counts them: a bulk edit of 1,485 rows is 1,485
 * changes (`pendingItems`), not the one outbox entry it is (issue 25). A status stored before
 * the count existed falls back to the entries.
 */
export const waitingChanges = (status: Pick<SyncStatus, 'pending' | 'pendingItems'> | null): number =>
  status ? Math.max(status.pendingItems ?? status.pending, status.pending) : 0;

/** First-mirror progress while it runs online (for the progress bar and the partial-results notice). */
export function mirrorProgress(status: SyncStatus | null): { loaded: number; total: number; percent: number } | null {
  // The engine reports progress only while a first mirror runs; offline, the bar would stall.
  if (!status?.progress || (status.phase !== 'initial' && status.phase !== 'pulling')) return null;
  const { loaded, total } = status.progress;
  const percent = total > 0 ? Math.min(100, Math.floor((loaded / total) * 100)) : 0;
  return { loaded: Math.min(loaded, total), total, percent };
}

/** Whether this device holds only part of the data (the first mirror has not completed). */
export const isPartial = (status: SyncStatus | null): boolean => status !== null && status.phase !== 'signed_out' && !status.mirrored;

export function syncStatusView(status: SyncStatus | null, pageOnline: boolean): SyncView {
  const attention = (status?.failed ?? 0) + (status?.needsStepUp ?? 0);
  const pending = waitingChanges(status);
  if (status?.reachable === false) {
    const parts = [
      'Your device has a network, but Ledgerline does not answer (a Wi-Fi sign-in page, or a network without internet).',
      pending > 0 ? `${waitingText(pending)}: saved on this device, sent once it answers.` : null,
      attention > 0 ? attentionText(attention) : null,
    ].filter((p): p is string => p !== null);
    return { state: 'unreachable', label: "Can't reach Ledgerline", detail: parts.join(' '), tone: 'offline' };
  }
  if (!pageOnline || (status !== null && !status.online)) {
    const parts = [
      pending > 0 ? `${waitingText(pending)}: saved on this device, sent when you are back online.` : null,
      attention > 0 ? attentionText(attention) : null,
      status && !status.mirrored ? 'Only part of your data is on this device yet; the download resumes online.' : null,
    ].filter((p): p is string => p !== null);
    return { state: 'offline', label: 'Offline', detail: parts.join(' ') || (status ? 'Ready offline: your data is on this device.' : null), tone: 'offline' };
  }
  if (status === null) return { state: 'connecting', label: 'Connecting', detail: null, tone: 'busy' };
  if (status.phase === 'signed_out') {
    return { state: 'signed_out', label: 'Signed out', detail: 'Sign in again to sync. Your changes stay on this device.', tone: 'offline' };
  }
  if (attention > 0) {
    const waiting = pending > 0 ? ` ${waitingText(pending)}.` : '';
    return { state: 'attention', label: 'Needs attention', detail: attentionText(attention) + waiting, tone: 'error' };
  }
  const failing = status.phase === 'error' ? `Can't reach the server${status.lastError ? ` (${status.lastError})` : ''}; retrying.` : null;
  if (pending > 0) return { state: 'waiting', label: waitingText(pending), detail: failing ?? 'Sending to the server…', tone: 'busy' };
  if (!status.mirrored) {
    const progress = status.progress && status.progress.total > 0 ? status.progress : null;
    const percent = progress ? Math.min(100, Math.floor((progress.loaded / progress.total) * 100)) : null;
    return {
      state: 'downloading',
      label: percent === null ? 'Downloading for offline use' : `Downloading for offline use · ${percent}%`,
      detail:
        failing ??
        (progress
          ? `${fmt(Math.min(progress.loaded, progress.total))} of ${fmt(progress.total)} records on this device; you can work with what has arrived.`
          : 'Your data is being copied to this device.'),
      tone: failing ? 'error' : 'busy',
    };
  }
  if (status.phase !== 'live') return { state: 'syncing', label: 'Syncing…', detail: failing, tone: failing ? 'error' : 'busy' };
  return { state: 'synced', label: 'All changes synced', detail: 'Ready offline: everything is on this device.', tone: 'ok' };
}

function attentionText(n: number): string {
  const what = n === 1 ? '1 change was not saved by the server' : `${fmt(n)} changes were not saved by the server`;
  return `${what}: open the list to see why, then retry or discard.`;
}

/**
 * The table's notice while the first mirror runs: results come only from what has arrived.
 * `shown`: the query's total; `filtered`: a filter or search narrows it.
 */
export function partialResultsText(
  status: SyncStatus | null,
  shown: number,
  filtered: boolean,
  nouns: readonly [one: string, many: string] = ['transaction', 'transactions'],
): string | null {
  if (!isPartial(status)) return null;
  const progress = status?.progress && status.progress.total > 0 ? status.progress : null;
  const share = progress ? ` (${fmt(Math.min(progress.loaded, progress.total))} of ${fmt(progress.total)} records so far)` : '';
  const noun = shown === 1 ? nouns[0] : nouns[1];
  return filtered
    ? `Showing ${fmt(shown)} matching ${noun} from the data downloaded so far${share}: older ones are still downloading and may match too.`
    : `Showing ${fmt(shown)} ${noun} downloaded so far${share}: older ones are still downloading.`;
}

/**
 * What an empty list says while the first mirror is still downloading (issue 25: never "No …
 * match" before the data is here): that it is downloading, with the share of records arrived
 * (rows so far of the total the first page announced); offline, that the download resumes
 * online. Null once the mirror is complete (or signed out): the list's own empty words hold then.
 */
export function downloadingEmptyText(status: SyncStatus | null): { title: string; body: string } | null {
  if (!isPartial(status)) return null;
  const progress = status?.progress && status.progress.total > 0 ? status.progress : null;
  const loaded = progress ? Math.min(progress.loaded, progress.total) : 0;
  const percent = progress ? Math.min(100, Math.floor((loaded / progress.total) * 100)) : null;
  const share = progress ? `${fmt(loaded)} of ${fmt(progress.total)} records are on this device so far. ` : '';
  if (!status?.online) {
    return {
      title: percent === null ? 'Only part of your data is on this device' : `Only part of your data is on this device · ${percent}%`,
      body: `${share}Nothing here has arrived yet; the download resumes when you are back online.`,
    };
  }
  return {
    title: percent === null ? 'Downloading your data for offline use…' : `Downloading your data for offline use · ${percent}%`,
    body: `${share}Nothing here has arrived yet; this list fills in as the download goes on.`,
  };
}
