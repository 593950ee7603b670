import type { ChatProvider } from '../../schema/api/calls-chat.ts';
import { completeLeased, doublingBackoff, drainDue, failLeased, type DrainTally, type LeasedQueue } from '../core/leased-queue.ts';
import { OutboundRefused, outboundFetch } from '../core/outbound-fetch.ts';
import type { Queryable } from '../db/db.ts';
import { CHAT_LINK_TTL_MS, chatLinkKey, chatLinkUrl, signChatLink } from './links.ts';
import { chatPayload, type ChatMessage } from './payloads.ts';
import { PROVIDER_NAME, recordOutcome, type ChatNet } from './store.ts';

/**
 * Delivers chat_posts (issue 32) through the one outbound door (server/core/outbound-fetch.ts:
 * the webhook's address is checked again at every post, so a name that now resolves inside is
 * refused). Posted once across restarts and processes, as mail is (server/mail/delivery.ts): a
 * claim commits before the post; `accepted_at` is written the moment the webhook answers 2xx,
 * and a row claimed again with it set completes without posting. The remaining window is a
 * process dying between the webhook's 2xx and that one UPDATE (the post is then made again).
 * Webhooks answer within 5 s (outbound-fetch's cap), well inside the 1 min lease.
 */
export const CHAT_QUEUE: LeasedQueue = {
  table: 'chat_posts',
  leaseMs: 60_000,
  maxAttempts: 8,
  backoffMs: doublingBackoff(30_000, 3_600_000),
};

export type ChatDeliveryOptions = {
  net: ChatNet;
  /** The id-token key (auth/tokens.ts loadTokenKey): links are signed with a key derived from it. */
  tokenKey: () => Promise<Uint8Array>;
  /** The origin for links whose base was made outside a request (relative): PUBLIC_URL, else this server. */
  origin: string;
  now: () => number;
  log?: (line: string) => void;
};

type PostRow = {
  id: string; attempts: number; business_id: string; provider: ChatProvider; kind: 'approval_waiting' | 'rejected';
  title: string; body: string; path: string; link_base: string; created_at: Date | string; accepted_at: Date | string | null;
};

export type PostOutcome = { ok: true; status: number } | { ok: false; status: number | null; error: string; permanent: boolean };

/** One POST of a payload to a webhook; what it answered, in words an admin can act on. */
export async function postToWebhook(provider: ChatProvider, url: string, message: ChatMessage, net: ChatNet): Promise<PostOutcome> {
  const name = PROVIDER_NAME[provider];
  let res: Response;
  try {
    res = await outboundFetch(url, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(chatPayload(provider, message)), redirect: 'error',
    }, { allowLoopbackHttp: net.allowLoopbackHttp, dnsServer: net.dnsServer });
  } catch (err) {
    if (!(err instanceof OutboundRefused)) throw err;
    return { ok: false, status: null, error: `${name} could not be reached: the webhook must be a public https address that answers within 5 seconds.`, permanent: false };
  }
  if (res.ok) return { ok: true, status: res.status };
  const said = (await res.text().catch(() => '')).replace(/\s+/g, ' ').trim().slice(0, 200);
  // 429 and 5xx are the provider's moment; any other 4xx (a removed webhook, an archived channel) will not mend by itself.
  const permanent = res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429;
  const hint = permanent && (res.status === 404 || res.status === 410 || res.status === 403) ? ' The webhook may have been removed: paste a new one.' : '';
  return { ok: false, status: res.status, error: `${name} answered ${res.status}${said ? ` (${said})` : ''}.${hint}`, permanent };
}

async function messageOf(row: PostRow, opts: ChatDeliveryOptions): Promise<ChatMessage> {
  const created = new Date(row.created_at).getTime();
  const token = signChatLink(chatLinkKey(await opts.tokenKey()), { businessId: row.business_id, path: row.path, expiresAt: created + CHAT_LINK_TTL_MS });
  return {
    title: row.title, body: row.body, tone: row.kind === 'rejected' ? 'rejected' : 'waiting',
    link: { label: row.kind === 'rejected' ? 'Open in Ledgerline' : 'Review in Ledgerline', url: chatLinkUrl(row.link_base, opts.origin, token) },
  };
}

async function deliverOne(db: Queryable, row: PostRow, opts: ChatDeliveryOptions): Promise<'sent' | 'queued' | 'failed' | 'dropped' | null> {
  const now = () => new Date(opts.now());
  if (row.accepted_at === null) {
    const [conn] = await db.query<{ webhook_url: string }>(
      'SELECT webhook_url FROM chat_connections WHERE business_id = $1 AND provider = $2', [row.business_id, row.provider],
    );
    if (!conn) return (await completeLeased(db, CHAT_QUEUE, row, now(), 'dropped')) ? 'dropped' : null;
    const outcome = await postToWebhook(row.provider, conn.webhook_url, await messageOf(row, opts), opts.net);
    await recordOutcome(db, row.business_id, row.provider, now(), outcome.ok ? null : outcome.error);
    if (!outcome.ok) return failLeased(db, CHAT_QUEUE, row, now(), outcome.error, { final: outcome.permanent });
    // Recorded at once, apart from completing: the fact a re-claim checks (see above).
    await db.query('UPDATE chat_posts SET accepted_at = $2 WHERE id = $1 AND attempts = $3', [row.id, now().toISOString(), row.attempts]);
  }
  return (await completeLeased(db, CHAT_QUEUE, row, now(), 'sent')) ? 'sent' : null;
}

export type ChatTally = DrainTally;

/** Claims and posts due chat posts until none is left. */
export async function deliverDueChat(db: Queryable, opts: ChatDeliveryOptions): Promise<ChatTally> {
  return drainDue<PostRow>(db, CHAT_QUEUE, opts.now, (row) => deliverOne(db, row, opts), (row) =>
    (opts.log ?? console.error)(`[ledgerline] ${PROVIDER_NAME[row.provider]} post ${row.id} failed for good after ${row.attempts} attempts`));
}

/** The test message of the settings page, posted now (not queued): its answer is the point. */
export async function sendTestPost(db: Queryable, businessId: string, provider: ChatProvider, url: string, net: ChatNet, now: Date): Promise<PostOutcome> {
  const outcome = await postToWebhook(provider, url, {
    title: 'Ledgerline is connected to this channel', tone: 'test', link: null,
    body: 'Approval requests and rejections will be posted here, each with a link that opens it in Ledgerline after sign-in.',
  }, net);
  await recordOutcome(db, businessId, provider, now, outcome.ok ? null : outcome.error);
  return outcome;
}
