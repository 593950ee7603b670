import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { claimDue } from '../core/leased-queue.ts';
import { notify } from '../domain/notifications/notify.ts';
import { TEST_TOKEN_SECRET, useTestApp } from '../test-app.ts';
import { testDatabases } from '../test-db.ts';
import { makeBusiness, request, signIn, type Fixture } from '../test-fixtures.ts';
import { CHAT_QUEUE, deliverDueChat, type ChatDeliveryOptions } from './delivery.ts';
import { startChatJob } from './job.ts';
import { chatLinkKey, signChatLink } from './links.ts';
import { slackPayload } from './payloads.ts';

type Hit = { path: string; body: Record<string, unknown> };

/** A local webhook receiver: keeps every POST, answers `status` (changeable between posts). */
async function startReceiver() {
  const hits: Hit[] = [];
  const state = { status: 200 };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      hits.push({ path: req.url ?? '', body: JSON.parse(raw || '{}') as Record<string, unknown> });
      res.writeHead(state.status, { 'content-type': 'text/plain' }).end(state.status === 200 ? 'ok' : 'no_service');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { hits, state, base, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const C = '/v1/auth/chat/connections';
const EVENTS = ['approval_waiting', 'rejected'];

describe('chat payloads', () => {
  it('escapes Slack mrkdwn so a name or reason never pings the channel', () => {
    const p = slackPayload({ title: '<!channel> & co', body: 'Reason: <@U123>', tone: 'rejected', link: null });
    expect(JSON.stringify(p.blocks)).toContain('&lt;!channel&gt; &amp; co');
    expect(JSON.stringify(p.blocks)).toContain('Reason: &lt;@U123&gt;');
    expect(JSON.stringify(p.blocks)).not.toContain('<!channel>');
  });
});

describe.each(await testDatabases())('Slack and Teams on %s', (kind) => {
  const t = useTestApp(kind, { sso: { allowLoopbackHttp: true } });
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  let a: Fixture;
  let b: Fixture;
  let admin: string;
  let clock = Date.now();
  const opts = (): ChatDeliveryOptions => ({
    net: { allowLoopbackHttp: true, dnsServer: null }, tokenKey: async () => new TextEncoder().encode(TEST_TOKEN_SECRET),
    origin: 'https://app.ledgerline.test', now: () => clock, log: () => undefined,
  });
  const connect = (provider: string, url: string, token = admin, events = EVENTS) =>
    request(t.app, 'PUT', `${C}/${provider}`, { token, body: { webhook_url: url, events } });
  const waiting = (f: Fixture, approvalId: string, owners: Array<'manager' | 'admin'>) => t.db.transaction((tx) => notify(tx, f.businessId, owners.map((o) => ({
    owner_id: f.users[o], kind: 'approval_waiting' as const, title: "Em Ployee's claim for $42.00 is waiting for your approval",
    path: `/approvals?open=${approvalId}`, actor_id: f.users.employee, event_key: `approval:${approvalId}:waiting`,
  })), new Date().toISOString(), { mail: false }));
  const posts = (f: Fixture) => t.db.query<{ provider: string; state: string; attempts: number; accepted_at: unknown; last_error: string | null }>(
    'SELECT provider, state, attempts, accepted_at, last_error FROM chat_posts WHERE business_id = $1 ORDER BY provider, created_at', [f.businessId]);

  beforeAll(async () => {
    rx = await startReceiver();
    a = await makeBusiness(t.db, { transactions: 0 });
    b = await makeBusiness(t.db, { transactions: 0 });
    admin = await signIn(t.app, a.email('admin'));
  });
  afterAll(async () => rx.close());
  beforeEach(async () => {
    clock = Date.now() + 10_000;
    rx.hits.length = 0;
    rx.state.status = 200;
    await t.db.query('DELETE FROM chat_posts');
    await t.db.query('DELETE FROM chat_connections');
  });

  it('connects each provider, answers the URL masked, refuses non-admins, bad and internal URLs, and disconnects', async () => {
    expect((await request(t.app, 'GET', C, { token: admin })).body).toEqual({ data: [] });
    const employee = await signIn(t.app, a.email('employee'));
    expect((await connect('slack', `${rx.base}/slack/T0/B0/secretAbCd`, employee)).status).toBe(403);
    expect((await request(t.app, 'GET', C, { token: employee })).status).toBe(403);
    const put = await connect('slack', `${rx.base}/slack/T0/B0/secretAbCd`);
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ provider: 'slack', webhook_url_hint: '…AbCd', events: EVENTS, last_post: null, posts_waiting: 0 });
    expect(put.text).not.toContain('secretAbCd');
    expect((await connect('teams', `${rx.base}/teams/xyz9`, admin, ['rejected'])).body).toMatchObject({ provider: 'teams', events: ['rejected'] });
    const list = await request(t.app, 'GET', C, { token: admin });
    expect(list.body.data.map((c: { provider: string }) => c.provider)).toEqual(['slack', 'teams']);
    expect(list.text).not.toContain(rx.base);

    const bad = await connect('slack', 'not a url');
    expect([bad.status, bad.body.error_v2.error_code, Object.keys(bad.body.error_v2.errors ?? {})]).toEqual([422, 'REQUEST_7001', ['webhook_url']]);
    for (const inside of ['https://10.0.0.7/hook', 'https://169.254.169.254/latest/meta-data', 'https://[::ffff:192.168.1.1]/x', 'http://192.168.0.10/hook']) {
      const r = await connect('teams', inside);
      expect([inside, r.status, r.body.error_v2.message]).toEqual([inside, 422, expect.stringContaining('public https address')]);
    }
    expect((await connect('discord', `${rx.base}/x`)).status).toBe(422);
    expect((await connect('slack', `${rx.base}/x`, admin, [])).status).toBe(422);
    expect((await request(t.app, 'PUT', `${C}/slack`, { token: admin, body: { webhook_url: `${rx.base}/x`, events: EVENTS, extra: 1 } })).status).toBe(422);
    // Another business sees none of A's channels, and cannot remove them.
    const bAdmin = await signIn(t.app, b.email('admin'));
    expect((await request(t.app, 'GET', C, { token: bAdmin })).body).toEqual({ data: [] });
    expect((await request(t.app, 'DELETE', `${C}/slack`, { token: bAdmin })).status).toBe(404);
    expect((await request(t.app, 'DELETE', `${C}/teams`, { token: admin })).body).toEqual({ disconnected: true });
    expect((await request(t.app, 'DELETE', `${C}/teams`, { token: admin })).status).toBe(404);
    expect(rx.hits).toEqual([]);
  });

  it('posts one Block Kit / Adaptive Card message per event and channel, with a signed link that opens only after sign-in in that business', async () => {
    await connect('slack', `${rx.base}/slack/hook`);
    await connect('teams', `${rx.base}/teams/hook`);
    const approvalId = crypto.randomUUID();
    expect(await waiting(a, approvalId, ['manager', 'admin'])).toHaveLength(2);
    expect((await posts(a)).map((p) => [p.provider, p.state])).toEqual([['slack', 'queued'], ['teams', 'queued']]);
    expect((await request(t.app, 'GET', C, { token: admin })).body.data[0].posts_waiting).toBe(1);
    expect(await deliverDueChat(t.db, opts())).toEqual({ sent: 2, retried: 0, failed: 0, dropped: 0 });
    expect(await deliverDueChat(t.db, opts())).toEqual({ sent: 0, retried: 0, failed: 0, dropped: 0 });
    const slack = rx.hits.find((h) => h.path === '/slack/hook')!.body;
    expect(slack.text).toBe("Em Ployee's claim for $42.00 is waiting for approval");
    const blocks = slack.blocks as Array<{ type: string; elements?: Array<{ url?: string }> }>;
    expect(blocks.map((x) => x.type)).toEqual(['section', 'actions', 'context']);
    const link = blocks[1]!.elements![0]!.url!;
    expect(link).toMatch(/^https:\/\/app\.ledgerline\.test\/chat-link\?t=[\w-]+\.[\w-]+$/);
    const teams = rx.hits.find((h) => h.path === '/teams/hook')!.body as { type: string; attachments: Array<{ contentType: string; content: { type: string; actions: Array<{ url: string }> } }> };
    expect([teams.type, teams.attachments[0]!.contentType, teams.attachments[0]!.content.type]).toEqual(['message', 'application/vnd.microsoft.card.adaptive', 'AdaptiveCard']);
    expect(teams.attachments[0]!.content.actions[0]!.url).toMatch(/\/chat-link\?t=/);

    const token = new URL(link).searchParams.get('t')!;
    const open = (tk: string, as?: string) => request(t.app, 'POST', '/v1/auth/chat/links/open', { body: { token: tk }, ...(as && { token: as }) });
    expect((await open(token)).status).toBe(401);
    const manager = await signIn(t.app, a.email('manager'));
    expect((await open(token, manager)).body).toEqual({ path: `/approvals?open=${approvalId}` });
    expect((await open(token, await signIn(t.app, b.email('admin')))).status).toBe(404);
    expect((await open(`${token.slice(0, -2)}xx`, manager)).status).toBe(404);
    const forged = `${Buffer.from(JSON.stringify({ b: a.businessId, p: '/settings', e: Date.now() + 1e6 })).toString('base64url')}.${token.split('.')[1]}`;
    expect((await open(forged, manager)).status).toBe(404);
    const key = chatLinkKey(new TextEncoder().encode(TEST_TOKEN_SECRET));
    const expired = await open(signChatLink(key, { businessId: a.businessId, path: '/approvals', expiresAt: Date.now() - 1 }), manager);
    expect([expired.status, expired.body.error_v2.message]).toEqual([422, expect.stringContaining('expired')]);
    const status = (await request(t.app, 'GET', C, { token: admin })).body.data[0];
    expect(status).toMatchObject({ last_post: { ok: true, error: null }, posts_waiting: 0 });
  });

  it('hears only the chosen events, names the requester in a rejection, and posts nothing when the write rolls back', async () => {
    await connect('teams', `${rx.base}/teams/hook`, admin, ['rejected']);
    await waiting(a, crypto.randomUUID(), ['manager']);
    expect(await posts(a)).toEqual([]);
    await t.db.transaction((tx) => notify(tx, a.businessId, [{
      owner_id: a.users.employee, kind: 'rejected', title: 'Your claim for $42.00 was rejected', body: 'Reason: <!channel> no receipt\nRejected by Manny Ger.',
      path: '/reimbursements?open=x', actor_id: a.users.manager, event_key: `approval:${crypto.randomUUID()}:rejected`,
    }], new Date().toISOString(), { mail: false }));
    await connect('slack', `${rx.base}/slack/hook`, admin, ['rejected']);
    await expect(t.db.transaction(async (tx) => {
      await notify(tx, a.businessId, [{
        owner_id: a.users.employee, kind: 'rejected', title: 'Your bill was rejected', path: '/bills', actor_id: a.users.manager, event_key: 'approval:rolled:rejected',
      }], new Date().toISOString(), { mail: false });
      throw new Error('the write failed');
    })).rejects.toThrow('the write failed');
    expect((await posts(a)).map((p) => p.provider)).toEqual(['teams']);
    await deliverDueChat(t.db, opts());
    const card = JSON.stringify(rx.hits[0]!.body);
    expect(card).toMatch(/Employee Fixture\w+'s claim for \$42.00 was rejected/);
    expect(card).toContain('Reason: <!channel> no receipt');
  });

  it('retries with backoff while the webhook fails, shows why, and gives up at once on a removed webhook', async () => {
    await connect('slack', `${rx.base}/slack/hook`);
    await waiting(a, crypto.randomUUID(), ['manager']);
    rx.state.status = 503;
    expect((await deliverDueChat(t.db, opts())).retried).toBe(1);
    const status = (await request(t.app, 'GET', C, { token: admin })).body.data[0];
    expect(status).toMatchObject({ posts_waiting: 1, last_post: { ok: false, error: expect.stringContaining('Slack answered 503') } });
    clock += 29_000;
    expect((await deliverDueChat(t.db, opts())).retried).toBe(0);
    clock += 2_000;
    rx.state.status = 200;
    expect((await deliverDueChat(t.db, opts())).sent).toBe(1);
    expect((await posts(a)).map((p) => [p.state, p.attempts])).toEqual([['sent', 2]]);
    await waiting(a, crypto.randomUUID(), ['manager']);
    rx.state.status = 404;
    expect((await deliverDueChat(t.db, opts())).failed).toBe(1);
    expect((await posts(a))[1]).toMatchObject({ state: 'failed', last_error: expect.stringContaining('paste a new one') });
    expect(rx.hits).toHaveLength(3);
  });

  it('posts once across a restart in the middle of the queue', async () => {
    await connect('slack', `${rx.base}/slack/hook`);
    await waiting(a, crypto.randomUUID(), ['manager']);
    await waiting(a, crypto.randomUUID(), ['manager']);
    // A process claims both and dies before posting: the lease holds them from everyone else…
    expect(await claimDue(t.db, CHAT_QUEUE, new Date(clock), 10)).toHaveLength(2);
    expect(await deliverDueChat(t.db, opts())).toMatchObject({ sent: 0 });
    // …one of them had been accepted by the webhook (accepted_at written) before it died.
    await t.db.query(`UPDATE chat_posts SET accepted_at = now() WHERE id = (SELECT id FROM chat_posts WHERE business_id = $1 ORDER BY created_at LIMIT 1)`, [a.businessId]);
    clock += CHAT_QUEUE.leaseMs + 1;
    expect(await deliverDueChat(t.db, opts())).toMatchObject({ sent: 2 });
    expect(rx.hits).toHaveLength(1);
    expect((await posts(a)).map((p) => p.state)).toEqual(['sent', 'sent']);
  });

  it('refuses at send time a webhook that now points inside, and drops posts of a disconnected channel', async () => {
    await connect('slack', `${rx.base}/slack/hook`);
    await connect('teams', `${rx.base}/teams/hook`);
    await t.db.query(`UPDATE chat_connections SET webhook_url = 'https://10.1.2.3/hook' WHERE provider = 'slack'`);
    await waiting(a, crypto.randomUUID(), ['manager']);
    await request(t.app, 'DELETE', `${C}/teams`, { token: admin });
    expect(await deliverDueChat(t.db, opts())).toMatchObject({ sent: 0, retried: 1 });
    expect((await posts(a)).map((p) => [p.provider, p.state])).toEqual([['slack', 'queued'], ['teams', 'dropped']]);
    expect((await posts(a))[0]!.last_error).toContain('could not be reached');
    expect(rx.hits).toEqual([]);
  });

  it('the chat job (npm start) posts right after the notifying write commits, kicked without a timer', async () => {
    await connect('teams', `${rx.base}/teams/hook`);
    const job = await startChatJob(t.db, { ...opts(), now: () => Date.now() + 10_000, everyMs: 3_600_000 });
    try {
      await waiting(a, crypto.randomUUID(), ['manager', 'admin']);
      for (let i = 0; i < 100 && rx.hits.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      await job.runNow();
      expect(rx.hits).toHaveLength(1);
      expect((await posts(a)).map((p) => p.state)).toEqual(['sent']);
    } finally {
      await job.stop();
    }
  });

  it('sends a test message and answers what the webhook said', async () => {
    expect((await request(t.app, 'POST', `${C}/slack/test`, { token: admin })).status).toBe(404);
    await connect('slack', `${rx.base}/slack/hook`);
    const okRes = await request(t.app, 'POST', `${C}/slack/test`, { token: admin });
    expect(okRes.body).toMatchObject({ delivered: true, status: 200, connection: { last_post: { ok: true } } });
    expect(JSON.stringify(rx.hits[0]!.body)).toContain('Ledgerline is connected to this channel');
    rx.state.status = 404;
    const bad = await request(t.app, 'POST', `${C}/slack/test`, { token: admin });
    expect(bad.body).toMatchObject({ delivered: false, status: 404, message: expect.stringContaining('Slack answered 404 (no_service)') });
    expect(bad.body.connection.last_post).toMatchObject({ ok: false, error: expect.stringContaining('404') });
    const employee = await signIn(t.app, a.email('employee'));
    expect((await request(t.app, 'POST', `${C}/slack/test`, { token: employee })).status).toBe(403);
  });
});
