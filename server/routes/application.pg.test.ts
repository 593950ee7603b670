/**
 * Submitting a financing application racing on PostgreSQL (two API processes, one database): the
 * application row is locked first, so of two submits one decides and makes the business and the
 * other, waiting on the lock, answers that same decision: exactly one business.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { issueToken, openSession } from '../auth/session.ts';
import { withPgBusiness } from '../test-pg-race.ts';
import { pgAvailable } from '../testing.ts';
import { appCall, fillApplication } from './application-test-kit.ts';

describe.skipIf(!(await pgAvailable()))('application submit races on PostgreSQL', () => {
  it('two submits of one application make one business and answer the same decision', async () => {
    await withPgBusiness({ transactions: 0 }, async ({ dbA, appA, appB }) => {
      const identityId = randomUUID();
      const appId = randomUUID();
      const email = `race-${identityId.slice(0, 8)}@example.test`;
      await dbA.query("INSERT INTO identities (id, email, password_hash) VALUES ($1, $2, '!invited')", [identityId, email]);
      await dbA.query('INSERT INTO financing_applications (id, created_by_identity_id) VALUES ($1, $2)', [appId, identityId]);
      await dbA.query("INSERT INTO financing_application_users (financing_application_id, identity_id, role, first_name, last_name) VALUES ($1, $2, 'APPLICANT', 'Ada', 'Lovelace')",
        [appId, identityId]);
      const sessionId = await openSession(dbA, identityId);
      const { token } = await issueToken(appA.deps, { identityId, sessionId, surface: { kind: 'FINANCING_APPLICATION', financing_application_id: appId } },
        { scopes: ['default', 'email-otp'], mfaRequired: false, mfaAuthed: false });
      const who = { token, appId, email };
      await fillApplication(appA, who);

      const [a, b] = await Promise.all([appCall(appA, who, 'PATCH', '/submit', {}), appCall(appB, who, 'PATCH', '/submit', {})]);
      expect([a.status, b.status], `${a.text}\n${b.text}`).toEqual([200, 200]);
      expect(a.body).toEqual(b.body);
      expect(a.body.status).toBe('APPROVED');
      const businesses = await dbA.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM spend_users WHERE identity_id = $1 AND role = 'BUSINESS_OWNER'", [identityId]);
      expect(businesses).toEqual([{ n: 1 }]);
    });
  });
});
