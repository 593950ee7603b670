import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ProviderRow } from '../auth/sso/providers.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, makeVendor, signIn, type Fixture } from '../test-fixtures.ts';
import { addMember, firmInClient, makeFirm } from './external-firm-test-kit.ts';
import { finishSignIn, NO_ACCOUNT_MESSAGE, SsoRefused, SURFACE_ONLY_MESSAGE } from './sso-finish.ts';
import { acceptNew, invite } from './vendor-network-test-kit.ts';

/**
 * Issue 31: a business's identity provider signs in the business's own people only. A firm user's
 * hidden spend user in that business (its advisor) is reached through the console, never by the
 * client's SSO, as password sign-in never opens a hidden user either. Google opens a business; an
 * identity with only another surface is told to sign in by password or mailed link (the completion
 * code names a spend user).
 */
describe.each(await testDatabases())('SSO finishing on %s', (kind) => {
  const t = useTestApp(kind, { devOutbox: true });

  /** The business's provider for `domain`, enabled and proven (the row the IdP's answer is checked against). */
  const providerOf = (businessId: string, domain: string): ProviderRow => ({
    id: randomUUID(), business_id: businessId, protocol: 'oidc', brand: 'OKTA', domain, enabled: true, enforced: false, verified_at: null,
    metadata_url: null, idp_entity_id: null, idp_sso_url: null, idp_certificates: null, issuer: null, client_id: null, client_secret_enc: null,
    oidc_metadata: null, domain_token: 'token', domain_proven_at: new Date().toISOString(), created_at: '', updated_at: '',
  });
  const finish = (provider: ProviderRow, email: string) => finishSignIn(t.app.deps, { kind: 'oidc', provider, email, redirect: null });

  it('refuses a firm user whose only user in the business is its hidden advisor; the business\'s own member signs in', async () => {
    let client: Fixture | undefined;
    const { member } = await firmInClient(t.app, t.db, ['READ', 'CODE'], async () => {
      client = await makeBusiness(t.db, { transactions: 0 });
      return { businessId: client.businessId, adminEmail: client.email('admin') };
    });
    const fx = client!;
    const admin = fx.email('admin');
    const hidden = await t.db.query(
      `SELECT 1 FROM spend_users u JOIN identities i ON i.id = u.identity_id WHERE lower(i.email) = $1 AND u.business_id = $2 AND u.role LIKE 'ADVISOR%'`,
      [member.email, fx.businessId],
    );
    expect(hidden).toHaveLength(1);
    const refused = await finish(providerOf(fx.businessId, member.email.split('@')[1]!), member.email).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SsoRefused);
    expect((refused as Error).message).toBe(NO_ACCOUNT_MESSAGE);
    await expect(finish(providerOf(fx.businessId, admin.split('@')[1]!), admin)).resolves.toEqual(expect.any(String));
  });

  const refusalOf = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => (e instanceof SsoRefused ? e.message : e));

  it('Google: a firm-only or vendor-only identity is told to use its password or a mailed link; a business member signs in', async () => {
    const member = await addMember(t.app, t.db, await makeFirm(t.app, t.db));
    const google = (email: string) => finishSignIn(t.app.deps, { kind: 'google', provider: null, email, redirect: null });
    expect(await refusalOf(google(member.email))).toBe(SURFACE_ONLY_MESSAGE);

    const payer = await makeBusiness(t.db, { transactions: 0 });
    const admin = await signIn(t.app, payer.email('admin'));
    const vendorEmail = `vendor-${randomUUID().slice(0, 8)}@vendor.test`;
    await acceptNew(t.app, t.db, await invite(t.app, t.db, admin, await makeVendor(t.app, admin, 'Paper Co'), vendorEmail));
    expect(await refusalOf(google(vendorEmail))).toBe(SURFACE_ONLY_MESSAGE);

    expect(await refusalOf(google(`nobody-${randomUUID().slice(0, 8)}@vendor.test`))).toBe(NO_ACCOUNT_MESSAGE);
    await expect(google(payer.email('admin'))).resolves.toEqual(expect.any(String));
  });
});
