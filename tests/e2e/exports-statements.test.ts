/**
 * Issue 32 (helper F), the built PWA on the real server in headless Chromium:
 * 1. The demo admin on Cards: "Columns…" beside Export CSV saves three columns in a new order on
 *    the server, the device's Export CSV then writes exactly those (read back with papaparse);
 *    "Export primary cards" (filtered to Locked… then everyone) downloads one row per person's
 *    primary card, checked against the server's cards; the Statements link opens /statements,
 *    a CSV statement job runs with its progress in the jobs tray and downloads (papaparse).
 * 2. A saved view: the admin saves the transactions list's filters as a shared view; the
 *    bookkeeper, in a second browser, finds it under "Shared with you" and opens it (the filter
 *    is applied from the URL).
 * 3. Settings → SCIM, HRIS, Billing and Statements at 360 and 390 px: axe clean (light and dark),
 *    no sideways scroll.
 * 4. Settings → SFTP uploads at 390 px against a real local SFTP server (ssh2, as the server tests
 *    start it) and the server's uploader as `npm start` runs it (kicked by the queued upload's
 *    NOTIFY; loopback allowed as the test server allows it): an inside address is refused on the
 *    Host field and nothing is stored; the local server is saved, "Upload now" puts the file there,
 *    the page shows the host key pinned (the key the SFTP server offers), and the file read back
 *    with papaparse holds exactly the server's cleared transactions.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Papa from 'papaparse';
import type { Page } from 'playwright-core';
import ssh2 from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSftpUploads, type SftpUploader } from '../../server/domain/sftp-uploads/uploader.ts';
import { startTestSftpServer, type TestSftpServer } from '../../server/domain/sftp-uploads/test-sftp-server.ts';
import { minorToDecimal } from '../../schema/money.ts';
import { apiSignIn } from '../support/api.ts';
import { axeFindings } from '../support/axe.ts';
import { signIn } from '../support/browser.ts';
import { server, useServerAndSessions } from '../support/e2e-app.ts';
import { expectNoHorizontalScroll } from '../support/phone-page.ts';

const PASSWORD = 'demo-password-1';
const openSession = useServerAndSessions({ transactions: 60 });
let sftp: TestSftpServer;
let uploader: SftpUploader | null = null;
beforeAll(async () => { sftp = await startTestSftpServer(); });
afterAll(async () => {
  uploader?.stop();
  await sftp?.close();
});

/** The host key the SFTP server offers, as OpenSSH prints it (SHA256:base64, no padding), read by our own ssh2 client. */
function offeredHostKey(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client();
    client.on('error', () => undefined);
    client.on('close', () => reject(new Error('no host key offered')));
    client.connect({
      host: '127.0.0.1', port, username: 'probe', password: 'probe',
      hostVerifier: (key: Buffer) => {
        resolve(`SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`);
        return false;
      },
    });
  });
}

const csvOf = async (download: { path(): Promise<string | null> }) =>
  Papa.parse<string[]>((await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;

async function signedIn(label: string, email: string): Promise<Page> {
  const session = await openSession(label);
  await session.page.goto('/sign-in');
  await signIn(session.page, email, PASSWORD);
  return session.page;
}

/** The server's answer to the admin's token (the API, never the page). */
async function api<T>(token: string, path: string): Promise<T> {
  const res = await fetch(`${server.url}${path}`, { headers: { 'RAMP-ID-TOKEN': token } });
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

describe('exports, statements and saved views', () => {
  it('chooses export columns, exports primary cards, and downloads a statement made by a job', async () => {
    const page = await signedIn('admin', 'admin@demo.test');
    await page.goto('/cards?view=managed');
    await page.getByRole('heading', { name: 'Cards', level: 1 }).waitFor();

    // Columns…: Status, Card, Last four, in that order.
    await page.getByRole('button', { name: 'Columns…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Columns for cards exports' });
    await dialog.getByRole('checkbox', { name: 'Card', exact: true }).waitFor();
    for (const box of await dialog.getByRole('checkbox').all()) await box.uncheck();
    await expect.poll(() => dialog.getByRole('button', { name: 'Choose a column' }).isDisabled()).toBe(true);
    for (const name of ['Card', 'Last four', 'Status']) await dialog.getByRole('checkbox', { name, exact: true }).check();
    // Status is fourth (Card, Last four, Cardholder, Status): three moves up make it first.
    for (let i = 0; i < 3; i++) await dialog.getByRole('button', { name: 'Move Status up' }).click();
    await dialog.getByRole('button', { name: 'Save 3 columns' }).click();
    await dialog.waitFor({ state: 'detached' });

    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const rows = await csvOf(file);
    expect(rows[0]).toEqual(['Status', 'Card', 'Last four']);
    expect(rows.length).toBeGreaterThan(1);

    // Export primary cards: one row per person's primary card (the server's cards say which).
    await page.getByRole('button', { name: 'Export primary cards' }).click();
    const exp = page.getByRole('dialog', { name: 'Export primary cards' });
    expect(await axeFindings(page)).toEqual([]);
    const [primary] = await Promise.all([page.waitForEvent('download'), exp.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(primary.suggestedFilename()).toMatch(/^primary-cards-\d{4}-\d{2}-\d{2}\.csv$/);
    const table = await csvOf(primary);
    const header = table[0]!;
    expect(header).toEqual(['Cardholder', 'Email', 'Department', 'Location', 'Card', 'Last four', 'Type', 'Status', 'Limit', 'Currency', 'Interval', 'Expires', 'Card ID']);
    const { token } = await apiSignIn(server.url, 'admin@demo.test', PASSWORD);
    const cards = (await api<{ data: { id: string; is_primary: boolean; status: string; last_four: string | null; limit: { currency: string } }[] }>(token, '/v1/auth/cards?page_size=100')).data;
    const primaries = cards.filter((c) => c.is_primary && c.status !== 'TERMINATED');
    expect(table.slice(1).map((r) => r[12]).sort()).toEqual(primaries.map((c) => c.id).sort());
    for (const r of table.slice(1)) {
      const card = primaries.find((c) => c.id === r[12])!;
      expect([r[5], r[7], r[9]]).toEqual([card.last_four ?? '', card.status, card.limit.currency]);
      expect(r[8]).toMatch(/^\d+(\.\d+)?$/);
    }

    // Cards → Statements: a CSV statement job, its progress in the jobs tray, then the file.
    await page.getByRole('link', { name: 'Statements' }).click();
    await page.getByRole('heading', { name: 'Statements', level: 1 }).waitFor();
    await page.getByRole('radio', { name: 'CSV' }).check();
    await page.getByRole('button', { name: 'Generate' }).click();
    const tray = page.getByRole('region', { name: 'Background jobs' });
    await tray.waitFor();
    const job = page.getByRole('region', { name: 'Statement job' });
    await job.getByRole('button', { name: /^Download / }).waitFor({ timeout: 60_000 });
    const [statement] = await Promise.all([page.waitForEvent('download'), job.getByRole('button', { name: /^Download / }).click()]);
    expect(statement.suggestedFilename()).toMatch(/\.csv$/);
    const lines = await csvOf(statement);
    const types = new Set(lines.slice(1).map((l) => l[0]));
    for (const type of ['statement', 'opening_balance', 'closing_balance']) expect(types).toContain(type);
    // The tray lists the same job (its title, its last progress line) and downloads the same file.
    const title = (await job.getByRole('heading', { level: 2 }).textContent())!;
    const item = tray.getByRole('listitem').filter({ hasText: title });
    await item.waitFor();
    expect(await item.getByRole('status').textContent()).not.toBe('');
    const [again] = await Promise.all([page.waitForEvent('download'), item.getByRole('button', { name: 'Download' }).click()]);
    expect(await csvOf(again)).toEqual(lines);
  }, 180_000);

  it('a shared saved view is opened by a colleague in another browser', async () => {
    const admin = await signedIn('admin (views)', 'admin@demo.test');
    await admin.goto('/transactions?missing_receipt=true');
    await admin.getByRole('button', { name: 'Views' }).click();
    await admin.getByRole('menuitem', { name: 'Save current view as…' }).click();
    const save = admin.getByRole('dialog', { name: 'Save view' });
    await save.getByLabel('Name').fill('Receipts to chase');
    await save.getByRole('checkbox', { name: /Share with/ }).check();
    await save.getByRole('button', { name: 'Save view' }).click();
    await save.waitFor({ state: 'detached' });
    await admin.getByRole('button', { name: /Receipts to chase/ }).waitFor();

    const colleague = await signedIn('bookkeeper', 'bookkeeper@demo.test');
    await colleague.goto('/transactions');
    await colleague.getByRole('button', { name: 'Views' }).click();
    const shared = colleague.getByRole('group', { name: 'Shared with you' });
    await shared.getByRole('menuitem', { name: /Receipts to chase/ }).click();
    await expect.poll(() => new URL(colleague.url()).searchParams.get('missing_receipt')).toBe('true');
    await colleague.getByRole('button', { name: /Receipts to chase/ }).waitFor();
  }, 120_000);

  it('the SCIM, HRIS, billing and statements pages at 360 and 390 px: axe clean, no sideways scroll', async () => {
    const page = await signedIn('admin (phone)', 'admin@demo.test');
    for (const [path, heading] of [
      ['/settings/integrations/scim', 'SCIM provisioning'],
      ['/settings/integrations/hris', 'HRIS'],
      ['/settings/billing', 'Billing'],
      ['/statements', 'Statements'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await expect.poll(() => page.getByText(/^Loading/).count()).toBe(0);
      expect(await axeFindings(page, { width: 360, height: 740 }), path).toEqual([]);
      for (const width of [360, 390]) {
        await page.setViewportSize({ width, height: 800 });
        await expectNoHorizontalScroll(page, `${path} at ${width} px`);
      }
    }
  }, 120_000);

  it('the SFTP page saves a local SFTP server, refuses an inside one, uploads the cleared transactions and pins the host key', async () => {
    uploader = await startSftpUploads(server.db, {
      now: Date.now, everyMs: 60_000, net: { allowLoopback: true, dnsServer: null }, onError: (err) => console.error('sftp uploads', err),
    });
    mkdirSync(join(sftp.root, 'exports'));
    const page = await signedIn('admin (sftp)', 'admin@demo.test');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/settings/integrations/sftp');
    await page.getByRole('heading', { name: 'SFTP uploads', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Add a destination' }).click();
    const form = page.getByRole('form', { name: 'SFTP destination' });
    await form.getByLabel(/^Name/).fill('Data warehouse');
    const host = form.getByLabel(/^Host/);
    await host.fill('10.0.0.7');
    await form.getByLabel(/^Port/).fill(String(sftp.port));
    await form.getByLabel(/^Username/).fill(sftp.username);
    await form.getByLabel(/^Password/).fill(sftp.password);
    await form.getByLabel(/^Remote folder/).fill('/exports');
    await form.getByLabel(/^Include transactions from/).fill('2000-01-01');
    await form.getByRole('button', { name: 'Add destination' }).click();
    await form.getByRole('alert').filter({ hasText: /host must be a public internet address/ }).waitFor();
    expect(await host.getAttribute('aria-invalid')).toBe('true');
    const note = await host.getAttribute('aria-describedby');
    expect(await page.evaluate((id) => document.getElementById(id)?.textContent ?? '', note!)).toMatch(/^host must be a public internet address/);
    expect(await host.inputValue()).toBe('10.0.0.7');
    const destinations = () => server.db.query<{ host: string; host_key_sha256: string | null }>(
      'SELECT host, host_key_sha256 FROM sftp_destinations WHERE business_id = $1 AND deleted_at IS NULL', [server.businessId]);
    expect(await destinations()).toEqual([]);
    expect(await axeFindings(page, { width: 390, height: 844 })).toEqual([]);

    // The local SFTP server (loopback, allowed as on the test server): saved; the key is pinned at the first upload.
    await host.fill('127.0.0.1');
    await form.getByRole('button', { name: 'Add destination' }).click();
    await form.waitFor({ state: 'detached' });
    const card = page.getByRole('region', { name: 'Data warehouse' });
    await card.getByText(`${sftp.username}@127.0.0.1:${sftp.port}`).waitFor();
    await card.getByText('Pinned at the first upload').waitFor();
    expect(await page.content()).not.toContain(sftp.password);
    await card.getByRole('button', { name: 'Upload now' }).click();
    await card.getByRole('status').filter({ hasText: /^transactions-\d{4}-\d{2}-\d{2}\.csv is queued/ }).waitFor();
    const folder = join(sftp.root, 'exports');
    await expect.poll(() => readdirSync(folder).filter((f) => f.endsWith('.csv')).length, { timeout: 15_000 }).toBe(1);
    const [name] = readdirSync(folder);
    expect(name).toMatch(/^transactions-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(existsSync(join(folder, `${name}.part`))).toBe(false);

    // The file holds exactly the server's cleared transactions, amounts as the export writes them.
    const parsed = Papa.parse<Record<string, string>>(await readFile(join(folder, name!), 'utf8'), { header: true, skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    const cleared = await server.db.query<{ id: string; amount: string; currency: string }>(
      "SELECT id::text, amount::text, currency FROM transactions WHERE business_id = $1 AND state = 'CLEARED' AND NOT deleted ORDER BY id", [server.businessId]);
    expect(cleared.length).toBeGreaterThan(0);
    const rows = [...parsed.data].sort((a, b) => a['Transaction ID']!.localeCompare(b['Transaction ID']!));
    expect(rows.map((r) => r['Transaction ID'])).toEqual(cleared.map((c) => c.id));
    for (const [i, r] of rows.entries()) {
      expect(r.State).toBe('CLEARED');
      expect(r.Amount).toBe(minorToDecimal(Number(cleared[i]!.amount), cleared[i]!.currency));
      expect(r.Currency).toBe(cleared[i]!.currency);
    }

    // The page shows the upload and the pinned host key: the one the SFTP server offers.
    const fingerprint = await offeredHostKey(sftp.port);
    await expect.poll(async () => (await destinations())[0]?.host_key_sha256 ?? null, { timeout: 15_000 }).not.toBeNull();
    expect(`SHA256:${(await destinations())[0]!.host_key_sha256!.replace(/=+$/, '')}`).toBe(fingerprint);
    await page.reload();
    await card.getByText(fingerprint, { exact: true }).waitFor();
    await card.getByText(`${name} · ${cleared.length} transactions`).waitFor();
    await card.getByText('Uploaded', { exact: true }).waitFor();
    expect(await axeFindings(page, { width: 390, height: 844 })).toEqual([]);
    await expectNoHorizontalScroll(page, '/settings/integrations/sftp at 390 px');
  }, 90_000);
});
