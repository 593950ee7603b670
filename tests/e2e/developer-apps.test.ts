/**
 * Issue 32, developer applications end to end: the built PWA served by the real server (PGlite)
 * in headless Chromium, and a script using oauth4webapi as the third-party app. The demo admin
 * registers a public app (Settings → Integrations → Developer applications, step-up, axe clean);
 * the script builds the authorize URL (PKCE S256, state); Chromium opens the consent page (app,
 * publisher, scopes in words, the business; axe clean at 390 px) and Allows; the browser lands on
 * the app's redirect URI with code and state (intercepted); the script trades the code at
 * /v1/public/token and reads /v1/auth/transactions. Connected apps lists it (who, scopes); after
 * Disconnect (asked first) the script's token is refused (401).
 */
import { describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import { axeFindings } from '../support/axe.ts';
import { signIn } from '../support/browser.ts';
import { browser, printBrowserLogsOnFailure, server, useServerAndBrowser } from '../support/e2e-app.ts';

const ADMIN = 'admin@demo.test';
const PASSWORD = 'demo-password-1';
const REDIRECT = 'https://acme-sync.example/callback';

useServerAndBrowser({ transactions: 20 });

describe('developer applications', () => {
  it('registers an app, an admin allows it on the consent page, the app reads transactions until Disconnect', async () => {
    printBrowserLogsOnFailure({ browser });
    const page = browser.page;
    await page.goto('/sign-in');
    await signIn(page, ADMIN, PASSWORD);
    await page.goto('/settings/integrations/developer-apps');
    await page.getByRole('heading', { name: 'Developer applications', level: 1 }).waitFor();
    await page.getByText('No applications yet').waitFor();

    await page.getByRole('button', { name: 'Register application' }).click();
    const dialog = page.getByRole('dialog', { name: 'Register application' });
    await dialog.getByLabel('Name').fill('Acme Sync');
    await dialog.getByLabel('Description (optional)').fill('Syncs card spend into Acme Books.');
    await dialog.getByRole('radio', { name: /public/ }).check();
    await dialog.getByLabel('Redirect URIs, one a line').fill(REDIRECT);
    expect(await axeFindings(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Register application' }).click();
    const stepUp = page.getByRole('dialog', { name: 'Confirm it\'s you' });
    await stepUp.getByLabel('Password').fill(PASSWORD);
    await stepUp.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('heading', { name: 'Acme Sync', level: 2 }).waitFor();
    const clientId = (await page.locator('.api-client-facts code').first().textContent())!.trim();
    expect(clientId).toMatch(/^[0-9a-f-]{36}$/);

    // The third-party app: an authorize URL with PKCE and state.
    const as: oauth.AuthorizationServer = { issuer: server.url, token_endpoint: `${server.url}/v1/public/token` };
    const client: oauth.Client = { client_id: clientId };
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const authorize = new URL('/oauth/authorize', server.url);
    for (const [k, v] of Object.entries({
      response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, scope: 'transactions:read', state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
    })) authorize.searchParams.set(k, v);

    let landed: string | null = null;
    await page.route(`${REDIRECT}**`, (route) => {
      landed = route.request().url();
      return route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Acme Sync</title><main>Connected</main>' });
    });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(authorize.pathname + authorize.search);
    await page.getByRole('heading', { name: /^Allow Acme Sync to access / }).waitFor();
    await page.getByText('Read transactions').waitFor();
    await page.getByText('Syncs card spend into Acme Books.').waitFor();
    expect(await axeFindings(page)).toEqual([]);
    await page.getByRole('button', { name: 'Allow' }).click();
    await expect.poll(() => landed, { timeout: 15_000 }).not.toBeNull();

    const params = oauth.validateAuthResponse(as, client, new URL(landed!), state);
    const opts = { [oauth.allowInsecureRequests]: true };
    const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, verifier, opts);
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
    expect(tokens.scope).toBe('transactions:read');
    const read = () => fetch(`${server.url}/v1/auth/transactions?page_size=5`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    const list = await read();
    expect(list.status).toBe(200);
    expect(((await list.json()) as { data: unknown[] }).data).toHaveLength(5);

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/settings/integrations/connected-apps');
    await page.getByRole('heading', { name: 'Acme Sync', level: 2 }).waitFor();
    await page.getByRole('list', { name: 'What Acme Sync may do' }).getByText('Read transactions').waitFor();
    expect(await axeFindings(page)).toEqual([]);
    await page.getByRole('button', { name: 'Disconnect Acme Sync' }).click();
    const confirm = page.getByRole('dialog', { name: 'Disconnect Acme Sync?' });
    await confirm.getByRole('button', { name: 'Disconnect' }).click();
    await page.getByText('No connected apps').waitFor();
    expect((await read()).status).toBe(401);
  }, 60_000);
});
