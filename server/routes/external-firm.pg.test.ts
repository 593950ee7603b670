/**
 * External firm proposals race on PostgreSQL (issue 31): two processes accepting one proposal at
 * once make exactly one authorization (the loser answers FIRM_7002, its transaction wrote
 * nothing); two proposals of one firm to one business accepted at once make one authorization too
 * (the partial unique index: FIRM_7001).
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Db } from '../db/db.ts';
import { withPgBusiness } from '../test-pg-race.ts';
import { pgAvailable } from '../testing.ts';
import { request } from '../test-fixtures.ts';

const B = '/v1/auth/businesses/external-firm-proposals';

/** A firm with one admin and a PENDING proposal to each of `emails` (rows as the API writes them). */
async function firmWithProposals(db: Db, emails: string[]): Promise<{ firmId: string; proposals: string[] }> {
  const firmId = randomUUID();
  const identityId = randomUUID();
  const firmUserId = randomUUID();
  await db.query('INSERT INTO external_firms (id, name) VALUES ($1, $2)', [firmId, 'Race CPAs']);
  await db.query(`INSERT INTO identities (id, email, password_hash) VALUES ($1, $2, '!invited')`, [identityId, `race-${firmId.slice(0, 8)}@firm.test`]);
  await db.query(
    `INSERT INTO external_firm_users (id, firm_id, identity_id, role, first_name, last_name, email) VALUES ($1, $2, $3, 'EXTERNAL_FIRM_ADMIN', 'R', 'Acer', 'r@firm.test')`,
    [firmUserId, firmId, identityId],
  );
  const proposals: string[] = [];
  for (const email of emails) {
    const id = randomUUID();
    await db.query(
      `INSERT INTO external_firm_proposals (id, firm_id, direction, client_email, client_name, rights, firm_user_ids, status, created_by)
       VALUES ($1, $2, 'FIRM_TO_BUSINESS', $3, 'Client', '{READ,CODE}', $4, 'PENDING', $5)`,
      [id, firmId, email, [firmUserId], identityId],
    );
    proposals.push(id);
  }
  return { firmId, proposals };
}

const codeOf = (res: { status: number; body: { error_v2?: { error_code: string } } }) => res.body.error_v2?.error_code ?? String(res.status);

describe.skipIf(!(await pgAvailable()))('external firm proposals race on PostgreSQL', () => {
  it('two accepts of one proposal on two processes: exactly one authorization', async () => {
    await withPgBusiness({}, async ({ appA, appB, dbA, f, admin }) => {
      const { proposals: [id] } = await firmWithProposals(dbA, [f.email('admin')]);
      const answers = await Promise.all([appA, appB].map((app) => request(app, 'PUT', `${B}/${id}/accept`, { token: admin, body: {} })));
      expect(answers.map(codeOf).sort()).toEqual(['200', 'FIRM_7002']);
      const auths = await dbA.query('SELECT 1 FROM external_firm_authorizations WHERE business_id = $1', [f.businessId]);
      expect(auths).toHaveLength(1);
      const hidden = await dbA.query(`SELECT 1 FROM spend_users WHERE business_id = $1 AND role = 'ADVISOR_CONSOLE_ADMIN'`, [f.businessId]);
      expect(hidden).toHaveLength(1);
    });
  });

  it('two proposals of one firm to one business accepted at once: one authorization, the other FIRM_7001', async () => {
    await withPgBusiness({}, async ({ appA, appB, dbA, f, admin }) => {
      const { proposals } = await firmWithProposals(dbA, [f.email('admin'), f.email('owner')]);
      const answers = await Promise.all(proposals.map((id, i) => request([appA, appB][i]!, 'PUT', `${B}/${id}/accept`, { token: admin, body: {} })));
      expect(answers.map(codeOf).sort()).toEqual(['200', 'FIRM_7001']);
      const auths = await dbA.query(`SELECT 1 FROM external_firm_authorizations WHERE business_id = $1 AND status = 'ACTIVE'`, [f.businessId]);
      expect(auths).toHaveLength(1);
      const statuses = await dbA.query<{ status: string }>('SELECT status FROM external_firm_proposals WHERE id = ANY($1::uuid[]) ORDER BY status', [proposals]);
      expect(statuses.map((s) => s.status)).toEqual(['ACCEPTED', 'PENDING']);
    });
  });
});
