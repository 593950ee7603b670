/**
 * Applications started for others racing on PostgreSQL (two API processes, one database): two
 * PUTs of one id at once make one application (the loser's insert waits on the winner's row and
 * does nothing, then answers it), and two applications naming one new applicant at once make one
 * identity (the unique email index decides; the loser reads the winner's).
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { issueToken, openSession } from '../../auth/session.ts';
import type { Db } from '../../db/db.ts';
import type { LedgerlineApp } from '../../app.ts';
import { withPgBusiness } from '../../test-pg-race.ts';
import { pgAvailable } from '../../testing.ts';
import { request } from '../../test-fixtures.ts';

const FIRM_APPS = '/v1/auth/external-firm/financing-applications';

/** A firm with one admin (rows as the API writes them) and the admin's console token. */
async function firmAdminToken(db: Db, app: LedgerlineApp): Promise<{ firmId: string; token: string }> {
  const firmId = randomUUID();
  const identityId = randomUUID();
  const firmUserId = randomUUID();
  const email = `race-${firmId.slice(0, 8)}@firm.test`;
  await db.query('INSERT INTO external_firms (id, name) VALUES ($1, $2)', [firmId, 'Race CPAs']);
  await db.query(`INSERT INTO identities (id, email, password_hash) VALUES ($1, $2, '!invited')`, [identityId, email]);
  await db.query(
    `INSERT INTO external_firm_users (id, firm_id, identity_id, role, first_name, last_name, email) VALUES ($1, $2, $3, 'EXTERNAL_FIRM_ADMIN', 'R', 'Acer', $4)`,
    [firmUserId, firmId, identityId, email]);
  const sessionId = await openSession(db, identityId);
  const { token } = await issueToken(app.deps, {
    identityId, sessionId, surface: { kind: 'ADVISOR_CONSOLE', external_firm_id: firmId, external_firm_user_id: firmUserId },
  }, { scopes: ['default'], mfaRequired: false, mfaAuthed: false });
  return { firmId, token };
}

const body = (id: string, email: string) => ({ id, client_name: 'Race Bakery', applicant_email: email, applicant_first_name: 'Rae', applicant_last_name: 'Baker' });

describe.skipIf(!(await pgAvailable()))('applications started for others race on PostgreSQL', () => {
  it('two PUTs of one id at once make one application and answer it alike', async () => {
    await withPgBusiness({ transactions: 0 }, async ({ dbA, appA, appB }) => {
      const firm = await firmAdminToken(dbA, appA);
      const id = randomUUID();
      const email = `client-${id.slice(0, 8)}@client.test`;
      const [a, b] = await Promise.all([
        request(appA, 'PUT', FIRM_APPS, { token: firm.token, body: body(id, email) }),
        request(appB, 'PUT', FIRM_APPS, { token: firm.token, body: body(id, email) }),
      ]);
      expect([a.status, b.status], `${a.text}\n${b.text}`).toEqual([200, 200]);
      expect(a.body).toEqual(b.body);
      expect(await dbA.query('SELECT id::text FROM financing_applications WHERE external_firm_id = $1', [firm.firmId])).toEqual([{ id }]);
      expect(await dbA.query('SELECT role FROM financing_application_users WHERE financing_application_id = $1', [id])).toEqual([{ role: 'APPLICANT' }]);
      expect(await dbA.query('SELECT 1 FROM identities WHERE lower(email) = $1', [email])).toHaveLength(1);
    });
  });

  it('two applications naming one new applicant at once make one identity', async () => {
    await withPgBusiness({ transactions: 0 }, async ({ dbA, appA, appB }) => {
      const firm = await firmAdminToken(dbA, appA);
      const email = `client-${randomUUID().slice(0, 8)}@client.test`;
      const [a, b] = await Promise.all([
        request(appA, 'PUT', FIRM_APPS, { token: firm.token, body: body(randomUUID(), email) }),
        request(appB, 'PUT', FIRM_APPS, { token: firm.token, body: body(randomUUID(), email) }),
      ]);
      expect([a.status, b.status], `${a.text}\n${b.text}`).toEqual([200, 200]);
      const identities = await dbA.query<{ id: string }>('SELECT id::text FROM identities WHERE lower(email) = $1', [email]);
      expect(identities).toHaveLength(1);
      const users = await dbA.query<{ identity_id: string }>(
        'SELECT identity_id::text FROM financing_application_users WHERE financing_application_id = ANY($1::uuid[])', [[a.body.id, b.body.id]]);
      expect(users.map((u) => u.identity_id)).toEqual([identities[0]!.id, identities[0]!.id]);
    });
  });
});
