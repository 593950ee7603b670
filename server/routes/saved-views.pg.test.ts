/**
 * Issue 32: two API processes on one PostgreSQL PUT the same saved view id at once (a retried
 * save racing its first try): both succeed, exactly one answer created it, and one row remains.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withPgBusiness } from '../test-pg-race.ts';
import { pgAvailable } from '../testing.ts';
import { request, signIn } from '../test-fixtures.ts';

describe.skipIf(!(await pgAvailable()))('saved view PUT races on PostgreSQL', () => {
  it('two PUTs of one id leave one row; one answer is 201, the other 200', async () => {
    await withPgBusiness({ transactions: 0 }, async ({ dbA, appA, appB, f, admin }) => {
      const adminB = await signIn(appB, f.email('admin'));
      for (let round = 0; round < 5; round++) {
        const id = randomUUID();
        const body = (name: string) => ({ list: 'transactions', name, state: { missing_receipt: 'true' }, shared: true });
        const answers = await Promise.all([
          request(appA, 'PUT', `/v1/auth/saved-views/${id}`, { token: admin, body: body('From A') }),
          request(appB, 'PUT', `/v1/auth/saved-views/${id}`, { token: adminB, body: body('From B') }),
        ]);
        expect(answers.map((a) => a.status).sort(), answers.map((a) => a.text).join('\n')).toEqual([200, 201]);
        const rows = await dbA.query<{ name: string }>('SELECT name FROM saved_views WHERE id = $1', [id]);
        expect(rows).toHaveLength(1);
        expect(['From A', 'From B']).toContain(rows[0]!.name);
      }
    });
  });
});
