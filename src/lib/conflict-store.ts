import { createStore } from '../data-access/store.ts';

/**
 * Issue 24: which conflicted change the conflict drawer shows (an outbox entry's id), or null.
 * Opened from a row's sync mark, the sync indicator's list and the row's drawer; the shell
 * renders the drawer (app/conflict-host.tsx).
 */
export const conflictStore = createStore<{ open: string | null }>({ open: null });

export const openConflict = (entryId: string): void => conflictStore.set({ open: entryId });
export const closeConflict = (): void => conflictStore.set({ open: null });

/** The words that open it, everywhere. */
export const REVIEW_CHANGES = 'Review changes';
