import type { SyncStatus } from '../data-access/types.ts';
import { syncStatusView, type SyncTone } from '../lib/sync-status-text.ts';

/** The indicator's words and tone now come from one pure function (src/lib/sync-status-text.ts). */
export { mirrorProgress, waitingText } from '../lib/sync-status-text.ts';

export const syncIndicatorText = (status: SyncStatus | null, pageOnline: boolean): string => syncStatusView(status, pageOnline).label;

export const syncTone = (status: SyncStatus | null, pageOnline: boolean): SyncTone => syncStatusView(status, pageOnline).tone;
