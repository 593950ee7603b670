/** Shared helpers of the identity route tests: an injectable clock and MFA enrolment. */
import { afterEach, beforeEach, vi } from 'vitest';
import { decodeJwt } from 'jose';
import type { Hono } from 'hono';
import { tokenClaimsSchema } from '../../schema/api/scopes.ts';
import { totpCode, TOTP_PERIOD_SECONDS } from '../auth/totp.ts';
import { request } from '../test-fixtures.ts';

export const STEP_MS = TOTP_PERIOD_SECONDS * 1000;

/** A settable clock for createApp({now}); starts on a fresh TOTP step. */
export function testClock(startMs = Date.UTC(2026, 5, 1, 12)) {
  const clock = { ms: startMs, now: () => clock.ms, advance: (ms: number) => (clock.ms += ms) };
  return clock;
}

export const claimsOf = (token: string) => tokenClaimsSchema.parse(decodeJwt(token));

/** The latest code the dev outbox holds for an address. */
export async function outboxCode(app: Hono, email: string): Promise<string> {
  const res = await request(app, 'GET', `/v1/public/dev/outbox?email=${encodeURIComponent(email)}`);
  const match = /\b(\d{6})\b/.exec(res.body.messages[0]?.body ?? '');
  if (!match) throw new Error(`no code in the outbox for ${email}: ${res.text}`);
  return match[1]!;
}

/**
 * Enrols and activates a TOTP authenticator; returns its id and secret. emailCode: the mailed
 * code a first enrolment from a sign-in still waiting for MFA needs.
 */
export async function enrolTotp(app: Hono, token: string, nowMs: number, emailCode?: string) {
  const start = await request<{ authenticator_id: string; secret: string; otpauth_uri: string }>(
    app, 'POST', '/v1/auth/authentication/tokens/totp', { token, body: {} },
  );
  if (start.status !== 201) throw new Error(`enrol start failed: ${start.status} ${start.text}`);
  const verify = await request(app, 'POST', `/v1/auth/authentication/tokens/totp/${start.body.authenticator_id}/verify`, {
    token, body: { code: totpCode(start.body.secret, nowMs), ...(emailCode && { email_code: emailCode }) },
  });
  if (verify.status !== 200) throw new Error(`enrol verify failed: ${verify.status} ${verify.text}`);
  return { id: start.body.authenticator_id, secret: start.body.secret };
}

/**
 * Captures the server log's invite emails for the tests of one describe block (registers its own
 * beforeEach/afterEach); `tokenFor(email)` is the token of the last invite sent to that address.
 */
export function captureInviteMails() {
  const mails: string[] = [];
  beforeEach(() => {
    mails.length = 0;
    vi.spyOn(console, 'log').mockImplementation((line: string) => void mails.push(String(line)));
  });
  afterEach(() => vi.restoreAllMocks());
  const tokenFor = (email: string) => {
    const line = [...mails].reverse().find((m) => m.includes(`mail to ${email}: You are invited`));
    const token = line?.match(/\/invites\/([A-Za-z0-9_-]+)/)?.[1];
    if (!token) throw new Error(`no invite email to ${email}`);
    return token;
  };
  return { mails, tokenFor };
}
