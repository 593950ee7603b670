import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';
import {
  PASSKEY_CHALLENGE_MESSAGE, PASSKEY_COUNTER_MESSAGE, PASSKEY_FAILED_MESSAGE, PASSKEY_NOT_YOURS_MESSAGE,
  PASSKEY_REGISTRATION_MESSAGE, PASSKEYS_UNCONFIGURED_MESSAGE,
} from '../auth/webauthn.ts';
import { SoftPasskey } from '../auth/webauthn-test-kit.ts';
import { MAX_LIVE_CHALLENGES } from '../auth/webauthn-store.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { FIXTURE_PASSWORD, makeBusiness, request, signIn } from '../test-fixtures.ts';
import { FIRST_ENROLMENT_EMAIL_MESSAGE } from './identity.ts';
import { claimsOf, outboxCode, testClock } from './identity-test-kit.ts';
import { grantSupport, supportToken } from './support-test-kit.ts';
import { APP_ATTEST_CHALLENGE_MESSAGE, APP_ATTEST_MALFORMED_MESSAGE, APP_ATTEST_WEB_MESSAGE } from './webauthn-app-attest.ts';

const clock = testClock();
const SIX_MINUTES = 6 * 60 * 1000;
const TOKENS = '/v1/auth/authentication/tokens';
const WEBAUTHN = `${TOKENS}/webauthn`;

describe.each(await testDatabases())('passkeys on %s', (kind) => {
  const t = useTestApp(kind, { now: clock.now, devOutbox: true });
  afterEach(() => {
    delete process.env.PUBLIC_URL;
    delete process.env.LEDGERLINE_PASSKEY_ORIGINS;
  });

  const post = (path: string, token: string, body: unknown = {}, headers?: Record<string, string>) =>
    request(t.app, 'POST', path, { token, body, headers });

  async function register(token: string, key: SoftPasskey, name = 'Laptop', extra: Record<string, unknown> = {}) {
    const opts = await post(`${WEBAUTHN}/registration/options`, token);
    expect(opts.status, opts.text).toBe(201);
    return post(`${WEBAUTHN}/registration/verify`, token, { response: key.register(opts.body.options.challenge), name, ...extra });
  }

  async function challenge(token: string): Promise<string> {
    const opts = await post(`${WEBAUTHN}/authentication/options`, token);
    expect(opts.status, opts.text).toBe(201);
    return opts.body.options.challenge as string;
  }

  /** A person with one registered passkey, signed in again (MFA pending). */
  async function personWithPasskey() {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const email = f.email('employee');
    const key = new SoftPasskey();
    const reg = await register(await signIn(t.app, email), key);
    expect(reg.status, reg.text).toBe(201);
    return { f, email, key, passkeyId: reg.body.id as string };
  }

  it('registers a passkey, lists it, and signs in with it as the second factor', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const email = f.email('employee');
    const token = await signIn(t.app, email);
    const opts = await post(`${WEBAUTHN}/registration/options`, token);
    expect(opts.status).toBe(201);
    expect(opts.body.options).toMatchObject({ rp: { name: 'Ledgerline', id: 'localhost' }, user: { name: email }, attestation: 'none' });
    expect(opts.body.options.authenticatorSelection).toMatchObject({ userVerification: 'preferred' });
    const key = new SoftPasskey();
    const reg = await post(`${WEBAUTHN}/registration/verify`, token, { response: key.register(opts.body.options.challenge), name: '  Work laptop ' });
    expect(reg.status, reg.text).toBe(201);
    expect(reg.body).toMatchObject({ type: 'webauthn', name: 'Work laptop', last_used_at: null, transports: ['internal'], device_type: 'singleDevice' });

    const list = await request(t.app, 'GET', TOKENS, { token });
    expect(list.body.authenticators).toEqual([reg.body]);
    // The same authenticator is excluded from a second registration.
    const again = await post(`${WEBAUTHN}/registration/options`, token);
    expect(again.body.options.excludeCredentials).toEqual([expect.objectContaining({ id: key.id })]);

    const pending = await request(t.app, 'POST', '/v1/public/sign-in', { body: { email, password: FIXTURE_PASSWORD } });
    expect(pending.body.mfa_required).toBe(true);
    const half = pending.body.id_token as string;
    expect(claimsOf(half).ramp_access_scopes).toEqual([]);
    expect((await post('/v1/auth/users/current/check-mfa', half)).body).toMatchObject({ totp_enrolled: false, factors: ['webauthn'] });
    expect((await post('/v1/auth/users/current/send-mfa', half)).body).toEqual({ factor: 'totp', enrolled: false, factors: ['webauthn'] });
    const authOpts = await post(`${WEBAUTHN}/authentication/options`, half);
    expect(authOpts.body.options.allowCredentials).toEqual([expect.objectContaining({ id: key.id, type: 'public-key' })]);
    const verified = await post('/v1/auth/users/current/verify-mfa', half, { webauthn: key.assert(authOpts.body.options.challenge) });
    expect(verified.status, verified.text).toBe(200);
    const claims = claimsOf(verified.body.id_token);
    expect(claims.ramp_access_scopes).toEqual(['default']);
    expect(claims.ramp_mfa_authed).toBe(true);
    const after = await request(t.app, 'GET', TOKENS, { token: verified.body.id_token });
    expect(after.body.authenticators[0].last_used_at).toBe(new Date(clock.ms).toISOString());
  });

  it('refuses a replayed, unknown, expired or other-purpose challenge, a wrong origin, a counter going back and another person\'s passkey', async () => {
    const { email, key } = await personWithPasskey();
    const other = await personWithPasskey();
    const half = await signIn(t.app, email);
    const verify = (body: unknown) => post('/v1/auth/users/current/verify-mfa', half, body);
    const refusedWith = async (body: unknown, message: string) => {
      const res = await verify(body);
      expect(res.status, res.text).toBe(422);
      expect(res.body.error_v2).toMatchObject({ error_code: 'AUTH_7025', message });
    };

    const first = key.assert(await challenge(half));
    const replay = structuredClone(first);
    await refusedWith({ webauthn: key.assert(isoBase64URL.fromBuffer(randomBytes(32))) }, PASSKEY_CHALLENGE_MESSAGE);
    await refusedWith({ webauthn: key.assert(await challenge(half), { origin: 'https://evil.example' }) }, PASSKEY_FAILED_MESSAGE);
    await refusedWith({ webauthn: key.assert(await challenge(half), { rpId: 'evil.example' }) }, PASSKEY_FAILED_MESSAGE);
    await refusedWith({ webauthn: other.key.assert(await challenge(half)) }, PASSKEY_NOT_YOURS_MESSAGE);
    const stale = await challenge(half);
    clock.advance(5 * 60 * 1000 + 1);
    await refusedWith({ webauthn: key.assert(stale) }, PASSKEY_CHALLENGE_MESSAGE);
    // The sign-in token is now older than the recent-token window: a new sign-in.
    const half2 = await signIn(t.app, email);
    const ok = await post('/v1/auth/users/current/verify-mfa', half2, { webauthn: key.assert(await challenge(half2)) });
    expect(ok.status, ok.text).toBe(200);
    // first was for half's session: never usable by another session, and used responses stay used.
    const cross = await post('/v1/auth/users/current/verify-mfa', half2, { webauthn: replay });
    expect(cross.body.error_v2.message).toBe(PASSKEY_CHALLENGE_MESSAGE);
    // A registration challenge never passes an authentication.
    const regChallenge = (await post(`${WEBAUTHN}/registration/options`, ok.body.id_token)).body.options.challenge;
    const half3 = await signIn(t.app, email);
    const wrongPurpose = await post('/v1/auth/users/current/verify-mfa', half3, { webauthn: key.assert(regChallenge) });
    expect(wrongPurpose.body.error_v2.message).toBe(PASSKEY_CHALLENGE_MESSAGE);
    // A counter that does not grow is a cloned authenticator.
    const back = await post('/v1/auth/users/current/verify-mfa', half3, { webauthn: key.assert(await challenge(half3), { counter: 1 }) });
    expect(back.body.error_v2.message).toBe(PASSKEY_COUNTER_MESSAGE);
    // Replaying the one accepted assertion on its own session.
    const again = await post('/v1/auth/users/current/verify-mfa', half2, { webauthn: replay });
    expect(again.status).toBe(422);
  });

  it('a registration challenge is single use and bound to the origin: a replayed or other-origin response is refused', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const token = await signIn(t.app, f.email('employee'));
    const optionsFor = async () => {
      const opts = await post(`${WEBAUTHN}/registration/options`, token);
      expect(opts.status, opts.text).toBe(201);
      return opts.body.options.challenge as string;
    };
    const verify = (response: unknown, name = 'Key') => post(`${WEBAUTHN}/registration/verify`, token, { response, name });

    // Another origin (a look-alike site relaying the ceremony) is refused, and uses the challenge up.
    const c1 = await optionsFor();
    const evil = await verify(new SoftPasskey().register(c1, { origin: 'https://evil.example' }));
    expect(evil.status, evil.text).toBe(422);
    expect(evil.body.error_v2.message).toBe(PASSKEY_REGISTRATION_MESSAGE);
    const afterEvil = await verify(new SoftPasskey().register(c1));
    expect(afterEvil.body.error_v2.message).toBe(PASSKEY_CHALLENGE_MESSAGE);
    // Another port of localhost is another origin too.
    const port = await verify(new SoftPasskey().register(await optionsFor(), { origin: 'http://localhost:9999' }));
    expect(port.body.error_v2.message).toBe(PASSKEY_REGISTRATION_MESSAGE);

    // A good response registers once; the very same response again, or another key on that challenge, is refused.
    const c2 = await optionsFor();
    const key = new SoftPasskey();
    const good = key.register(c2);
    const replayed = structuredClone(good);
    expect((await verify(good)).status).toBe(201);
    const replay = await verify(replayed, 'Again');
    expect(replay.status).toBe(422);
    expect(replay.body.error_v2.message).toBe(PASSKEY_CHALLENGE_MESSAGE);
    const otherKey = await verify(new SoftPasskey().register(c2), 'Other');
    expect(otherKey.body.error_v2.message).toBe(PASSKEY_CHALLENGE_MESSAGE);
    const [{ n }] = (await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM webauthn_credentials w JOIN spend_users u ON u.identity_id = w.identity_id WHERE u.id = $1',
      [f.users.employee],
    )) as [{ n: number }];
    expect(n).toBe(1);
  });

  it('an authentication challenge is single use and bound to the origin: a replayed step-up assertion is refused', async () => {
    const { email, key } = await personWithPasskey();
    const half = await signIn(t.app, email);
    const full = (await post('/v1/auth/users/current/verify-mfa', half, { webauthn: key.assert(await challenge(half)) })).body.id_token as string;
    const stepUp = (webauthn: unknown) => post('/v1/auth/users/current/step-up', full, { webauthn });

    const evil = await stepUp(key.assert(await challenge(full), { origin: 'https://evil.example' }));
    expect(evil.status).toBe(422);
    expect(evil.body.error_v2).toMatchObject({ error_code: 'AUTH_7025', message: PASSKEY_FAILED_MESSAGE });
    const port = await stepUp(key.assert(await challenge(full), { origin: 'http://localhost:9999' }));
    expect(port.body.error_v2.message).toBe(PASSKEY_FAILED_MESSAGE);

    const c = await challenge(full);
    const good = key.assert(c);
    const replayed = structuredClone(good);
    const first = await stepUp(good);
    expect(first.status, first.text).toBe(200);
    const replay = await stepUp(replayed);
    expect(replay.status).toBe(422);
    expect(replay.body.error_v2).toMatchObject({ error_code: 'AUTH_7025', message: PASSKEY_CHALLENGE_MESSAGE });
    // A fresh signature (higher counter) over the used challenge is refused as well.
    const resigned = await stepUp(key.assert(c));
    expect(resigned.body.error_v2.message).toBe(PASSKEY_CHALLENGE_MESSAGE);
  });

  it('step-up with a passkey earns sensitive; removing a passkey needs it; rename and removal are the owner\'s only', async () => {
    const { email, key, passkeyId } = await personWithPasskey();
    const other = await personWithPasskey();
    const half = await signIn(t.app, email);
    const full = (await post('/v1/auth/users/current/verify-mfa', half, { webauthn: key.assert(await challenge(half)) })).body.id_token as string;

    const renamed = await request(t.app, 'PATCH', `${WEBAUTHN}/${passkeyId}`, { token: full, body: { name: 'Phone' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: passkeyId, name: 'Phone' });
    expect((await request(t.app, 'PATCH', `${WEBAUTHN}/${other.passkeyId}`, { token: full, body: { name: 'Mine' } })).status).toBe(404);
    expect((await request(t.app, 'PATCH', `${WEBAUTHN}/${passkeyId}`, { token: full, body: { name: ' ' } })).status).toBe(422);

    const refused = await request(t.app, 'DELETE', `${WEBAUTHN}/${passkeyId}`, { token: full });
    expect(refused.status).toBe(403);
    expect(refused.body.error_v2.error_code).toBe('AUTH_7016');

    const stepped = await post('/v1/auth/users/current/step-up', full, { webauthn: key.assert(await challenge(full)) });
    expect(stepped.status, stepped.text).toBe(200);
    const sensitive = stepped.body.id_token as string;
    expect(claimsOf(sensitive).ramp_access_scopes).toEqual(['default', 'sensitive']);
    expect((await request(t.app, 'DELETE', `${WEBAUTHN}/${other.passkeyId}`, { token: sensitive })).status).toBe(404);
    expect((await request(t.app, 'DELETE', `${WEBAUTHN}/${passkeyId}`, { token: sensitive })).status).toBe(200);
    expect((await request(t.app, 'GET', TOKENS, { token: full })).body.authenticators).toEqual([]);
    // No factor left: the next sign-in is not asked for one.
    expect(claimsOf(await signIn(t.app, email)).ramp_mfa_required).toBe(false);
  });

  it('registration needs a recent token or a step-up; a first enrolment during MFA needs the emailed code', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const token = await signIn(t.app, f.email('employee'));
    clock.advance(SIX_MINUTES);
    const old = await post(`${WEBAUTHN}/registration/options`, token);
    expect(old.status).toBe(403);
    expect(old.body.error_v2.error_code).toBe('AUTH_7016');
    const stepped = await post('/v1/auth/users/current/step-up', token, { password: FIXTURE_PASSWORD });
    expect(stepped.status).toBe(200);
    // The step-up token (sensitive, 10 minutes) admits it, after the recent-token window too.
    clock.advance(SIX_MINUTES);
    const reg1 = await register(stepped.body.id_token, new SoftPasskey());
    expect(reg1.status, reg1.text).toBe(201);

    // MFA enforced by the business, nobody enrolled yet: the password alone must not bind a passkey.
    await t.db.query('UPDATE businesses SET mfa_required = true WHERE id = $1', [f.businessId]);
    const email = f.email('bookkeeper');
    const half = await signIn(t.app, email);
    expect(claimsOf(half).ramp_mfa_required).toBe(true);
    const key = new SoftPasskey();
    const opts = await post(`${WEBAUTHN}/registration/options`, half);
    const noCode = await post(`${WEBAUTHN}/registration/verify`, half, { response: key.register(opts.body.options.challenge), name: 'Key' });
    expect(noCode.status).toBe(403);
    expect(noCode.body.error_v2).toEqual({ error_code: 'AUTH_7016', message: FIRST_ENROLMENT_EMAIL_MESSAGE });
    expect((await post('/v1/auth/users/current/send-email-otp', half)).status).toBe(200);
    const reg = await register(half, key, 'Key', { email_code: await outboxCode(t.app, email) });
    expect(reg.status, reg.text).toBe(201);
    // Now enrolled: a pending token may not add another factor over it.
    const overIt = await post(`${WEBAUTHN}/registration/options`, await signIn(t.app, email));
    expect(overIt.body.error_v2.error_code).toBe('AUTH_7016');
  });

  it('support acting as a person can neither add, rename nor use their passkeys, even under a write grant', async () => {
    const { f, passkeyId } = await personWithPasskey();
    await grantSupport(t.app, await signIn(t.app, f.email('admin')), { days: 1, allow_writes: true });
    const support = await supportToken(t.app, t.db, clock);
    const start = await post('/v1/auth/impersonation/start', support, { user_id: f.users.employee });
    expect(start.status, start.text).toBe(200);
    const acting = start.body.id_token as string;
    for (const res of [
      await post(`${WEBAUTHN}/registration/options`, acting),
      await post(`${WEBAUTHN}/authentication/options`, acting),
      await request(t.app, 'PATCH', `${WEBAUTHN}/${passkeyId}`, { token: acting, body: { name: 'Support was here' } }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error_v2.error_code).toBe('SUPPORT_7003');
    }
  });

  it('keeps only the newest challenges of a person who asks for options in a loop', async () => {
    const { email } = await personWithPasskey();
    const token = await signIn(t.app, email);
    const first = await challenge(token);
    for (let i = 0; i < MAX_LIVE_CHALLENGES; i++) {
      clock.advance(1000);
      await challenge(token);
    }
    const [row] = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM webauthn_challenges c JOIN identities i ON i.id = c.identity_id WHERE i.email = $1', [email],
    );
    expect(row?.n).toBe(MAX_LIVE_CHALLENGES);
    expect((await t.db.query('SELECT 1 FROM webauthn_challenges WHERE challenge = $1', [first])).length).toBe(0);
  });

  it('the relying party is the configured public address; without one only localhost', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const token = await signIn(t.app, f.email('employee'));
    const viaIp = await t.app.request('http://127.0.0.1:8080/v1/auth/authentication/tokens/webauthn/registration/options', {
      method: 'POST', headers: { 'RAMP-ID-TOKEN': token, 'content-type': 'application/json' }, body: '{}',
    });
    expect(viaIp.status).toBe(403);
    expect((await viaIp.json()).error_v2).toEqual({ error_code: 'AUTH_7022', message: PASSKEYS_UNCONFIGURED_MESSAGE });

    process.env.PUBLIC_URL = 'https://ledgerline.example/';
    process.env.LEDGERLINE_PASSKEY_ORIGINS = 'https://app.ledgerline.example';
    const opts = await post(`${WEBAUTHN}/registration/options`, token, {}, { Origin: 'https://app.ledgerline.example' });
    expect(opts.body.options.rp.id).toBe('app.ledgerline.example');
    const local = new SoftPasskey();
    const refused = await post(`${WEBAUTHN}/registration/verify`, token, { response: local.register(opts.body.options.challenge), name: 'x' });
    expect(refused.status).toBe(422);
    const key = new SoftPasskey('app.ledgerline.example', 'https://app.ledgerline.example');
    const opts2 = await post(`${WEBAUTHN}/registration/options`, token, {}, { Origin: 'https://app.ledgerline.example' });
    const reg = await post(`${WEBAUTHN}/registration/verify`, token, { response: key.register(opts2.body.options.challenge), name: 'x' });
    expect(reg.status, reg.text).toBe(201);
  });

  describe('app attest', () => {
    const mobile = { 'X-Ramp-Platform': 'mobile' };
    const appleAttestation = (keyId: Uint8Array, fmt = 'apple-appattest') => {
      const idLen = Buffer.alloc(2);
      idLen.writeUInt16BE(keyId.length);
      const authData = Buffer.concat([randomBytes(32), Buffer.from([0x40]), Buffer.alloc(4), Buffer.alloc(16), idLen, keyId,
        isoCBOR.encode(new Map<number, number | Uint8Array>([[1, 2], [3, -7], [-1, 1], [-2, randomBytes(32)], [-3, randomBytes(32)]]))]);
      const stmt = new Map<string, unknown>([['x5c', [randomBytes(300), randomBytes(300)]], ['receipt', randomBytes(100)]]);
      return Buffer.from(isoCBOR.encode(new Map<string, unknown>([['fmt', fmt], ['attStmt', stmt], ['authData', authData]]) as never)).toString('base64');
    };

    it('refuses a web client with a clear message, and any token older than the recent-token window', async () => {
      const f = await makeBusiness(t.db, { transactions: 0 });
      const token = await signIn(t.app, f.email('employee'));
      for (const headers of [{ 'X-Ramp-Platform': 'web' }, {}] as Record<string, string>[]) {
        const res = await post('/v1/auth/app-attest/challenge', token, {}, headers);
        expect(res.status).toBe(403);
        expect(res.body.error_v2).toEqual({ error_code: 'AUTH_7022', message: APP_ATTEST_WEB_MESSAGE });
      }
      clock.advance(SIX_MINUTES);
      expect((await post('/v1/auth/app-attest/challenge', token, {}, mobile)).body.error_v2.error_code).toBe('AUTH_7016');
    });

    it('issues a single-use challenge to the wrapper and takes well-formed evidence against it, saying the device is not verified', async () => {
      const f = await makeBusiness(t.db, { transactions: 0 });
      const token = await signIn(t.app, f.email('employee'));
      const ask = async () => {
        const res = await post('/v1/auth/app-attest/challenge', token, {}, mobile);
        expect(res.status).toBe(201);
        return res.body.challenge as string;
      };
      const keyId = randomBytes(32);
      const ios = (challenge: string, attestation_object = appleAttestation(keyId)) =>
        post('/v1/auth/app-attest/attest', token, { platform: 'ios', challenge, key_id: keyId.toString('base64'), attestation_object }, mobile);

      const c1 = await ask();
      const bad = await ios(c1, appleAttestation(keyId, 'packed'));
      expect(bad.status).toBe(422);
      expect(bad.body.error_v2.errors).toEqual({ attestation_object: APP_ATTEST_MALFORMED_MESSAGE });
      expect((await ios(c1, appleAttestation(randomBytes(32)))).body.error_v2.message).toBe(APP_ATTEST_CHALLENGE_MESSAGE);
      const c2 = await ask();
      expect((await ios(c2, appleAttestation(randomBytes(32)))).status).toBe(422);
      const good = await ios(await ask());
      expect(good.status, good.text).toBe(201);
      expect(good.body).toMatchObject({ platform: 'ios', challenge_verified: true, device_verified: false });
      const android = await post('/v1/auth/app-attest/attest', token, { platform: 'android', challenge: await ask(), integrity_token: 'eyJhbGciOiJIUzI1NiJ9.e30.c2ln' }, mobile);
      expect(android.status, android.text).toBe(201);
      // Another person's challenge is as unknown as none.
      const otherToken = await signIn(t.app, f.email('bookkeeper'));
      const mine = await ask();
      const theirs = await post('/v1/auth/app-attest/attest', otherToken, { platform: 'android', challenge: mine, integrity_token: 'a.b.c' }, mobile);
      expect(theirs.body.error_v2.message).toBe(APP_ATTEST_CHALLENGE_MESSAGE);
      const stale = await ask();
      clock.advance(5 * 60 * 1000 + 1);
      const fresh = await signIn(t.app, f.email('employee'));
      const late = await post('/v1/auth/app-attest/attest', fresh, { platform: 'android', challenge: stale, integrity_token: 'a.b.c' }, mobile);
      expect(late.body.error_v2.message).toBe(APP_ATTEST_CHALLENGE_MESSAGE);
    });
  });
});
