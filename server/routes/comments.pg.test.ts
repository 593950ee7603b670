/**
 * Issue 29: a comment created twice at once with the same client id (a retry racing its lost
 * first attempt), through two API processes sharing one PostgreSQL. One row, both answers the
 * same comment, and the mentioned person and the owner are each notified once.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withPgBusiness } from '../test-pg-race.ts';
import { pgAvailable } from '../testing.ts';
import { request, signIn } from '../test-fixtures.ts';

const ROUNDS = 4;

describe.skipIf(!(await pgAvailable()))('comment creates racing on one id on PostgreSQL', () => {
  it('stores one comment and notifies each person once when the same create arrives on two processes together', async () => {
    await withPgBusiness({ transactions: 10 }, async ({ dbA, appA, appB, f }) => {
      const tokenA = await signIn(appA, f.email('manager'));
      const tokenB = await signIn(appB, f.email('manager'));
      const subject = f.transactions.employee[0]!;
      for (let round = 0; round < ROUNDS; round++) {
        const body = { id: randomUUID(), subject_type: 'transaction', subject_id: subject, body: `Race ${round}`, mention_ids: [f.users.admin] };
        const answers = await Promise.all([
          request(appA, 'POST', '/v1/auth/comments', { token: tokenA, body }),
          request(appB, 'POST', '/v1/auth/comments', { token: tokenB, body }),
        ]);
        for (const a of answers) expect(a.status, a.text).toBe(201);
        expect(answers[0]!.body).toEqual(answers[1]!.body);
        expect(await dbA.query('SELECT 1 FROM comments WHERE id = $1', [body.id])).toHaveLength(1);
        const told = await dbA.query<{ owner_id: string; kind: string }>(
          'SELECT owner_id::text, kind FROM notifications WHERE event_key LIKE $1 ORDER BY kind', [`comment:${body.id}:%`],
        );
        expect(told).toEqual([{ owner_id: f.users.employee, kind: 'comment' }, { owner_id: f.users.admin, kind: 'mention' }]);
      }
    });
  });
});
