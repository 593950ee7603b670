/**
 * Issue 14 part 6, end to end: passkeys as the second factor and for step-up, in Debian's
 * headless Chromium with a CDP virtual authenticator (ctap2, internal, user verification, resident
 * keys) standing in for Touch ID / Windows Hello, against the built PWA served by the real server.
 *
 * WebAuthn needs a secure context and a domain RP ID: the app is opened at http://localhost:PORT
 * (never 127.0.0.1), which the server accepts as its relying party without PUBLIC_URL.
 *
 * A demo user signs in → Settings → Security → "Add a passkey", names it → the passkey is listed
 * (axe clean) → signs out → signs in with the password: the MFA step offers "Use a passkey" →
 * the app loads → Settings → removes the passkey: the confirmation, then "Confirm it's you" with
 * "Use a passkey" → removed (gone from the list and the database); the next sign-in asks for no
 * second factor. Then the business requires MFA: the sign-in's first enrolment takes the emailed
 * code and "Use a passkey instead", and the new passkey finishes the sign-in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CDPSession } from 'playwright-core';
import { startTestServer, type TestServer } from '../../server/testing.ts';
import { axeFindings } from '../support/axe.ts';
import { type BrowserSession, launchBrowser, mainNav, openSection, signIn } from '../support/browser.ts';
import { mailedCode } from '../support/dev-outbox.ts';
import { printBrowserLogsOnFailure } from '../support/e2e-app.ts';

const USER = 'admin@demo.test';
const PASSWORD = 'demo-password-1';
const PASSKEY_NAME = 'E2E laptop';

let server: TestServer;
let browser: BrowserSession;
let cdp: CDPSession;
let authenticatorId: string;

beforeAll(async () => {
  server = await startTestServer({ serveDist: true, transactions: 20, devOutbox: true });
  const origin = server.url.replace('127.0.0.1', 'localhost');
  browser = await launchBrowser({ baseURL: origin });
  cdp = await browser.context.newCDPSession(browser.page);
  await cdp.send('WebAuthn.enable');
  const added = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  authenticatorId = added.authenticatorId;
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

function showBrowserLogsOnFailure() {
  printBrowserLogsOnFailure({ browser });
}

const securitySection = () => browser.page.getByRole('region', { name: 'Security' });
const passkeysRow = () => browser.page.getByRole('group', { name: 'Passkeys' });

async function openSettings() {
  await openSection(browser.page, 'Settings');
  await securitySection().waitFor({ state: 'visible', timeout: 30_000 });
}

const storedPasskeys = async () =>
  server.db.query<{ name: string; last_used_at: string | null }>(
    `SELECT c.name, ll_iso(c.last_used_at) AS last_used_at FROM webauthn_credentials c
       JOIN identities i ON i.id = c.identity_id WHERE i.email = $1`,
    [USER],
  );

describe('passkeys, end to end', () => {
  it('adds a passkey in Settings → Security with a name, and lists it', async () => {
    showBrowserLogsOnFailure();
    const { page } = browser;
    await page.goto('/sign-in');
    await signIn(page, USER, PASSWORD);
    await openSettings();
    const row = passkeysRow();
    await row.getByText('You have no passkeys yet.').waitFor({ state: 'visible', timeout: 30_000 });
    await row.getByRole('button', { name: 'Add a passkey' }).click();
    await row.getByLabel('Passkey name').fill(PASSKEY_NAME);
    await row.getByRole('button', { name: 'Continue' }).click();

    const list = row.getByRole('list', { name: 'Your passkeys' });
    await list.getByText(PASSKEY_NAME).waitFor({ state: 'visible', timeout: 30_000 });
    await expect(list.getByText(/Never used/).count()).resolves.toBe(1);
    expect(await storedPasskeys()).toEqual([{ name: PASSKEY_NAME, last_used_at: null }]);
    const creds = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(creds.credentials).toHaveLength(1);

    expect(await axeFindings(page)).toEqual([]);
  });

  it('signs out, then signs in with the password and the passkey as the second factor', async () => {
    showBrowserLogsOnFailure();
    const { page } = browser;
    await page.getByRole('button', { name: /^Account: / }).click();
    await page.getByRole('menuitem', { name: 'Sign out', exact: true }).click();
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor({ state: 'visible', timeout: 30_000 });

    await page.getByRole('textbox', { name: 'Email' }).fill(USER, { timeout: 30_000 });
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const usePasskey = page.getByRole('button', { name: 'Use a passkey' });
    await usePasskey.waitFor({ state: 'visible', timeout: 30_000 });
    await expect(mainNav(page).count()).resolves.toBe(0);
    await usePasskey.click();
    await mainNav(page).waitFor({ state: 'visible', timeout: 30_000 });
    const [stored] = await storedPasskeys();
    expect(stored?.last_used_at).not.toBeNull();
  });

  it('removing the passkey asks "Confirm it\'s you", answered with the passkey itself', async () => {
    showBrowserLogsOnFailure();
    const { page } = browser;
    await openSettings();
    const row = passkeysRow();
    await row.getByRole('button', { name: `Remove ${PASSKEY_NAME}` }).click({ timeout: 30_000 });
    const confirm = page.getByRole('dialog', { name: `Remove “${PASSKEY_NAME}”?` });
    await confirm.getByRole('button', { name: 'Remove passkey' }).click();

    const stepUp = page.getByRole('dialog', { name: "Confirm it's you" });
    await stepUp.waitFor({ state: 'visible', timeout: 30_000 });
    // Nothing removed before the step-up.
    expect(await storedPasskeys()).toHaveLength(1);
    await stepUp.getByRole('button', { name: 'Use a passkey' }).click({ timeout: 30_000 });
    await stepUp.waitFor({ state: 'detached', timeout: 30_000 });

    await row.getByText('You have no passkeys yet.').waitFor({ state: 'visible', timeout: 30_000 });
    await expect.poll(async () => (await storedPasskeys()).length, { timeout: 30_000 }).toBe(0);

    // No factor left: the next sign-in is not asked for one.
    await page.getByRole('button', { name: /^Account: / }).click();
    await page.getByRole('menuitem', { name: 'Sign out', exact: true }).click();
    // Settings has an Email field of its own (the security contact): wait for the sign-in page.
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor({ state: 'visible', timeout: 30_000 });
    await page.getByRole('textbox', { name: 'Email' }).fill(USER, { timeout: 30_000 });
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await mainNav(page).waitFor({ state: 'visible', timeout: 30_000 });
  });

  it('under enforced MFA, the first enrolment at sign-in can be a passkey (with the emailed code), which then finishes it', async () => {
    showBrowserLogsOnFailure();
    const { page } = browser;
    await server.db.query('UPDATE businesses SET mfa_required = true WHERE id = $1', [server.businessId]);
    await page.getByRole('button', { name: /^Account: / }).click();
    await page.getByRole('menuitem', { name: 'Sign out', exact: true }).click();
    // Settings has an Email field of its own (the security contact): wait for the sign-in page.
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor({ state: 'visible', timeout: 30_000 });
    await page.getByRole('textbox', { name: 'Email' }).fill(USER, { timeout: 30_000 });
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();

    await page.getByRole('heading', { name: 'Set up two-factor authentication' }).waitFor({ state: 'visible', timeout: 30_000 });
    await page.getByText(`We sent a code to ${USER}.`).waitFor({ state: 'visible', timeout: 30_000 });
    await page.getByLabel('Email code').fill(await mailedCode(server.url, USER));
    await page.getByRole('button', { name: 'Use a passkey instead' }).click();
    await page.getByText('Your passkey is set up. Use it once more to finish signing in.').waitFor({ state: 'visible', timeout: 30_000 });
    expect(await storedPasskeys()).toEqual([{ name: 'Passkey', last_used_at: null }]);
    await expect(mainNav(page).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await mainNav(page).waitFor({ state: 'visible', timeout: 30_000 });
  });
});
