import type { Db } from '../db/db.ts';
import type { ChangeNotifier } from '../feed/notifier.ts';

/** What every route needs, injected once by createApp. */
export type AppDeps = {
  db: Db;
  /** The id-token signing key (loaded once, shared by every process through server_keys). */
  tokenKey: () => Promise<Uint8Array>;
  /** Milliseconds since the epoch; injected so tests control token age. */
  now: () => number;
  notifier: ChangeNotifier;
  /** SSE heartbeat interval. */
  heartbeatMs: number;
  /** Keep a readable copy of sent mail (dev_outbox, GET /v1/public/dev/outbox): LEDGERLINE_DEV_OUTBOX=1 only. */
  devOutbox: boolean;
};
