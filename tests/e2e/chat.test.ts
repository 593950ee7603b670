/**
 * Issue 32, Slack and Teams end to end: the built PWA on the real server (PGlite) in headless
 * Chromium, a local HTTP receiver standing in for Slack's incoming webhook (the test server allows
 * loopback http, as SSO_ALLOW_LOOPBACK_HTTP does), and the server's own chat job
 * (server/chat/job.ts, started here as `npm start` starts it: kicked by each commit that queues a post).
 *
 * One deep scenario. The admin, on a 390 px touch phone, opens Settings → Integrations → Slack and
 * Teams (axe clean on the empty state, also at desktop); a webhook to an inside address is refused
 * beside the field with what was typed kept; the receiver's URL is saved and shown masked (`…` and
 * its last four), never in full; "Send a test message" reports delivery and the receiver got a Block
 * Kit body. An employee's claim that needs approval (API) makes one post at the receiver naming it,
 * with a signed /chat-link. The approver (the manager) opens that link in a signed-out desktop
 * browser: asked to sign in first, then lands on the approval's drawer; a tampered link says it is
 * not valid. Disconnect asks first; the card returns to its empty state and the server holds no
 * connection. Then Teams (`teamsPart`): connected to the receiver, shown masked; an approval request
 * posts one Adaptive Card whose Open button is a signed link resolving to the approval (a forged
 * signature → 404). No sideways scroll at 360 and 390 px; the CSP blocked nothing.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openChatLink } from '../../schema/api/calls-chat.ts';
import { createOutOfPocket } from '../../schema/api/calls-reimbursements.ts';
import { loadTokenKey } from '../../server/auth/tokens.ts';
import { startChatJob, type ChatJob } from '../../server/chat/job.ts';
import { startTestServer, type TestServer } from '../../server/testing.ts';
import { apiSignIn } from '../support/api.ts';
import { axeFindings } from '../support/axe.ts';
import { launchBrowser, signIn, type BrowserSession } from '../support/browser.ts';
import { printBrowserLogsOnFailure } from '../support/e2e-app.ts';

const ADMIN = 'admin@demo.test';
const MANAGER = 'manager@demo.test';
const EMPLOYEE = 'employee@demo.test';
const PASSWORD = 'demo-password-1';
const PHONE = { width: 390, height: 844 };
const MERCHANT = 'E2E Chat Team Lunch';
const HOOK_PATH = '/services/T0E2E/B0E2E/xoxSecretW9kQ';
const TEAMS_PATH = '/workflows/e2e/triggers/manual/paths/invoke?sig=TeamsSecretR7pZ';

type AdaptiveCard = { type: string; version: string; body: Array<Record<string, unknown>>; actions?: Array<{ type: string; title: string; url: string }> };
type Hit = {
  path: string;
  body: { text?: string; blocks?: Array<Record<string, unknown>>; type?: string; attachments?: Array<{ contentType: string; content: AdaptiveCard }> };
};

let server: TestServer;
let receiver: Server;
let hookUrl: string;
const hits: Hit[] = [];
let chatJob: ChatJob;
let phone: BrowserSession;
let desktop: BrowserSession;

/** Slack's incoming webhook, standing in: keeps each POST's JSON, answers 200 "ok" as Slack does. */
async function startReceiver(): Promise<void> {
  receiver = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      hits.push({ path: req.url ?? '', body: JSON.parse(raw || '{}') as Hit['body'] });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}${HOOK_PATH}`;
}

beforeAll(async () => {
  await startReceiver();
  server = await startTestServer({ transactions: 10, serveDist: true });
  chatJob = await startChatJob(server.db, {
    net: { allowLoopbackHttp: true, dnsServer: null }, tokenKey: () => loadTokenKey(server.db), origin: server.url,
    onError: (err) => console.error('chat job', err),
  });
  phone = await launchBrowser({ baseURL: server.url, viewport: PHONE, hasTouch: true, isMobile: true });
  desktop = await launchBrowser({ baseURL: server.url });
}, 120_000);

afterAll(async () => {
  await chatJob?.stop();
  await phone?.close();
  await desktop?.close();
  await server?.close();
  receiver?.closeAllConnections();
  await new Promise((resolve) => (receiver ? receiver.close(resolve) : resolve(null)));
});

const slackCard = (page: Page) => page.getByRole('region', { name: 'Slack', exact: true });

async function noSidewaysScroll(page: Page, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 800 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

async function connectionsOnServer(): Promise<Array<{ provider: string; webhook_url: string }>> {
  return server.db.query('SELECT provider, webhook_url FROM chat_connections WHERE business_id = $1', [server.businessId]);
}

/** Every link of a Slack Block Kit body: the buttons of its actions blocks. */
const linksOf = (body: Hit['body']) => (body.blocks ?? [])
  .filter((b) => b.type === 'actions')
  .flatMap((b) => (b.elements as Array<{ type: string; url?: string }>).map((e) => e.url ?? ''));

/**
 * Teams, after Slack: connected to the receiver (a Workflows webhook URL), an approval request
 * posts one Adaptive Card 1.4 in the `message` envelope, whose Open button is a signed /chat-link
 * that the approver's session resolves to the approval.
 */
async function teamsPart(page: Page, employee: Awaited<ReturnType<typeof apiSignIn>>, name: string): Promise<void> {
  const teamsUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}${TEAMS_PATH}`;
  const form = page.getByRole('form', { name: 'Teams connection' });
  await form.getByLabel('Incoming webhook URL').fill(teamsUrl);
  await form.getByRole('button', { name: 'Connect' }).tap();
  await form.waitFor({ state: 'detached' });
  const teams = page.getByRole('region', { name: 'Microsoft Teams', exact: true });
  await teams.getByText('…R7pZ', { exact: true }).waitFor();
  expect(await page.content()).not.toContain('TeamsSecretR7pZ');
  expect(await connectionsOnServer()).toEqual([{ provider: 'teams', webhook_url: teamsUrl }]);

  const before = hits.length;
  const today = new Date().toISOString().slice(0, 10);
  const claim = await employee.call(createOutOfPocket, { body: { merchant: `${MERCHANT} (Teams)`, amount: 5600, currency: 'USD', transaction_date: today } });
  const [approval] = await server.db.query<{ id: string }>("SELECT id::text FROM approvals WHERE object_id = $1 AND status = 'PENDING'", [claim.id]);
  await expect.poll(() => hits.length, { timeout: 15_000 }).toBe(before + 1);
  const post = hits.at(-1)!;
  expect(post.path).toBe(TEAMS_PATH);
  expect(post.body).toMatchObject({ type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive' }] });
  expect(post.body.attachments).toHaveLength(1);
  const card = post.body.attachments![0]!.content;
  expect(card).toMatchObject({ type: 'AdaptiveCard', version: '1.4' });
  expect(card.body[0]).toMatchObject({ type: 'TextBlock', text: 'Ledgerline' });
  expect(card.body[1]).toMatchObject({ type: 'TextBlock', weight: 'Bolder', wrap: true, text: `${name}'s claim for $56.00 is waiting for approval` });
  expect(card.actions).toHaveLength(1);
  const [open] = card.actions!;
  expect(open!.type).toBe('Action.OpenUrl');
  expect(open!.url).toMatch(new RegExp(`^${server.url}/chat-link\\?t=[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$`));
  // The signed link names this approval for the approver's business; a changed signature is refused.
  const manager = await apiSignIn(server.url, MANAGER, PASSWORD);
  const token = new URL(open!.url).searchParams.get('t')!;
  expect(await manager.call(openChatLink, { body: { token } })).toEqual({ path: `/approvals?open=${approval!.id}` });
  const forged = `${token.split('.')[0]}.${Buffer.alloc(32, 7).toString('base64url')}`;
  await expect(manager.call(openChatLink, { body: { token: forged } })).rejects.toThrow(/answered 404/);
  // The receiver holds the post before the job records it as sent (its answer, then the row).
  await expect.poll(async () => (await server.db.query<{ provider: string; state: string }>(
    "SELECT provider, state FROM chat_posts WHERE business_id = $1 AND provider = 'teams'", [server.businessId])).map((r) => r.state), { timeout: 20_000 }).toEqual(['sent']);
}

describe('Slack and Teams, end to end', () => {
  it('connects Slack through a webhook, posts a test and an approval with a signed link the approver opens, and disconnects; then Teams posts an Adaptive Card', async () => {
    printBrowserLogsOnFailure({ phone, desktop });
    const page = phone.page;

    // The admin on a phone: Settings → Integrations → Slack and Teams.
    await page.goto('/sign-in');
    await signIn(page, ADMIN, PASSWORD);
    await page.goto('/settings/integrations');
    await page.getByRole('heading', { name: 'Integrations', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Connect Slack or Teams' }).tap();
    await page.getByRole('heading', { name: 'Slack and Teams', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/settings/integrations/chat');
    const slackForm = page.getByRole('form', { name: 'Slack connection' });
    await slackForm.waitFor();
    await page.getByRole('form', { name: 'Teams connection' }).waitFor();
    await expect.poll(() => slackForm.getByRole('checkbox', { name: /Approval requests/ }).isChecked()).toBe(true);
    expect(await slackForm.getByRole('checkbox', { name: /Rejections/ }).isChecked()).toBe(true);
    await slackForm.getByText('https://hooks.slack.com/services/').waitFor();
    expect(await axeFindings(page, PHONE)).toEqual([]);
    await page.setViewportSize(PHONE);
    await noSidewaysScroll(page, 360);
    await noSidewaysScroll(page, PHONE.width);

    // An address inside the network is refused beside the field; nothing is saved, the text is kept.
    const urlField = slackForm.getByLabel('Incoming webhook URL');
    await urlField.tap();
    await urlField.fill('https://10.0.0.7/hooks/inside');
    await slackForm.getByRole('button', { name: 'Connect' }).tap();
    const fieldError = slackForm.getByText(/public https address/);
    await fieldError.waitFor();
    expect(await urlField.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await urlField.getAttribute('aria-describedby')) ?? '';
    expect(describedBy).not.toBe('');
    expect(await page.evaluate((ids) => ids.split(/\s+/).map((id) => document.getElementById(id)?.textContent ?? '').join(' '), describedBy))
      .toMatch(/public https address/);
    expect(await urlField.inputValue()).toBe('https://10.0.0.7/hooks/inside');
    expect(await connectionsOnServer()).toEqual([]);

    // The receiver's URL is saved (loopback http allowed by the test server) and shown masked.
    await urlField.fill(hookUrl);
    await slackForm.getByRole('button', { name: 'Connect' }).tap();
    await slackForm.waitFor({ state: 'detached' });
    const card = slackCard(page);
    await card.getByText('Connected', { exact: true }).waitFor();
    await card.getByText('…W9kQ', { exact: true }).waitFor();
    await card.getByText('Nothing posted yet. Send a test message to check the channel.').waitFor();
    expect(await page.content()).not.toContain('xoxSecretW9kQ');
    expect(await connectionsOnServer()).toEqual([{ provider: 'slack', webhook_url: hookUrl }]);
    // Teams stays offered, with its own form.
    await page.getByRole('form', { name: 'Teams connection' }).waitFor();
    await noSidewaysScroll(page, 360);
    await noSidewaysScroll(page, PHONE.width);

    // "Send a test message": posted now; the page says so and the receiver got Slack's Block Kit.
    await card.getByRole('button', { name: 'Send a test message' }).tap();
    await card.getByRole('status').filter({ hasText: 'Posted: look for “Ledgerline is connected to this channel” in the channel.' }).waitFor();
    expect(hits).toHaveLength(1);
    expect(hits[0]!.path).toBe(HOOK_PATH);
    expect(hits[0]!.body.text).toMatch(/Ledgerline is connected to this channel/);
    expect(hits[0]!.body.blocks?.[0]).toMatchObject({ type: 'section', text: { type: 'mrkdwn', text: expect.stringContaining('Ledgerline is connected') } });
    await card.getByText(/^Delivered /).waitFor();
    expect(await axeFindings(page, PHONE)).toEqual([]);
    await page.setViewportSize(PHONE);

    // An employee's claim that needs approval: one post at the receiver, naming it, with a signed link.
    const employee = await apiSignIn(server.url, EMPLOYEE, PASSWORD);
    const today = new Date().toISOString().slice(0, 10);
    const claim = await employee.call(createOutOfPocket, { body: { merchant: MERCHANT, amount: 8400, currency: 'USD', transaction_date: today } });
    const [approval] = await server.db.query<{ id: string }>("SELECT id::text FROM approvals WHERE object_id = $1 AND status = 'PENDING'", [claim.id]);
    expect(approval).toBeDefined();
    await expect.poll(() => hits.length, { timeout: 20_000 }).toBe(2);
    const post = hits[1]!;
    expect(post.path).toBe(HOOK_PATH);
    const [who] = await server.db.query<{ name: string }>(
      "SELECT trim(first_name || ' ' || last_name) AS name FROM spend_users WHERE business_id = $1 AND email = $2", [server.businessId, EMPLOYEE]);
    expect(post.body.text).toBe(`${who!.name}'s claim for $84.00 is waiting for approval`);
    expect(JSON.stringify(post.body.blocks)).toContain('waiting for approval');
    const [link] = linksOf(post.body);
    expect(link).toMatch(new RegExp(`^${server.url}/chat-link\\?t=[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$`));
    // The receiver holds the post before the job records it as sent (its answer, then the row).
    await expect.poll(async () => (await server.db.query<{ state: string }>('SELECT state FROM chat_posts WHERE business_id = $1', [server.businessId])).map((r) => r.state), { timeout: 20_000 })
      .toEqual(['sent']);
    // The channel hears it once, however many approvers it has: nothing more arrives.
    await chatJob.runNow();
    expect(hits).toHaveLength(2);

    // The approver opens the link signed out: sign-in first, then the approval's drawer.
    const d = desktop.page;
    await d.goto(link!);
    await signIn(d, MANAGER, PASSWORD);
    await expect.poll(() => { const u = new URL(d.url()); return u.pathname + u.search; }, { timeout: 30_000 }).toBe(`/approvals?open=${approval!.id}`);
    await d.getByRole('heading', { name: 'Approvals', level: 1 }).waitFor();
    const drawer = d.getByRole('dialog').or(d.getByRole('complementary')).filter({ hasText: MERCHANT }).first();
    await drawer.waitFor({ timeout: 30_000 });
    await drawer.getByText('$84.00').first().waitFor();

    // Tampered links say they are not valid: the body changed (another path, the signature kept),
    // a signature with one character changed in its middle, and one with its last character
    // changed (base64url's last character carries padding bits a decoder drops: refused all the same).
    const token = new URL(link!).searchParams.get('t')!;
    const [body, sig] = token.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { b: string; p: string; e: number };
    expect(claims).toMatchObject({ b: server.businessId, p: `/approvals?open=${approval!.id}` });
    const otherPath = Buffer.from(JSON.stringify({ ...claims, p: '/settings/integrations/chat' })).toString('base64url');
    const mid = Math.floor(sig.length / 2);
    const flipped = `${sig.slice(0, mid)}${sig[mid] === 'A' ? 'B' : 'A'}${sig.slice(mid + 1)}`;
    const last = sig.at(-1)!;
    // A 32-byte MAC's last character has its two low bits zero: the letter one value up decodes to the same bytes.
    const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const lastChanged = `${sig.slice(0, -1)}${B64URL[B64URL.indexOf(last) ^ 1]}`;
    expect(Buffer.from(lastChanged, 'base64url').equals(Buffer.from(sig, 'base64url'))).toBe(true);
    for (const tampered of [`${otherPath}.${sig}`, `${body}.${flipped}`, `${body}.${lastChanged}`]) {
      await d.goto(`/chat-link?t=${encodeURIComponent(tampered)}`);
      await d.getByRole('heading', { name: 'This link can’t be opened', level: 1 }).waitFor();
      await d.getByRole('alert').filter({ hasText: 'This link isn’t valid here.' }).waitFor();
      await d.getByRole('link', { name: 'Go to approvals' }).waitFor();
      expect(new URL(d.url()).pathname).toBe('/chat-link');
    }
    expect(await axeFindings(d)).toEqual([]);

    // The admin's page at desktop size shows the connection the same way (axe clean).
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.reload();
    await slackCard(page).getByText('…W9kQ', { exact: true }).waitFor();
    expect(await axeFindings(page)).toEqual([]);
    await page.setViewportSize(PHONE);

    // Disconnect asks first; "Keep connected" keeps it; confirmed, the card returns to its empty state.
    await slackCard(page).getByRole('button', { name: 'Disconnect' }).tap();
    const ask = page.getByRole('dialog', { name: 'Disconnect Slack?' }).or(page.getByRole('alertdialog', { name: 'Disconnect Slack?' }));
    await ask.waitFor();
    await ask.getByText(/Nothing more is posted to the channel/).waitFor();
    await ask.getByRole('button', { name: 'Keep connected' }).tap();
    await ask.waitFor({ state: 'detached' });
    expect(await connectionsOnServer()).toHaveLength(1);
    await slackCard(page).getByRole('button', { name: 'Disconnect' }).tap();
    await ask.getByRole('button', { name: 'Disconnect' }).tap();
    await ask.waitFor({ state: 'detached' });
    await page.getByRole('form', { name: 'Slack connection' }).waitFor();
    await page.getByRole('form', { name: 'Slack connection' }).getByText('https://hooks.slack.com/services/').waitFor();
    expect(await page.getByText('…W9kQ').count()).toBe(0);
    expect(await connectionsOnServer()).toEqual([]);
    expect(await axeFindings(page, PHONE)).toEqual([]);

    await teamsPart(page, employee, who!.name);
    expect([...phone.cspViolations, ...desktop.cspViolations]).toEqual([]);
  }, 240_000);
});
