/**
 * Issue 32, customer API clients end to end: the built PWA served by the real server (PGlite) in
 * headless Chromium. The demo admin opens Settings → Integrations → API clients (axe clean on the
 * empty state, desktop and 390 px), creates a client with `transactions:read` (the server asks for
 * a step-up: the password), reads the secret from the dialog the one time it is shown, and after
 * "I’ve stored it" it is nowhere on the page. A script (fetch here) trades the id and secret for a
 * token at /v1/public/token (HTTP Basic, RFC 6749 §4.4), reads /v1/auth/transactions with it, and
 * is refused a transaction write it has no scope for (403 FORBIDDEN_7003). The page's "Recent
 * requests" lists those calls with their statuses; axe clean with the client listed.
 */
import { describe, expect, it } from 'vitest';
import { axeFindings } from '../support/axe.ts';
import { signIn } from '../support/browser.ts';
import { browser, printBrowserLogsOnFailure, server, useServerAndBrowser } from '../support/e2e-app.ts';

const ADMIN = 'admin@demo.test';
const PASSWORD = 'demo-password-1';

useServerAndBrowser({ transactions: 20 });

describe('customer API clients', () => {
  it('creates a client, shows its secret once, and a script reads transactions with a scoped token', async () => {
    printBrowserLogsOnFailure({ browser });
    const page = browser.page;
    await page.goto('/sign-in');
    await signIn(page, ADMIN, PASSWORD);
    await page.goto('/settings/integrations/api');
    await page.getByRole('heading', { name: 'API clients', level: 1 }).waitFor();
    await page.getByText('No API clients yet').waitFor();
    expect(await axeFindings(page)).toEqual([]);

    await page.getByRole('button', { name: 'Create API client' }).click();
    const create = page.getByRole('dialog', { name: 'Create API client' });
    await create.getByLabel('Name').fill('Warehouse sync');
    await expect.poll(() => create.getByRole('checkbox', { name: 'Read transactions' }).isChecked()).toBe(true);
    await create.getByRole('button', { name: 'Create client' }).click();
    const stepUp = page.getByRole('dialog', { name: 'Confirm it\'s you' });
    await stepUp.getByLabel('Password').fill(PASSWORD);
    await stepUp.getByRole('button', { name: 'Confirm' }).click();

    const shown = page.getByRole('dialog', { name: 'Copy the client secret' });
    const secret = (await shown.getByTestId('api-client-secret').textContent())!;
    const clientId = (await shown.getByTestId('api-client-id').textContent())!;
    expect(secret).toMatch(/^llsk_[A-Za-z0-9_-]{43}$/);
    await shown.getByRole('button', { name: 'I’ve stored it' }).click();
    await shown.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Warehouse sync' }).waitFor();
    expect(await page.content()).not.toContain(secret);
    await page.getByText(`llsk_…${secret.slice(-4)}`).first().waitFor();

    // The script: a token by client credentials, then the API with it.
    const basic = Buffer.from(`${clientId}:${secret}`).toString('base64');
    const tokenRes = await fetch(`${server.url}/v1/public/token`, {
      method: 'POST', headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    expect(tokenRes.status).toBe(200);
    const token = (await tokenRes.json()) as { access_token: string; scope: string; token_type: string };
    expect(token).toMatchObject({ token_type: 'Bearer', scope: 'transactions:read' });
    const auth = { authorization: `Bearer ${token.access_token}` };
    const list = await fetch(`${server.url}/v1/auth/transactions?page_size=5`, { headers: auth });
    expect(list.status).toBe(200);
    const rows = ((await list.json()) as { data: { id: string }[] }).data;
    expect(rows.length).toBe(5);
    const write = await fetch(`${server.url}/v1/auth/transactions/${rows[0]!.id}`, {
      method: 'PATCH', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ memo: 'from a script' }),
    });
    expect(write.status).toBe(403);
    expect(((await write.json()) as { error_v2: { error_code: string } }).error_v2.error_code).toBe('FORBIDDEN_7003');

    await page.getByRole('button', { name: 'Recent requests of Warehouse sync' }).click();
    const table = page.getByRole('table', { name: 'Recent requests of Warehouse sync' });
    await table.waitFor();
    await expect.poll(async () => (await table.locator('tbody tr').allTextContents()).map((t) => t.replace(/\s+/g, ' '))).toEqual([
      expect.stringMatching(/PATCH \/v1\/auth\/transactions\/\S+ ?403/),
      expect.stringMatching(/GET \/v1\/auth\/transactions ?200/),
      expect.stringMatching(/POST \/v1\/public\/token ?200/),
    ]);
    expect(await axeFindings(page)).toEqual([]);
  }, 60_000);
});
