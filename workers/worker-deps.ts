import type { RxStorage } from 'rxdb';
import type { Clock, Transport } from '../sync/index.ts';
import type { LeaderElector } from './leader.ts';
import type { SessionStore } from './session-store.ts';

/* What the worker is made with, shared by WorkerContext and MirrorHost (a leaf: no worker state). */

export interface DataServiceDeps {
  sessionStore: SessionStore;
  transport: Transport;
  clock: Clock;
  elector: LeaderElector;
  /** Mirror storage; Dexie on the browser's IndexedDB by default. */
  storage?: RxStorage<unknown, unknown>;
  multiInstance?: boolean;
  /** Off in unit tests that exercise the mirror without a server. */
  sync?: boolean;
  defer?: (fn: () => void) => void;
  online?: boolean;
}

/** A sign-in waiting for its second factor: the half-scoped token stays in memory only. */
export interface PendingMfa {
  token: string;
  /** Re-authentication in place: the account that must come back. */
  expectUserId: string | undefined;
  /** The address the sign-in used: where a first enrolment's email code goes. */
  email: string | null;
}
