/**
 * Issue 32: a product is started once under racing admins and server processes, on PostgreSQL.
 * Ten concurrent starts of one product across two API processes: exactly one 200, the rest
 * BILLING_7002, one live row; the same for cancels (one 200, the rest BILLING_7001).
 */
import { describe, expect, it } from 'vitest';
import { withPgBusiness } from '../../test-pg-race.ts';
import { pgAvailable } from '../../testing.ts';
import { refusal, request } from '../../test-fixtures.ts';

describe.skipIf(!(await pgAvailable()))('billing subscriptions race on PostgreSQL', () => {
  it('starts and cancels a product exactly once across two processes', async () => {
    await withPgBusiness({ transactions: 0 }, async ({ dbA, appA, appB, f, admin }) => {
      const apps = Array.from({ length: 10 }, (_, i) => (i % 2 ? appB : appA));
      const path = '/v1/auth/billing/subscription/PLUS';
      const starts = await Promise.all(apps.map((app) => request(app, 'PUT', path, { token: admin })));
      expect(starts.filter((r) => r.status === 200)).toHaveLength(1);
      for (const r of starts.filter((x) => x.status !== 200)) expect(refusal(r), r.text).toEqual([422, 'BILLING_7002']);
      const live = await dbA.query('SELECT id FROM billing_subscriptions WHERE business_id = $1 AND ended_at IS NULL', [f.businessId]);
      expect(live).toHaveLength(1);

      const cancels = await Promise.all(apps.map((app) => request(app, 'DELETE', path, { token: admin, body: { reason: 'OTHER' } })));
      expect(cancels.filter((r) => r.status === 200)).toHaveLength(1);
      for (const r of cancels.filter((x) => x.status !== 200)) expect(refusal(r), r.text).toEqual([422, 'BILLING_7001']);
    });
  });
});
