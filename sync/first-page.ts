import { syncChanges } from '../schema/api/calls.ts';
import { SYNC_BATCH_DEFAULT } from '../schema/constants.ts';
import type { ChangesResponse } from '../schema/sync-feed.ts';
import type { HttpClient, HttpResult } from './http.ts';
import { FIRST_PAGE_MARKS, markFirstPage } from './first-page-marks.ts';
import { firstWalkQuery, sameQuery, type FeedQuery } from './puller-reducer.ts';

export type FeedAnswer = HttpResult<ChangesResponse>;

/**
 * Issue 33: a first sign-in's first feed page, asked as soon as the token is known. The list waits
 * for that page, and before this it was asked only after identity, the stored session, the
 * mirror's open, the leader's lock, the stream's open and the checkpoint's read, one after the
 * other (≈ 300 ms of a 1 s budget). The worker asks it early only for a mirror it knows is fresh
 * (workers/mirror-host.ts); the puller still decides: its first ask takes this answer only when it
 * is the very page it would ask (a fresh walk's first page at its batch), so the checkpoint, the
 * walk and its resume are the puller's as before. It is the page the puller would have fetched a
 * moment later, which the feed's consistency argument allows (a row changed since has a newer seq
 * and comes with the walk's forward pull: server/feed/changes.ts readBackfill).
 */
export interface EarlyFirstPage {
  /**
   * The early answer, when `asked` is the page it asked for; null otherwise (the early request is
   * then aborted). Only the first call can take it; `signal` (the puller's) aborts it from then on.
   */
  take(asked: FeedQuery, signal?: AbortSignal): Promise<FeedAnswer> | null;
  /** Nobody will take it (the sign-in failed, the mirror closed): abort it and let the answer go. */
  drop(): void;
  /** Whether it is still waiting to be taken. */
  readonly pending: boolean;
}

/**
 * Asks a fresh mirror's first page now, once, with `http` (a client bound to the new token), at
 * the puller's batch (`batchSize`, the engine's default when absent). No retry here: a failed early
 * answer is dropped by the puller, which then asks as it always does (with its retry rule).
 */
export function askFirstPage(http: HttpClient, batchSize: number = SYNC_BATCH_DEFAULT): EarlyFirstPage {
  const query = firstWalkQuery(batchSize);
  const ctrl = new AbortController();
  markFirstPage(FIRST_PAGE_MARKS.asked);
  let answer: Promise<FeedAnswer> | null = http.call(syncChanges, { query, signal: ctrl.signal });
  answer.catch(() => undefined); // dropped early pages are never awaited
  return {
    take(asked, signal) {
      const mine = answer;
      answer = null;
      if (!mine) return null;
      if (!sameQuery(asked, query)) {
        ctrl.abort();
        return null;
      }
      if (signal?.aborted) ctrl.abort();
      else signal?.addEventListener('abort', () => ctrl.abort(), { once: true });
      return mine;
    },
    drop() {
      if (!answer) return;
      answer = null;
      ctrl.abort();
    },
    get pending() {
      return answer !== null;
    },
  };
}
