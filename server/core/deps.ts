import type { Db } from '../db/db.ts';

/** onSeq for each announcement; onClose when the notifier shuts down (end the stream). */
export type SeqListener = { onSeq: (seq: number) => void; onClose: () => void };

/**
 * The change announcements of every business, as the SSE route needs them. A port, so the
 * layers below the routes never import the feed: `feed/notifier.ts` (ChangeNotifier) is the one
 * implementation, chosen by createApp.
 */
export interface SeqAnnouncements {
  /** Subscribes to one business's announcements; resolves to the unsubscribe function. */
  subscribe(businessId: string, listener: SeqListener): Promise<() => void>;
  /** Stops listening and ends every open stream. */
  close(): Promise<void>;
}

/** What every route needs, injected once by createApp. */
export type AppDeps = {
  db: Db;
  /** The id-token signing key (loaded once, shared by every process through server_keys). */
  tokenKey: () => Promise<Uint8Array>;
  /** Milliseconds since the epoch; injected so tests control token age. */
  now: () => number;
  notifier: SeqAnnouncements;
  /** SSE heartbeat interval. */
  heartbeatMs: number;
  /** Keep a readable copy of sent mail (dev_outbox, GET /v1/public/dev/outbox): LEDGERLINE_DEV_OUTBOX=1 only. */
  devOutbox: boolean;
};
