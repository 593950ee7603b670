/**
 * Test helpers for support access (issue 24): the demo seed's support identity, signed in with
 * its second factor as it must be, and a business's grant through the admin's own call.
 */
import type { Hono } from 'hono';
import { totpCode } from '../auth/totp.ts';
import type { Db } from '../db/db.ts';
import { seedSupportIdentity, SUPPORT_EMAIL } from '../seed/support.ts';
import { request } from '../test-fixtures.ts';
import { enrolTotp, outboxCode, STEP_MS } from './identity-test-kit.ts';

const SUPPORT_TEST_PASSWORD = 'support-test-password-1';
const FAST = { N: 2 ** 10, r: 8, p: 1 };
/** The support identity's authenticator secret, per database (one support identity each). */
const secrets = new WeakMap<Db, string>();

/**
 * A fully signed-in support token: seeds the support identity (once per database), enrols its
 * authenticator on the first call (mailbox-bound, as every first enrolment; needs the dev outbox),
 * then signs in and passes MFA. Advances the clock one TOTP step per call.
 */
export async function supportToken(app: Hono, db: Db, clock: { ms: number; advance(ms: number): void }): Promise<string> {
  await seedSupportIdentity(db, SUPPORT_TEST_PASSWORD, FAST);
  const signIn = await request(app, 'POST', '/v1/public/sign-in', { body: { email: SUPPORT_EMAIL, password: SUPPORT_TEST_PASSWORD } });
  if (signIn.status !== 200 || signIn.body.mfa_required !== true) throw new Error(`support sign-in: ${signIn.status} ${signIn.text}`);
  const pending = signIn.body.id_token as string;
  let secret = secrets.get(db);
  if (!secret) {
    const sent = await request(app, 'POST', '/v1/auth/users/current/send-email-otp', { token: pending, body: {} });
    if (sent.status !== 200) throw new Error(`support email code: ${sent.status} ${sent.text}`);
    secret = (await enrolTotp(app, pending, clock.ms, await outboxCode(app, SUPPORT_EMAIL))).secret;
    secrets.set(db, secret);
  }
  clock.advance(STEP_MS);
  const verified = await request(app, 'POST', '/v1/auth/users/current/verify-mfa', { token: pending, body: { code: totpCode(secret, clock.ms) } });
  if (verified.status !== 200) throw new Error(`support MFA: ${verified.status} ${verified.text}`);
  return verified.body.id_token as string;
}

/** The business's admin turns support access on. */
export async function grantSupport(app: Hono, adminToken: string, body: { days: number; allow_writes?: boolean }) {
  const res = await request(app, 'POST', '/v1/auth/businesses/support-access', { token: adminToken, body });
  if (res.status !== 201) throw new Error(`grant: ${res.status} ${res.text}`);
  return res.body as { grant: { id: string; expires_at: string } };
}
