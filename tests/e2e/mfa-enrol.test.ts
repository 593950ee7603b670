/**
 * Issue 3, end to end: enforced MFA meets a person with no authenticator yet. On real parts only:
 * the built PWA (dist/) served by the real server (PGlite) in Debian's headless Chromium.
 *
 * The demo business requires MFA (businesses.mfa_required); its admin has never enrolled. Signing
 * in through the UI shows "Set up two-factor authentication" with the secret and otpauth link as
 * text; the code the server mailed is read from the dev outbox (GET /v1/public/dev/outbox); the
 * authenticator codes are computed here with the otpauth package from the link the page shows. A
 * wrong email code is refused with the server's message; the right codes turn the authenticator on,
 * the next code finishes the sign-in, and the app loads. The authenticator is active in the database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { URI, type TOTP } from 'otpauth';
import { devOutbox } from '../../schema/api/calls-identity.ts';
import { messageForError } from '../../schema/errors.ts';
import { startTestServer, type TestServer } from '../../server/testing.ts';
import { launchBrowser, mainNav, type BrowserSession } from '../support/browser.ts';
import { printBrowserLogsOnFailure } from '../support/e2e-app.ts';

const USER = 'admin@demo.test';
const PASSWORD = 'demo-password-1';
const STEP_MS = 30_000;

let server: TestServer;
let browser: BrowserSession;

beforeAll(async () => {
  server = await startTestServer({ serveDist: true, transactions: 50, devOutbox: true });
  await server.db.query('UPDATE businesses SET mfa_required = true WHERE id = $1', [server.businessId]);
  browser = await launchBrowser({ baseURL: server.url });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The newest mailed verification code for the address (the dev outbox lists newest first). */
async function mailedCode(email: string): Promise<string> {
  const url = new URL(devOutbox.path, server.url);
  url.searchParams.set('email', email);
  const res = await fetch(url, { headers: { accept: 'application/json' } });
  const { messages } = devOutbox.response.parse(await res.json());
  const code = /\b(\d{6})\b/.exec(messages[0]?.body ?? '')?.[1];
  if (!code) throw new Error(`no code in the dev outbox for ${email}`);
  return code;
}

describe('first MFA enrolment during sign-in, end to end', () => {
  it('a user of an MFA-required business with no authenticator enrols from the sign-in page and lands in the app', async () => {
    printBrowserLogsOnFailure({ browser });
    const { page } = browser;
    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(USER, { timeout: 30_000 });
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();

    await page.getByRole('heading', { name: 'Set up two-factor authentication' }).waitFor({ state: 'visible', timeout: 30_000 });
    await page.getByText(`We sent a code to ${USER}.`).waitFor({ state: 'visible', timeout: 30_000 });
    const secret = (await page.getByLabel('Authenticator secret').textContent())?.trim() ?? '';
    const parsed = URI.parse((await page.getByLabel('Authenticator link').textContent())?.trim() ?? '');
    if (!('period' in parsed)) throw new Error('the otpauth link on the page is not a TOTP one');
    const authenticator: TOTP = parsed;
    expect(authenticator.secret.base32).toBe(secret);
    await expect(mainNav(page).count()).resolves.toBe(0);

    // Steps are single-use: enrol with this step's code, finish with the next one (the ±1 window).
    const step = Math.floor(Date.now() / STEP_MS);
    const emailCode = await mailedCode(USER);
    const wrongEmailCode = emailCode === '000000' ? '111111' : '000000';
    await page.getByLabel('Email code').fill(wrongEmailCode);
    await page.getByLabel('Authenticator code').fill(authenticator.generate({ timestamp: step * STEP_MS }));
    await page.getByRole('button', { name: 'Turn on and continue' }).click();
    await page.getByRole('alert').getByText(messageForError('PROFILE_7017')).waitFor({ state: 'visible', timeout: 30_000 });

    await page.getByLabel('Email code').fill(emailCode);
    await page.getByRole('button', { name: 'Turn on and continue' }).click();
    const code = page.getByLabel('Verification code');
    await code.waitFor({ state: 'visible', timeout: 30_000 });
    const active = await server.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM totp_authenticators t JOIN identities i ON i.id = t.identity_id
        WHERE i.email = $1 AND t.active`,
      [USER],
    );
    expect(active[0]?.n).toBe(1);

    await code.fill(authenticator.generate({ timestamp: (step + 1) * STEP_MS }));
    await page.getByRole('button', { name: 'Verify' }).click();
    await mainNav(page).waitFor({ state: 'visible', timeout: 30_000 });
  });
});
