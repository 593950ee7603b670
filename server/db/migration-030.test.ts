import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { testDatabases, useBareTestDbs } from '../test-db.ts';
import type { Db } from './db.ts';
import { loadMigrations, migrate } from './migrate.ts';

/**
 * 030_sso_domain_proof: providers made before domain proof existed proved nothing, so each becomes
 * a pending claim with its own random token, switched off (nothing unproven binds anyone); after
 * it, pending claims of one domain by two businesses coexist, a proven domain is unique, and a
 * pending claim cannot be enabled.
 */
const open = useBareTestDbs();

const insertProvider = (db: Db, id: string, businessId: string, domain: string, extra = '', values: unknown[] = []) =>
  db.query(
    `INSERT INTO sso_providers (id, business_id, protocol, brand, domain, enabled, enforced, issuer, client_id, client_secret_enc${extra ? `, ${extra}` : ''})
     VALUES ($1, $2, 'oidc', 'OKTA', $3, true, true, 'https://idp.example', 'c', 'v1.x'${values.map((_v, i) => `, $${i + 4}`).join('')})`,
    [id, businessId, domain, ...values],
  );

describe.each(await testDatabases())('migration 030 on %s', (kind) => {
  it('turns existing providers into pending, disabled claims with random tokens; then claims coexist until one is proven', async () => {
    const db = await open(kind);
    const all = await loadMigrations();
    await migrate(db, all.filter((m) => m.name < '030'));
    const [a, b] = [randomUUID(), randomUUID()];
    for (const id of [a, b]) await db.query('INSERT INTO businesses (id, name, currency) VALUES ($1, $2, $3)', [id, `Biz ${id.slice(0, 4)}`, 'USD']);
    const [p1, p2] = [randomUUID(), randomUUID()];
    await insertProvider(db, p1, a, 'acme.test');
    await insertProvider(db, p2, a, 'acme-eu.test');

    await migrate(db, all);
    const rows = await db.query<{ id: string; enabled: boolean; enforced: boolean; domain_token: string; domain_proven_at: Date | null }>(
      'SELECT id::text, enabled, enforced, domain_token, domain_proven_at FROM sso_providers ORDER BY domain',
    );
    expect(rows.map((r) => [r.enabled, r.enforced, r.domain_proven_at])).toEqual([[false, false, null], [false, false, null]]);
    for (const r of rows) expect(r.domain_token).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]!.domain_token).not.toBe(rows[1]!.domain_token);

    // Another business's pending claim of the same domain coexists; the same business's does not.
    const p3 = randomUUID();
    await db.query(
      `INSERT INTO sso_providers (id, business_id, protocol, brand, domain, issuer, client_id, client_secret_enc, domain_token)
       VALUES ($1, $2, 'oidc', 'OKTA', 'ACME.test', 'https://idp.example', 'c', 'v1.x', 't3')`, [p3, b],
    );
    await expect(db.query(
      `INSERT INTO sso_providers (id, business_id, protocol, brand, domain, issuer, client_id, client_secret_enc, domain_token)
       VALUES ($1, $2, 'oidc', 'OKTA', 'acme.test', 'https://idp.example', 'c', 'v1.x', 't4')`, [randomUUID(), a],
    )).rejects.toThrow();
    // A pending claim cannot be enabled; one proven domain per domain.
    await expect(db.query('UPDATE sso_providers SET enabled = true WHERE id = $1', [p1])).rejects.toThrow();
    await db.query('UPDATE sso_providers SET domain_proven_at = now(), enabled = true WHERE id = $1', [p1]);
    await expect(db.query('UPDATE sso_providers SET domain_proven_at = now() WHERE id = $1', [p3])).rejects.toThrow();
  });
});
