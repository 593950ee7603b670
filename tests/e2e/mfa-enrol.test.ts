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
import { describe, expect, it } from 'vitest';
import { URI, type TOTP } from 'otpauth';
import { messageForError } from '../../schema/errors.ts';
import { mainNav } from '../support/browser.ts';
import { mailedCode } from '../support/dev-outbox.ts';
import { browser, printBrowserLogsOnFailure, server, useServerAndBrowser } from '../support/e2e-app.ts';

const USER = 'admin@demo.test';
const PASSWORD = 'demo-password-1';
const STEP_MS = 30_000;

useServerAndBrowser({ transactions: 50, devOutbox: true }, 120_000, {}, async (server) => {
  await server.db.query('UPDATE businesses SET mfa_required = true WHERE id = $1', [server.businessId]);
});

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
    const emailCode = await mailedCode(server.url, USER);
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
