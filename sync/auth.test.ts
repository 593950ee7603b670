import { describe, expect, it } from 'vitest';
import {
  isFullyScoped,
  showsBusinessSwitcher,
  StepUpTokens,
  switcherUsers,
  TOKEN_WAIT_FAILURE,
  waitForFullToken,
} from './auth.ts';
import { createFakeClock } from './testing.ts';

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
const jwt = (claims: Record<string, unknown>) => `${b64({ alg: 'none' })}.${b64(claims)}.sig`;

const FULL = jwt({ ramp_access_scopes: ['default'], ramp_mfa_required: true, ramp_mfa_authed: true });
const PRE_MFA = jwt({ ramp_access_scopes: [], ramp_mfa_required: true, ramp_mfa_authed: false });

describe('isFullyScoped', () => {
  it.each([
    ['full after MFA', FULL, true],
    ['MFA required, not done', PRE_MFA, false],
    ['MFA not required', jwt({ ramp_access_scopes: ['default'], ramp_mfa_required: false }), true],
    ['default scope missing', jwt({ ramp_access_scopes: ['sensitive'] }), false],
    ['not a JWT', 'nope', false],
    ['none', null, false],
  ])('%s', (_n, token, expected) => expect(isFullyScoped(token)).toBe(expected));
});

describe('waitForFullToken', () => {
  it('resolves as soon as a fully scoped token appears', async () => {
    const clock = createFakeClock();
    let token: string | null = PRE_MFA;
    const p = waitForFullToken({ clock, getToken: () => token, waitMs: 10_000 });
    await clock.advance(500);
    token = FULL;
    await clock.advance(50);
    await expect(p).resolves.toBe(FULL);
  });

  it.each([
    ['mobile', 1_000],
    ['web', 10_000],
  ])('gives up after the %s wait (%i ms)', async (_p, waitMs) => {
    const clock = createFakeClock();
    const p = waitForFullToken({ clock, getToken: () => PRE_MFA, waitMs, pollMs: 250 });
    let settled = false;
    p.catch(() => undefined).finally(() => (settled = true));
    await clock.advance(waitMs - 50);
    expect(settled).toBe(false);
    await clock.advance(50);
    await expect(p).rejects.toThrow(TOKEN_WAIT_FAILURE);
  });
});

describe('StepUpTokens', () => {
  const sensitive = { kind: 'scopes', scopes: ['sensitive'] } as const;
  const normal = { kind: 'scopes', scopes: ['default'] } as const;

  it('uses the stepped-up token only for step-up calls and only while it lives', async () => {
    const clock = createFakeClock(Date.UTC(2026, 0, 1));
    const tokens = new StepUpTokens(clock);
    const exp = clock.now() / 1000 + 300;
    const stepped = jwt({ ramp_access_scopes: ['default', 'sensitive'], exp });
    tokens.set(stepped);
    expect(tokens.tokenFor(sensitive, 'base')).toBe(stepped);
    expect(tokens.tokenFor(normal, 'base')).toBe('base');
    expect(tokens.tokenFor(sensitive, null)).toBeNull();
    await clock.advance(300_000);
    expect(tokens.tokenFor(sensitive, 'base')).toBe('base');
    expect(tokens.current()).toBeNull();
  });
});

describe('business selection', () => {
  const user = (id: string, business_id: string, role = 'BUSINESS_ADMIN') => ({
    id,
    business_id,
    role,
    is_manager: false,
    user_permissions: [],
    has_finished_onboarding: true,
  });
  const users = [user('u1', 'b1'), user('u2', 'b2'), user('v', 'b3', 'VENDOR_NETWORK_ADMIN')];

  it('never lists hidden spend users, and shows the switcher only with a choice', () => {
    expect(switcherUsers(users).map((u) => u.id)).toEqual(['u1', 'u2']);
    expect(showsBusinessSwitcher(users)).toBe(true);
    expect(showsBusinessSwitcher([users[0]!, users[2]!])).toBe(false);
  });
});
