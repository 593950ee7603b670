import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb, testDatabases, type TestDb } from '../../test-db.ts';
import { SamlError } from './errors.ts';
import { consumeAssertion } from './replay.ts';
import type { SamlAssertion } from './verify-response.ts';

const assertion = (over: Partial<SamlAssertion> = {}): SamlAssertion => ({
  email: 'pat@example.com',
  nameId: 'pat@example.com',
  assertionId: `_${randomUUID()}`,
  expiresAt: new Date(Date.now() + 5 * 60_000),
  sessionIndex: null,
  inResponseTo: null,
  issuer: 'https://idp.test',
  ...over,
});

const reasonOf = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => (e instanceof SamlError ? e.reason : String(e)),
  );

describe.each(await testDatabases())('consumeAssertion on %s', (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await openTestDb(kind);
  });
  afterAll(() => t.close());

  it('accepts an assertion once per provider, refuses it the second time', async () => {
    const provider = randomUUID();
    const a = assertion();
    await consumeAssertion(t.db, provider, a);
    expect(await reasonOf(consumeAssertion(t.db, provider, a))).toBe('replayed');
    await consumeAssertion(t.db, randomUUID(), a); // another provider's namespace
  });

  it('keeps the id until its expiry plus the clock skew', async () => {
    const provider = randomUUID();
    const a = assertion({ expiresAt: new Date(Date.now() + 60_000) });
    await consumeAssertion(t.db, provider, a);
    const [row] = await t.db.query<{ expires_at: Date | string }>(
      'SELECT expires_at FROM sso_saml_assertions WHERE provider_id = $1 AND assertion_id = $2',
      [provider, a.assertionId],
    );
    expect(new Date(row!.expires_at).getTime()).toBe(a.expiresAt.getTime() + 120_000);
  });

  it("purges the provider's expired ids as it goes", async () => {
    const provider = randomUUID();
    await t.db.query(
      "INSERT INTO sso_saml_assertions (provider_id, assertion_id, expires_at) VALUES ($1, 'old', now() - interval '1 minute')",
      [provider],
    );
    await consumeAssertion(t.db, provider, assertion());
    const rows = await t.db.query('SELECT 1 FROM sso_saml_assertions WHERE provider_id = $1 AND assertion_id = $2', [provider, 'old']);
    expect(rows).toHaveLength(0);
  });

  it('of concurrent consumers of one assertion, exactly one wins', async () => {
    const provider = randomUUID();
    const a = assertion();
    const results = await Promise.all(Array.from({ length: 6 }, () => reasonOf(consumeAssertion(t.db, provider, a))));
    expect(results.filter((r) => r === 'ok')).toHaveLength(1);
    expect(results.filter((r) => r === 'replayed')).toHaveLength(5);
  });
});
