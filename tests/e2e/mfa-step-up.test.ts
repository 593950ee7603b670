/**
 * Issue 3, end to end: MFA sign-in and a step-up prompt for a `sensitive` action, on real parts
 * only: the built PWA (dist/) served by the real server (PGlite, 200 demo transactions) in
 * Debian's headless Chromium with a fresh profile.
 *
 * A demo user enrols a TOTP authenticator through the API (codes computed here with the
 * otpauth package from the otpauth:// URI the server hands out) → signs in through the UI: the
 * "Verification code" step appears, a valid code loads the app → Settings → Change password →
 * the "Confirm it's you" step-up dialog → the password → the password is changed, proven by
 * signing in over the API with the new one (and the old one refused).
 */
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { URI, type TOTP } from 'otpauth';
import { signIn as signInCall } from '../../schema/api/calls.ts';
import { totpStart, totpVerify } from '../../schema/api/calls-identity.ts';
import { startTestServer, type TestServer } from '../../server/testing.ts';
import { ApiError, apiSignIn } from '../support/api.ts';
import { launchBrowser, mainNav, type BrowserSession } from '../support/browser.ts';

const USER = 'admin@demo.test';
const PASSWORD = 'demo-password-1';
const NEW_PASSWORD = 'a-much-longer-password-2';
const STEP_MS = 30_000;

let server: TestServer;
let browser: BrowserSession;
let authenticator: TOTP;

beforeAll(async () => {
  server = await startTestServer({ serveDist: true, transactions: 200 });
  browser = await launchBrowser({ baseURL: server.url });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

function showBrowserLogsOnFailure() {
  onTestFailed(() => {
    if (browser?.logs.length) console.error(`browser logs:\n${browser.logs.slice(-60).join('\n')}`);
  });
}

/**
 * A code is never accepted twice (nor any older step): the next 30 s step's code is within the
 * server's ±1 step window and newer than every code used so far.
 */
const nextCode = () => authenticator.generate({ timestamp: Date.now() + STEP_MS });

/** Signs in over the API; resolves with mfa_required, or rejects with the server's status. */
async function apiPasswordSignIn(password: string): Promise<{ mfa_required: boolean }> {
  const res = await fetch(new URL(signInCall.path, server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ email: USER, password }),
  });
  const text = await res.text();
  if (!res.ok) throw new ApiError(res.status, text, signInCall.id);
  return signInCall.response.parse(JSON.parse(text));
}

describe('MFA sign-in and step-up, end to end', () => {
  it('enrols a TOTP authenticator for the user through the API', async () => {
    const api = await apiSignIn(server.url, USER, PASSWORD);
    const setup = await api.call(totpStart, { body: {} });
    const parsed = URI.parse(setup.otpauth_uri);
    if (!('period' in parsed)) throw new Error('the otpauth URI is not a TOTP one');
    authenticator = parsed;
    expect(authenticator.secret.base32).toBe(setup.secret);
    await api.call(totpVerify, {
      params: { authenticator_id: setup.authenticator_id },
      body: { code: authenticator.generate() },
    });
    await expect(apiPasswordSignIn(PASSWORD)).resolves.toEqual(expect.objectContaining({ mfa_required: true }));
  });

  it('signs in through the UI: the verification code step appears, and a valid code loads the app', async () => {
    showBrowserLogsOnFailure();
    const { page } = browser;
    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(USER, { timeout: 30_000 });
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();

    const code = page.getByLabel('Verification code');
    await code.waitFor({ state: 'visible', timeout: 30_000 });
    await expect(mainNav(page).count()).resolves.toBe(0);
    // A wrong code is refused and the step stays.
    await code.fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').first().waitFor({ state: 'visible' });
    await expect(mainNav(page).count()).resolves.toBe(0);

    await code.fill(nextCode());
    await page.getByRole('button', { name: 'Verify' }).click();
    await mainNav(page).waitFor({ state: 'visible', timeout: 30_000 });
  });

  it('changing the password asks "Confirm it\'s you" first, and succeeds after the step-up', async () => {
    showBrowserLogsOnFailure();
    const { page } = browser;
    await mainNav(page).getByRole('link', { name: 'Settings' }).click();
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();

    const dialog = page.getByRole('dialog', { name: "Confirm it's you" });
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    // Nothing changed before the step-up: the old password still signs in.
    await expect(apiPasswordSignIn(PASSWORD)).resolves.toBeTruthy();

    await dialog.getByLabel('Password').fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 30_000 });
    await page.getByText('Your password was changed.').waitFor({ state: 'visible', timeout: 30_000 });

    await expect(apiPasswordSignIn(NEW_PASSWORD)).resolves.toEqual(expect.objectContaining({ mfa_required: true }));
    await expect(apiPasswordSignIn(PASSWORD)).rejects.toMatchObject({ status: 401 });
  });
});
