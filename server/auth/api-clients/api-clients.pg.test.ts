import { describe, expect, it } from 'vitest';
import { pgAvailable } from '../../testing.ts';
import { withPgBusiness } from '../../test-pg-race.ts';
import { FIXTURE_PASSWORD, request } from '../../test-fixtures.ts';

/** Two API processes on one PostgreSQL: changes to one client take turns on its row lock. */
describe.skipIf(!(await pgAvailable()))('API client races on PostgreSQL', () => {
  it('two rotations at once leave exactly one live secret; two deletes, exactly one 200', async () => {
    await withPgBusiness({}, async ({ appA, appB, dbA, admin }) => {
      const up = await request(appA, 'POST', '/v1/auth/users/current/step-up', { token: admin, body: { password: FIXTURE_PASSWORD } });
      const token = up.body.id_token as string;
      const created = await request(appA, 'POST', '/v1/auth/clients', { token, body: { name: 'Race', scopes: ['transactions:read'] } });
      expect(created.status).toBe(201);
      const id = created.body.client.id as string;
      const rotate = (app: typeof appA) => request(app, 'POST', `/v1/auth/clients/${id}/secrets`, { token, body: { revoke_existing: true } });
      const rotations = await Promise.all([rotate(appA), rotate(appB)]);
      expect(rotations.map((r) => r.status)).toEqual([201, 201]);
      const live = await dbA.query<{ id: string }>('SELECT id FROM api_client_secrets WHERE client_id = $1 AND revoked_at IS NULL', [id]);
      expect(live).toHaveLength(1);
      expect(rotations.map((r) => r.body.secret.id)).toContain(live[0]!.id);

      const remove = (app: typeof appA) => request(app, 'DELETE', `/v1/auth/clients/${id}`, { token });
      const deletes = await Promise.all([remove(appA), remove(appB)]);
      expect(deletes.map((r) => r.status).sort()).toEqual([200, 404]);
    });
  });
});
