import type { ChangesQuery } from '../../schema/sync-feed.ts';
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

/** The query of one feed page (forward, or backfill with or without its cursor). */
export type FeedPageQuery = Pick<ChangesQuery, 'after' | 'limit'> & Partial<Pick<ChangesQuery, 'backfill' | 'top' | 'stage' | 'before'>>;
/** A feed page as its answer's JSON text, and the query of the page after it (null: the last). */
export type FeedPage = { text: string; next: FeedPageQuery | null };

/**
 * The feed's prepared next pages (`feed/page-cache.ts`): a cache, not state. After answering a
 * page that has more, the process computes the next one while the client writes this one; the
 * request for it answers from the cache (or computes it, as without one).
 */
export interface FeedPages {
  /** The page `query` asks for, as `user` sees it: prepared already, or `compute`d now. */
  read(user: { business_id: string; id: string }, query: FeedPageQuery, compute: (q: FeedPageQuery) => Promise<FeedPage>): Promise<string>;
  /** Drops every prepared page (shutdown). */
  close(): void;
}

/** Google sign-in (OIDC with Google's issuer), configured by the server (GOOGLE_CLIENT_ID, …), not by a business. */
export type GoogleClient = { clientId: string; clientSecret: string; issuer: string };

/**
 * Single sign-on settings (server/auth/sso/settings.ts reads them from createApp's options and
 * the environment): the public origin redirect URIs and the SAML entity id are built on (null: the
 * request's origin), whether http identity-provider URLs are allowed for loopback hosts (tests,
 * development), and the Google client.
 */
export type SsoSettings = {
  publicUrl: string | null; allowLoopbackHttp: boolean; google: GoogleClient | null;
  /** LEDGERLINE_DNS_SERVER (host:port): the resolver for domain proofs and outbound fetches; null → the system's. */
  dnsServer: string | null;
};

/** The quotas in force (server/auth/quotas.ts `resolveQuotas`; LEDGERLINE_QUOTA_*, docs/quotas.md). */
export type QuotaSettings = {
  /** Invites (single, each CSV row, resends) one inviter sends per hour. */
  invitesPerInviterPerHour: number;
  /** Invites one business sends per 24 hours, all inviters together. */
  invitesPerBusinessPerDay: number;
  /** Receipt uploads per person per hour. */
  receiptsPerPersonPerHour: number;
  /** Receipt bytes per person per 24 hours. */
  receiptBytesPerPersonPerDay: number;
  /** Sign-ups from one client address per hour. */
  signUpsPerAddressPerHour: number;
  /** Sign-ups asking for one email address per hour. */
  signUpsPerEmailPerHour: number;
  /** Sign-in links (passwordless sends) requested from one client address per hour. */
  signInLinksPerAddressPerHour: number;
  /** Sign-in links sent to one email address per hour. */
  signInLinksPerEmailPerHour: number;
};

/** What every route needs, injected once by createApp. */
export type AppDeps = {
  db: Db;
  /** The id-token signing key (loaded once, shared by every process through server_keys). */
  tokenKey: () => Promise<Uint8Array>;
  /** Milliseconds since the epoch; injected so tests control token age. */
  now: () => number;
  notifier: SeqAnnouncements;
  feedPages: FeedPages;
  /** SSE heartbeat interval. */
  heartbeatMs: number;
  /** Keep a readable copy of sent mail (dev_outbox, GET /v1/public/dev/outbox): LEDGERLINE_DEV_OUTBOX=1 only. */
  devOutbox: boolean;
  sso: SsoSettings;
  quotas: QuotaSettings;
};
