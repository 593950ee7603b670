import { describe, expect, it } from 'vitest';
import { BUSINESS_SETTING_TYPES } from '../../schema/business-settings.ts';
import { testDatabases } from '../test-db.ts';
import { request, useTwoBusinesses } from '../test-fixtures.ts';
import { useTestApp } from '../test-app.ts';

/** Issue 32: business settings by type and their reset, the security contact, beta enrollment. */
describe.each(await testDatabases())('business settings on %s', (kind) => {
  const clock = { ms: Date.parse('2026-11-30T12:00:00Z') };
  const t = useTestApp(kind, { now: () => clock.ms, devOutbox: true });
  const biz = useTwoBusinesses(t, ['owner', 'admin', 'bookkeeper', 'manager', 'employee', 'auditor']);
  const { tokens } = biz;
  const B = '/v1/auth/businesses';
  const refusal = (res: { status: number; body: { error_v2?: { error_code: string } } }) => [res.status, res.body.error_v2?.error_code];
  const subjects = async (email: string) =>
    (await request<{ messages: { subject: string }[] }>(t.app, 'GET', `/v1/public/dev/outbox?email=${encodeURIComponent(email)}`)).body.messages.map((m) => m.subject);
  const setting = async (type: string) =>
    (await request(t.app, 'GET', `${B}/settings`, { token: tokens.admin })).body.settings.find((s: { type: string }) => s.type === type);
  const flags = async (token: string) => (await request(t.app, 'GET', '/v1/auth/feature_flags', { token })).body.flags;

  it('lists every setting type at its default; only owners and admins read or reset them', async () => {
    const res = await request(t.app, 'GET', `${B}/settings`, { token: tokens.owner });
    expect(res.status, res.text).toBe(200);
    expect(res.body.settings.map((s: { type: string }) => s.type)).toEqual([...BUSINESS_SETTING_TYPES]);
    expect(res.body.settings.every((s: { is_default: boolean }) => s.is_default)).toBe(true);
    for (const role of ['bookkeeper', 'manager', 'employee', 'auditor'] as const) {
      expect(refusal(await request(t.app, 'GET', `${B}/settings`, { token: tokens[role] }))).toEqual([403, 'FORBIDDEN_7003']);
      expect(refusal(await request(t.app, 'DELETE', `${B}/setting/merchant_restrictions`, { token: tokens[role] }))).toEqual([403, 'FORBIDDEN_7003']);
    }
    expect(refusal(await request(t.app, 'DELETE', `${B}/setting/no_such_setting`, { token: tokens.admin }))).toEqual([422, 'REQUEST_7001']);
  });

  it('resets merchant restrictions and the notify threshold to their defaults, in this business only', async () => {
    await request(t.app, 'PUT', `${B}/merchant-restrictions`, { token: tokens.admin, body: { blocked_merchant_categories: ['Gambling'] } });
    await request(t.app, 'PUT', `${B}/merchant-restrictions`, { token: biz.bOwner, body: { blocked_merchant_categories: ['Bars'] } });
    await request(t.app, 'PATCH', '/v1/auth/admin/transaction-notify-threshold', { token: tokens.admin, body: { threshold: { amount: 500_000, currency: 'USD' } } });
    expect(await setting('merchant_restrictions')).toMatchObject({ is_default: false, summary: '1 category blocked: Gambling' });
    expect(await setting('transaction_notify_threshold')).toMatchObject({ is_default: false, summary: '$5,000.00 and above' });

    const reset = await request(t.app, 'DELETE', `${B}/setting/merchant_restrictions`, { token: tokens.owner });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body).toMatchObject({ type: 'merchant_restrictions', is_default: true, summary: 'No categories blocked' });
    expect((await request(t.app, 'GET', `${B}/merchant-restrictions`, { token: tokens.employee })).body.blocked_merchant_categories).toEqual([]);
    expect((await request(t.app, 'GET', `${B}/merchant-restrictions`, { token: biz.bOwner })).body.blocked_merchant_categories).toEqual(['Bars']);

    expect((await request(t.app, 'DELETE', `${B}/setting/transaction_notify_threshold`, { token: tokens.admin })).body.is_default).toBe(true);
    expect((await request(t.app, 'GET', '/v1/auth/admin/transaction-notify-threshold', { token: tokens.admin })).body).toEqual({ threshold: null });
    // A reset at the default answers the default again.
    expect((await request(t.app, 'DELETE', `${B}/setting/transaction_notify_threshold`, { token: tokens.admin })).status).toBe(200);
  });

  it('the security contact: owners and admins set, read and remove it; the people named are told', async () => {
    const PATH = `${B}/security/contact`;
    expect((await request(t.app, 'GET', PATH, { token: tokens.admin })).body).toEqual({ contact: null });
    expect(refusal(await request(t.app, 'DELETE', PATH, { token: tokens.admin }))).toEqual([404, 'REQUEST_7004']);
    for (const role of ['bookkeeper', 'manager', 'employee', 'auditor'] as const) {
      expect(refusal(await request(t.app, 'GET', PATH, { token: tokens[role] }))).toEqual([403, 'FORBIDDEN_7003']);
      expect(refusal(await request(t.app, 'PUT', PATH, { token: tokens[role], body: { name: 'X', email: 'x@example.com' } }))).toEqual([403, 'FORBIDDEN_7003']);
    }
    expect(refusal(await request(t.app, 'PUT', PATH, { token: tokens.admin, body: { name: 'Sec', email: 'not-an-email' } }))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await request(t.app, 'PUT', PATH, { token: tokens.admin, body: { name: 'Sec', email: 'a@example.com', phone: 'call me' } }))).toEqual([422, 'REQUEST_7001']);

    const set = await request(t.app, 'PUT', PATH, { token: tokens.owner, body: { name: 'Sam Secure', email: 'sam@example.com', phone: '+1 415 555 0100' } });
    expect(set.status, set.text).toBe(200);
    expect(set.body.contact).toEqual({ name: 'Sam Secure', email: 'sam@example.com', phone: '+1 415 555 0100', updated_at: new Date(clock.ms).toISOString() });
    expect(await subjects('sam@example.com')).toEqual([expect.stringMatching(/^You are the security contact for /)]);
    expect((await request(t.app, 'GET', PATH, { token: biz.bOwner })).body).toEqual({ contact: null });

    await request(t.app, 'PUT', PATH, { token: tokens.admin, body: { name: 'Robin', email: 'robin@example.com' } });
    expect(await subjects('sam@example.com')).toContainEqual(expect.stringMatching(/^You are no longer the security contact/));
    expect(await setting('security_contact')).toMatchObject({ is_default: false, summary: 'Robin <robin@example.com>' });

    const removed = await request(t.app, 'DELETE', PATH, { token: tokens.admin });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body).toEqual({ contact: null });
    expect(await subjects('robin@example.com')).toContainEqual(expect.stringMatching(/^You are no longer the security contact/));
    expect((await setting('security_contact')).is_default).toBe(true);
  });

  it('beta enrollment turns the programme flags on until the business leaves; the security contact hears of it', async () => {
    const PATH = `${B}/beta-enrollment`;
    await request(t.app, 'PUT', `${B}/security/contact`, { token: tokens.admin, body: { name: 'Sec', email: 'beta-sec@example.com' } });
    expect((await flags(tokens.employee)).auditor_role).toBe(false);
    expect(refusal(await request(t.app, 'DELETE', PATH, { token: tokens.admin }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'PUT', PATH, { token: tokens.employee, body: { programmes: ['team_roles_preview'] } }))).toEqual([403, 'FORBIDDEN_7003']);
    expect(refusal(await request(t.app, 'PUT', PATH, { token: tokens.admin, body: { programmes: ['made_up'] } }))).toEqual([422, 'REQUEST_7001']);

    const joined = await request(t.app, 'PUT', PATH, { token: tokens.admin, body: { programmes: ['team_roles_preview'] } });
    expect(joined.status, joined.text).toBe(200);
    expect(joined.body.programmes[0]).toMatchObject({ id: 'team_roles_preview', enrolled_at: new Date(clock.ms).toISOString() });
    expect(await flags(tokens.employee)).toMatchObject({ auditor_role: true, it_admin_can_be_assistant: true });
    expect((await flags(biz.bOwner)).auditor_role).toBe(false);
    expect((await request(t.app, 'GET', PATH, { token: tokens.employee })).body.programmes[0].enrolled_at).not.toBeNull();
    expect(await subjects('beta-sec@example.com')).toContain('Your business joined a beta programme');

    const left = await request(t.app, 'DELETE', PATH, { token: tokens.owner });
    expect(left.status, left.text).toBe(200);
    expect(left.body.programmes[0].enrolled_at).toBeNull();
    expect((await flags(tokens.employee)).auditor_role).toBe(false);
    expect(await subjects('beta-sec@example.com')).toContain('Your business left its beta programmes');

    // The generic reset leaves too.
    await request(t.app, 'PUT', PATH, { token: tokens.admin, body: { programmes: ['team_roles_preview'] } });
    expect((await setting('beta_enrollment')).summary).toBe('Team roles preview');
    expect((await request(t.app, 'DELETE', `${B}/setting/beta_enrollment`, { token: tokens.admin })).body.is_default).toBe(true);
    expect((await flags(tokens.employee)).auditor_role).toBe(false);
  });
});
