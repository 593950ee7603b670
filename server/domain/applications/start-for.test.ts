/**
 * Issue 31, financing applications started for others (start-for.ts, routes/financing-starts.ts):
 * a firm admin starts one for a client (mailed link, idempotent id, admins only, another firm's
 * ids 404 with nothing changed), the applicant resumes it with a mailed code and its approval
 * gives the firm a READ + CODE authorization with the starting admin assigned; a network vendor's
 * portal user starts one prefilled from the profile and finds it in its scope list.
 */
import { createHash, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { decryptBankValue, loadVendorBankKey } from '../../auth/vendor-bank-crypto.ts';
import type { Queryable } from '../../db/db.ts';
import { appCall, fillApplication, startApplication } from '../../routes/application-test-kit.ts';
import { addMember, lastMail, makeFirm } from '../../routes/external-firm-test-kit.ts';
import { ACH, acceptNew, invite, portalToken } from '../../routes/vendor-network-test-kit.ts';
import { testDatabases } from '../../test-db.ts';
import { useTestApp } from '../../test-app.ts';
import { makeBusiness, makeVendor, refusal, request, signIn } from '../../test-fixtures.ts';
import { applicationContext } from './draft.ts';
import { NO_PASSWORD } from '../admin-users.ts';

const FIRM_APPS = '/v1/auth/external-firm/financing-applications';
const VENDOR_APP = '/v1/auth/vendor-network/financing-application';

/** The application tables' rows, hashed: a refused call must leave them as they were. */
async function applicationRows(db: Queryable): Promise<string> {
  const parts: string[] = [];
  for (const table of ['financing_applications', 'financing_application_users', 'application_bank_accounts', 'identities']) {
    const rows = await db.query<{ r: string }>(`SELECT row_to_json(t)::text AS r FROM ${table} t ORDER BY 1`);
    parts.push(`${table}:${rows.map((x) => x.r).join('\n')}`);
  }
  return createHash('sha256').update(parts.join('\n')).digest('hex');
}

const putBody = (over: Record<string, unknown> = {}) => ({
  id: randomUUID(), client_name: 'Harbor Bakery', applicant_email: `owner-${randomUUID().slice(0, 8)}@client.test`,
  applicant_first_name: 'Hana', applicant_last_name: 'Baker', ...over,
});

describe.each(await testDatabases())('applications started for others on %s', (kind) => {
  const t = useTestApp(kind, { devOutbox: true });
  let f1: Awaited<ReturnType<typeof makeFirm>>;
  let f2: Awaited<ReturnType<typeof makeFirm>>;

  beforeAll(async () => {
    f1 = await makeFirm(t.app, t.db, 'Ledger Partners');
    f2 = await makeFirm(t.app, t.db, 'Other CPAs');
  });

  it('a firm admin starts a DRAFT for a client: the applicant mailed, the same id again answers the same application', async () => {
    const body = putBody({ applicant_email: `Owner-${randomUUID().slice(0, 8)}@Client.test` });
    const started = Date.now();
    const res = await request(t.app, 'PUT', FIRM_APPS, { token: f1.adminToken, body });
    expect(res.status, res.text).toBe(200);
    const email = body.applicant_email.toLowerCase();
    expect(res.body).toMatchObject({
      id: body.id, label: 'Harbor Bakery', client_name: 'Harbor Bakery', applicant_email: email, status: 'DRAFT', business_id: null, submitted_at: null,
    });
    const [row] = await t.db.query<{ external_firm_id: string; business_name: string; created_by: string }>(
      'SELECT external_firm_id::text, business_name, created_by_identity_id::text AS created_by FROM financing_applications WHERE id = $1', [body.id]);
    const [admin] = await t.db.query<{ id: string }>('SELECT id::text FROM identities WHERE lower(email) = $1', [f1.adminEmail]);
    expect(row).toEqual({ external_firm_id: f1.firmId, business_name: 'Harbor Bakery', created_by: admin!.id });
    const users = await t.db.query(
      `SELECT u.role, u.first_name, u.last_name, i.email, i.password_hash, i.email_verified_at FROM financing_application_users u
         JOIN identities i ON i.id = u.identity_id WHERE u.financing_application_id = $1`, [body.id]);
    expect(users).toEqual([{ role: 'APPLICANT', first_name: 'Hana', last_name: 'Baker', email, password_hash: NO_PASSWORD, email_verified_at: null }]);
    const mail = await lastMail(t.db, email);
    expect(mail.subject).toBe('Ledger Partners started your Ledgerline financing application');
    expect(mail.body).toContain('Harbor Bakery');
    expect(mail.body).toContain(`/application/start?email=${encodeURIComponent(email)}`);

    const again = await request(t.app, 'PUT', FIRM_APPS, { token: f1.adminToken, body: { ...body, client_name: 'Renamed' } });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual(res.body);
    const mails = await t.db.query('SELECT 1 FROM dev_outbox WHERE recipient = $1', [email]);
    expect(mails).toHaveLength(1);
    expect(new Date(res.body.created_at).getTime()).toBeGreaterThanOrEqual(started - 1000);
  });

  it('an applicant who already has an identity keeps it (and its password)', async () => {
    const fx = await makeBusiness(t.db, { transactions: 0 });
    const email = fx.email('employee');
    const [before] = await t.db.query<{ id: string; password_hash: string }>('SELECT id::text, password_hash FROM identities WHERE email = $1', [email]);
    const body = putBody({ applicant_email: email });
    expect((await request(t.app, 'PUT', FIRM_APPS, { token: f1.adminToken, body })).status).toBe(200);
    const after = await t.db.query('SELECT id::text, password_hash FROM identities WHERE lower(email) = $1', [email]);
    expect(after).toEqual([before]);
    const users = await t.db.query('SELECT identity_id::text FROM financing_application_users WHERE financing_application_id = $1', [body.id]);
    expect(users).toEqual([{ identity_id: before!.id }]);
  });

  it('a firm member may list but not start or withdraw (FORBIDDEN_7003, nothing written)', async () => {
    const member = await addMember(t.app, t.db, f1);
    const before = await applicationRows(t.db);
    expect(refusal(await request(t.app, 'PUT', FIRM_APPS, { token: member.token, body: putBody() }))).toEqual([403, 'FORBIDDEN_7003']);
    const mine = putBody();
    await request(t.app, 'PUT', FIRM_APPS, { token: f1.adminToken, body: mine });
    const afterPut = await applicationRows(t.db);
    expect(afterPut).not.toBe(before);
    expect(refusal(await request(t.app, 'DELETE', `${FIRM_APPS}/${mine.id}`, { token: member.token }))).toEqual([403, 'FORBIDDEN_7003']);
    expect(await applicationRows(t.db)).toBe(afterPut);
    const list = await request(t.app, 'GET', FIRM_APPS, { token: member.token });
    expect(list.status, list.text).toBe(200);
    expect(list.body.data.map((a: { id: string }) => a.id)).toContain(mine.id);
  });

  it('lists the firm\'s own applications newest first; withdraws a DRAFT (again: the same answer), the applicant no longer holds it', async () => {
    const older = putBody({ client_name: 'Older Co' });
    const newer = putBody({ client_name: 'Newer Co' });
    await request(t.app, 'PUT', FIRM_APPS, { token: f2.adminToken, body: older });
    await t.db.query("UPDATE financing_applications SET created_at = created_at - interval '1 day' WHERE id = $1", [older.id]);
    await request(t.app, 'PUT', FIRM_APPS, { token: f2.adminToken, body: newer });
    const list = await request(t.app, 'GET', FIRM_APPS, { token: f2.adminToken });
    expect(list.body.data.map((a: { client_name: string }) => a.client_name)).toEqual(['Newer Co', 'Older Co']);

    const applicant = await startApplication(t.app, newer.applicant_email, { first_name: 'Hana', last_name: 'Baker' });
    expect(applicant.appId).toBe(newer.id);
    const gone = await request(t.app, 'DELETE', `${FIRM_APPS}/${newer.id}`, { token: f2.adminToken });
    expect(gone.status, gone.text).toBe(200);
    expect(gone.body).toMatchObject({ id: newer.id, status: 'WITHDRAWN' });
    const again = await request(t.app, 'DELETE', `${FIRM_APPS}/${newer.id}`, { token: f2.adminToken });
    expect(again.body).toEqual(gone.body);
    expect(refusal(await appCall(t.app, applicant, 'GET', ''))).toEqual([404, '4014']);
  });

  it('isolation: F2 withdrawing or re-putting F1\'s application → 404, unchanged; F1\'s list is its own', async () => {
    const body = putBody();
    await request(t.app, 'PUT', FIRM_APPS, { token: f1.adminToken, body });
    const before = await applicationRows(t.db);
    expect(refusal(await request(t.app, 'DELETE', `${FIRM_APPS}/${body.id}`, { token: f2.adminToken }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'PUT', FIRM_APPS, { token: f2.adminToken, body: { ...body, client_name: 'Stolen' } }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'DELETE', `${FIRM_APPS}/${randomUUID()}`, { token: f2.adminToken }))).toEqual([404, 'REQUEST_7004']);
    expect(await applicationRows(t.db)).toBe(before);
    const f2List = await request(t.app, 'GET', FIRM_APPS, { token: f2.adminToken });
    expect(f2List.body.data.map((a: { id: string }) => a.id)).not.toContain(body.id);
  });

  it('the applicant finishes it: approval makes the business and gives the firm READ + CODE with the starting admin assigned', async () => {
    const body = putBody({ client_name: 'Analytical Engines' });
    await request(t.app, 'PUT', FIRM_APPS, { token: f1.adminToken, body });
    const applicant = await startApplication(t.app, body.applicant_email, { first_name: 'Ada', last_name: 'Lovelace' });
    expect(applicant.appId).toBe(body.id);
    await fillApplication(t.app, applicant);
    const submitted = await appCall(t.app, applicant, 'PATCH', '/submit', {});
    expect(submitted.status, submitted.text).toBe(200);
    expect(submitted.body.status).toBe('APPROVED');
    const businessId = submitted.body.business_id as string;

    const [auth] = await t.db.query<{ id: string; rights: string[]; status: string; proposal_id: string | null }>(
      'SELECT id::text, rights, status, proposal_id::text FROM external_firm_authorizations WHERE firm_id = $1 AND business_id = $2', [f1.firmId, businessId]);
    expect(auth).toMatchObject({ rights: ['READ', 'CODE'], status: 'ACTIVE', proposal_id: null });
    const bound = await t.db.query<{ firm_user_id: string; role: string }>(
      `SELECT au.firm_user_id::text, s.role FROM external_firm_authorization_users au JOIN spend_users s ON s.id = au.spend_user_id
        WHERE au.authorization_id = $1`, [auth!.id]);
    expect(bound).toEqual([{ firm_user_id: f1.adminFirmUserId, role: 'ADVISOR_CONSOLE_ADMIN' }]);
    const clients = await request(t.app, 'GET', '/v1/auth/external-firm/clients', { token: f1.adminToken });
    expect(clients.body.data.map((c: { business_id: string }) => c.business_id)).toContain(businessId);
    const opened = await request(t.app, 'POST', `/v1/auth/external-firm/clients/${businessId}/open`, { token: f1.adminToken });
    expect(opened.status, opened.text).toBe(200);

    const listed = (await request(t.app, 'GET', FIRM_APPS, { token: f1.adminToken })).body.data.find((a: { id: string }) => a.id === body.id);
    expect(listed).toMatchObject({ status: 'APPROVED', business_id: businessId, submitted_at: expect.any(String) });
    expect(refusal(await request(t.app, 'DELETE', `${FIRM_APPS}/${body.id}`, { token: f1.adminToken }))).toEqual([409, 'APPLICATION_7001']);
  });

  it('approval assigns the firm\'s ACTIVE admins when the admin who started the application has left the firm', async () => {
    const firm = await makeFirm(t.app, t.db, 'Turnover LLP');
    const starter = await addMember(t.app, t.db, firm, 'EXTERNAL_FIRM_ADMIN');
    const body = putBody({ client_name: 'Left Behind Co' });
    expect((await request(t.app, 'PUT', FIRM_APPS, { token: starter.token, body })).status).toBe(200);
    const removed = await request(t.app, 'DELETE', `/v1/auth/external-firm/users/${starter.firmUserId}`, { token: firm.adminToken });
    expect(removed.status, removed.text).toBe(200);
    const applicant = await startApplication(t.app, body.applicant_email, { first_name: 'Ada', last_name: 'Lovelace' });
    await fillApplication(t.app, applicant);
    const submitted = await appCall(t.app, applicant, 'PATCH', '/submit', {});
    expect(submitted.body.status).toBe('APPROVED');
    const bound = await t.db.query(
      `SELECT au.firm_user_id::text FROM external_firm_authorizations a JOIN external_firm_authorization_users au ON au.authorization_id = a.id
        WHERE a.firm_id = $1 AND a.business_id = $2 AND a.status = 'ACTIVE'`, [firm.firmId, submitted.body.business_id]);
    expect(bound).toEqual([{ firm_user_id: firm.adminFirmUserId }]);
  });

  it('the names given by the firm are screened at submit as application.start\'s are: a listed applicant waits in MANUAL_REVIEW', async () => {
    const body = putBody({ applicant_first_name: 'Boris', applicant_last_name: 'Sanctionedov' });
    await request(t.app, 'PUT', FIRM_APPS, { token: f1.adminToken, body });
    const applicant = await startApplication(t.app, body.applicant_email, { first_name: 'Ada', last_name: 'Lovelace' });
    await fillApplication(t.app, applicant);
    const submitted = await appCall(t.app, applicant, 'PATCH', '/submit', {});
    expect(submitted.body.status).toBe('MANUAL_REVIEW');
    const flagged = await t.db.query('SELECT ofac_status FROM identities WHERE lower(email) = $1', [body.applicant_email]);
    expect(flagged).toEqual([{ ofac_status: 'MANUAL_REVIEW' }]);
  });

  describe('a network vendor applies', () => {
    let admin: string;
    const join = async (name: string) => {
      const vendorId = await makeVendor(t.app, admin, name);
      const joined = await acceptNew(t.app, t.db, await invite(t.app, t.db, admin, vendorId, `${randomUUID().slice(0, 8)}@${name.toLowerCase()}.test`));
      const sensitive = await portalToken(t.app, t.db, joined.identityId, joined.networkVendorId, ['email-otp', 'sensitive']);
      return { ...joined, sensitive };
    };

    beforeAll(async () => {
      const fx = await makeBusiness(t.db, { transactions: 0 });
      admin = await signIn(t.app, fx.email('admin'));
    });

    it('prefilled from the profile: legal name and the ACH account (re-encrypted for the application); the same id again answers it', async () => {
      const v = await join('Acmeparts');
      const ach = await request(t.app, 'POST', '/v1/auth/vendor-network/ach-details', { token: v.sensitive, body: ACH });
      expect(ach.status, ach.text).toBe(200);
      const id = randomUUID();
      const res = await request(t.app, 'PUT', VENDOR_APP, { token: v.token, body: { id } });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ financing_application_id: id, status: 'DRAFT', prefilled: ['business_name', 'bank_accounts'] });
      const [row] = await t.db.query<{ business_name: string; external_firm_id: string | null }>(
        'SELECT business_name, external_firm_id::text FROM financing_applications WHERE id = $1', [id]);
      expect(row).toEqual({ business_name: 'Acmeparts', external_firm_id: null });
      expect(await t.db.query('SELECT identity_id::text, role, first_name, last_name FROM financing_application_users WHERE financing_application_id = $1', [id]))
        .toEqual([{ identity_id: v.identityId, role: 'APPLICANT', first_name: 'Val', last_name: 'Vendor' }]);
      const [bank] = await t.db.query<{ id: string; holder_name: string; type: string; routing_cipher: string; account_cipher: string; routing_last_four: string }>(
        'SELECT id::text, holder_name, type, routing_cipher, account_cipher, routing_last_four FROM application_bank_accounts WHERE financing_application_id = $1', [id]);
      const key = await loadVendorBankKey(t.db);
      expect(bank).toMatchObject({ holder_name: ACH.holder_name, type: ACH.type, routing_last_four: ACH.routing_number.slice(-4) });
      expect(decryptBankValue(key, bank!.routing_cipher, applicationContext(bank!.id, 'routing_number'))).toBe(ACH.routing_number);
      expect(decryptBankValue(key, bank!.account_cipher, applicationContext(bank!.id, 'account_number'))).toBe(ACH.account_number);

      const again = await request(t.app, 'PUT', VENDOR_APP, { token: v.token, body: { id } });
      expect(again.body).toEqual(res.body);
      expect(await t.db.query('SELECT 1 FROM application_bank_accounts WHERE financing_application_id = $1', [id])).toHaveLength(1);
    });

    it('the scope list offers the application and the portal switches to it; another identity\'s id is 404', async () => {
      const v = await join('Boltworks');
      const id = randomUUID();
      const res = await request(t.app, 'PUT', VENDOR_APP, { token: v.token, body: { id } });
      expect(res.body.prefilled).toEqual(['business_name']);
      const scopes = await request(t.app, 'GET', '/v1/auth/identity/scopes', { token: v.token });
      expect(scopes.body.scopes).toContainEqual({
        target: { kind: 'FINANCING_APPLICATION', financing_application_id: id }, label: 'Boltworks', detail: 'Applicant',
      });
      const switched = await request(t.app, 'PATCH', '/v1/auth/users/current/scope', {
        token: v.token, body: { scope: { kind: 'FINANCING_APPLICATION', financing_application_id: id } },
      });
      expect(switched.status, switched.text).toBe(200);

      const other = await join('Cogsmith');
      const before = await applicationRows(t.db);
      expect(refusal(await request(t.app, 'PUT', VENDOR_APP, { token: other.token, body: { id } }))).toEqual([404, 'REQUEST_7004']);
      const firmOwned = putBody();
      await request(t.app, 'PUT', FIRM_APPS, { token: f1.adminToken, body: firmOwned });
      const withFirm = await applicationRows(t.db);
      expect(withFirm).not.toBe(before);
      expect(refusal(await request(t.app, 'PUT', VENDOR_APP, { token: other.token, body: { id: firmOwned.id } }))).toEqual([404, 'REQUEST_7004']);
      expect(await applicationRows(t.db)).toBe(withFirm);
    });
  });
});
