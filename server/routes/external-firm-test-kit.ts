/** Issue 31 test support: a firm through the real API (apply, mailed code, verify) and its members. */
import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import type { Queryable } from '../db/db.ts';
import { request, signIn } from '../test-fixtures.ts';

/** The newest mail to an address in the dev outbox (the app must run with devOutbox). */
export async function lastMail(db: Queryable, to: string): Promise<{ subject: string; body: string }> {
  const [row] = await db.query<{ subject: string; body: string }>(
    'SELECT subject, body FROM dev_outbox WHERE recipient = $1 ORDER BY id DESC LIMIT 1', [to.toLowerCase()],
  );
  if (!row) throw new Error(`no mail to ${to}`);
  return row;
}

type TestFirm = { firmId: string; adminEmail: string; adminToken: string; adminFirmUserId: string };

/** Applies and verifies: the firm exists with `first last` as its admin (names must not be on the sanctions list). */
export async function applyForFirm(app: Hono, db: Queryable, firmName: string, names = { first_name: 'Ada', last_name: 'Ledger' }) {
  const email = `admin-${randomUUID().slice(0, 8)}@firm.test`;
  const applied = await request(app, 'POST', '/v1/public/external-firm/apply', { body: { firm_name: firmName, email, ...names } });
  if (applied.status !== 204) throw new Error(`apply: ${applied.status} ${applied.text}`);
  const code = /is (\d{6})\./.exec((await lastMail(db, email)).body)![1]!;
  const verified = await request<{ id_token: string; surface: string }>(app, 'POST', '/v1/public/external-firm/apply/verify', { body: { email, code } });
  if (verified.status !== 200) throw new Error(`verify: ${verified.status} ${verified.text}`);
  return { email, token: verified.body.id_token, surface: verified.body.surface };
}

export async function makeFirm(app: Hono, db: Queryable, firmName = `Firm ${randomUUID().slice(0, 6)}`): Promise<TestFirm> {
  const applied = await applyForFirm(app, db, firmName);
  const view = await request<{ firm: { id: string }; me: { id: string } }>(app, 'GET', '/v1/auth/external-firm', { token: applied.token });
  if (view.status !== 200) throw new Error(`firm.get: ${view.status} ${view.text}`);
  return { firmId: view.body.firm.id, adminEmail: applied.email, adminToken: applied.token, adminFirmUserId: view.body.me.id };
}

/** Invites and accepts (public, new identity): the member's console token and firm user id. */
export async function addMember(app: Hono, db: Queryable, firm: TestFirm, role: 'EXTERNAL_FIRM_ADMIN' | 'EXTERNAL_FIRM_USER' = 'EXTERNAL_FIRM_USER') {
  const email = `member-${randomUUID().slice(0, 8)}@firm.test`;
  const invited = await request(app, 'POST', '/v1/auth/external-firm/invites', { token: firm.adminToken, body: { email, role } });
  if (invited.status !== 201) throw new Error(`invite: ${invited.status} ${invited.text}`);
  const token = /\/console\/join#token=([A-Za-z0-9_-]+)/.exec((await lastMail(db, email)).body)![1]!;
  const accepted = await request<{ id_token: string }>(app, 'POST', `/v1/public/external-firm/invites/${token}/accept`, {
    body: { password: 'member-password-1', first_name: 'Max', last_name: 'Member' },
  });
  if (accepted.status !== 200) throw new Error(`accept: ${accepted.status} ${accepted.text}`);
  const view = await request<{ me: { id: string } }>(app, 'GET', '/v1/auth/external-firm', { token: accepted.body.id_token });
  return { email, token: accepted.body.id_token, firmUserId: view.body.me.id };
}

/**
 * A firm (admin + one member) working for a fresh client business under `rights`: proposed,
 * validated, accepted by the client's admin, and the member's BUSINESS token in the client.
 */
export async function firmInClient(app: Hono, db: Queryable, rights: string[], makeClient: () => Promise<{ businessId: string; adminEmail: string }>) {
  const firm = await makeFirm(app, db, 'Acme CPAs');
  const member = await addMember(app, db, firm);
  const client = await makeClient();
  const clientAdmin = await signIn(app, client.adminEmail);
  const proposal = await request<{ id: string }>(app, 'POST', '/v1/auth/external-firm/proposals', {
    token: firm.adminToken, body: { client_email: client.adminEmail, client_name: 'Client', rights, firm_user_ids: [member.firmUserId] },
  });
  await request(app, 'PUT', `/v1/auth/external-firm/proposals/${proposal.body.id}/validate`, { token: firm.adminToken });
  const accepted = await request(app, 'PUT', `/v1/auth/businesses/external-firm-proposals/${proposal.body.id}/accept`, { token: clientAdmin, body: {} });
  if (accepted.status !== 200) throw new Error(`accept: ${accepted.status} ${accepted.text}`);
  const opened = await request<{ id_token: string }>(app, 'POST', `/v1/auth/external-firm/clients/${client.businessId}/open`, { token: member.token });
  const [auth] = await db.query<{ id: string }>('SELECT id::text FROM external_firm_authorizations WHERE business_id = $1', [client.businessId]);
  return { firm, member, clientAdmin, advisor: opened.body.id_token, authorizationId: auth!.id };
}
