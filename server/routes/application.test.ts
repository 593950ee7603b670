import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { APPLICATION_CALLS } from '../../schema/api/calls-application.ts';
import { APPLICATION_ID_HEADER } from '../../schema/api/calls-application-steps.ts';
import { issueToken, openSession } from '../auth/session.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, refusal, request, signIn } from '../test-fixtures.ts';
import { claimsOf, testClock } from './identity-test-kit.ts';
import { ADDRESS, appCall, applicationCode, fillApplication, startApplication, uploadPage } from './application-test-kit.ts';

const clock = testClock(Date.UTC(2026, 10, 30, 12));
let n = 0;
const fresh = () => `applicant-${Date.now()}-${++n}@example.test`;

describe.each(await testDatabases())('financing application on %s', (kind) => {
  const t = useTestApp(kind, { now: clock.now, devOutbox: true });

  it('start mails a code whatever the address; verify makes the identity, the application and a 12 h email-otp token', async () => {
    const email = fresh();
    expect((await request(t.app, 'POST', '/v1/public/application/start', { body: { email, first_name: 'Ada', last_name: 'Lovelace' } })).status).toBe(204);
    expect(await t.db.query('SELECT 1 FROM identities WHERE lower(email) = $1', [email])).toEqual([]);
    const code = await applicationCode(t.app, email);
    const wrong = await request(t.app, 'POST', '/v1/public/application/verify', { body: { email, code: code === '000000' ? '111111' : '000000' } });
    expect(refusal(wrong)).toEqual([422, 'PROFILE_7017']);
    const res = await request(t.app, 'POST', '/v1/public/application/verify', { body: { email, code } });
    expect(res.status, res.text).toBe(200);
    const claims = claimsOf(res.body.id_token);
    expect(claims.ramp_surface).toEqual({ kind: 'FINANCING_APPLICATION', financing_application_id: res.body.financing_application_id });
    expect(claims.ramp_access_scopes).toEqual(['default', 'email-otp']);
    expect(claims.exp - claims.iat).toBe(12 * 3600);
    expect(claims.business_id).toBeNull();
    // Used once; the new identity has no usable password.
    expect(refusal(await request(t.app, 'POST', '/v1/public/application/verify', { body: { email, code } }))).toEqual([422, 'PROFILE_7017']);
    expect((await request(t.app, 'POST', '/v1/public/sign-in', { body: { email, password: '!invited' } })).status).not.toBe(200);
    const who = { token: res.body.id_token, appId: res.body.financing_application_id };
    const draft = await appCall(t.app, who, 'GET', '');
    expect(draft.status, draft.text).toBe(200);
    expect(draft.body).toMatchObject({ status: 'DRAFT', version: 1, business_name: null });
    expect(Object.keys(draft.body.missing)).toContain('business_details');
    // The scope picker's label (§3): "New application (date)" until named.
    const scopes = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM financing_application_users WHERE financing_application_id = $1', [who.appId]);
    expect(scopes[0]!.n).toBe(1);
  });

  it('an email whose domain enforces SSO answers AUTH_7022 on start', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const email = f.email('employee');
    const domain = email.split('@')[1]!;
    await t.db.query(
      `INSERT INTO sso_providers (id, business_id, protocol, brand, domain, enabled, enforced, issuer, client_id, client_secret_enc, domain_proven_at, verified_at, domain_token)
       VALUES ($1, $2, 'oidc', 'OKTA', $3, true, true, 'https://idp.example', 'c', 'v1.x', now(), now(), 'tok')`, [randomUUID(), f.businessId, domain]);
    const res = await request(t.app, 'POST', '/v1/public/application/start', { body: { email, first_name: 'A', last_name: 'B' } });
    expect(refusal(res)).toEqual([403, 'AUTH_7022']);
  });

  it('verify with the id of an application the identity is a user of signs into it; another id is 404', async () => {
    const email = fresh();
    const first = await startApplication(t.app, email);
    const again = await startApplication(t.app, email, undefined, first.appId);
    expect(again.appId).toBe(first.appId);
    const other = await startApplication(t.app, fresh());
    await request(t.app, 'POST', '/v1/public/application/start', { body: { email, first_name: 'Ada', last_name: 'Lovelace' } });
    const code = await applicationCode(t.app, email);
    const res = await request(t.app, 'POST', '/v1/public/application/verify', { body: { email, code, financing_application_id: other.appId } });
    expect(refusal(res)).toEqual([404, 'REQUEST_7004']);
  });

  it('verify without an id resumes the newest draft the identity started; once it is decided, a new one', async () => {
    const email = fresh();
    const first = await startApplication(t.app, email);
    expect((await startApplication(t.app, email)).appId).toBe(first.appId);
    await fillApplication(t.app, first);
    expect((await appCall(t.app, first, 'PATCH', '/submit', {})).body.status).toBe('APPROVED');
    const next = await startApplication(t.app, email);
    expect(next.appId).not.toBe(first.appId);
    expect((await startApplication(t.app, email)).appId).toBe(next.appId);
  });

  it('walks every step, submits once into one business; later writes answer APPLICATION_7001; the survey once', async () => {
    const who = await startApplication(t.app, fresh());
    const draft = await fillApplication(t.app, who);
    expect(draft.missing).toEqual({});
    expect(draft.kyc_individuals.map((k: { ssn_last_four: string }) => k.ssn_last_four).sort()).toEqual(['6789', '7890']);
    expect(JSON.stringify(draft)).not.toMatch(/123456789|000123456789|021000021/);
    expect(draft.bank_accounts[0]).toMatchObject({ routing_last_four: '0021', account_last_four: '6789' });
    const [stored] = await t.db.query<{ ssn_cipher: string; account_cipher: string }>(
      'SELECT k.ssn_cipher, b.account_cipher FROM kyc_individuals k, application_bank_accounts b WHERE k.financing_application_id = $1 AND b.financing_application_id = $1 LIMIT 1', [who.appId]);
    expect(stored!.ssn_cipher).not.toContain('6789');
    expect(stored!.account_cipher).not.toContain('123456789');

    expect(refusal(await appCall(t.app, who, 'POST', '/post-submit-survey', { heard_from: 'A friend', rating: 5 }))).toEqual([422, 'REQUEST_7001']);
    const submitted = await appCall(t.app, who, 'PATCH', '/submit', {});
    expect(submitted.status, submitted.text).toBe(200);
    expect(submitted.body).toMatchObject({ status: 'APPROVED', decision: { outcome: 'APPROVED', reasons: [] } });
    const businessId = submitted.body.business_id as string;
    const repeat = await appCall(t.app, who, 'PATCH', '/submit', {});
    expect(repeat.body).toEqual(submitted.body);
    expect(await t.db.query('SELECT id FROM financing_applications WHERE business_id = $1', [businessId])).toHaveLength(1);

    const [biz] = await t.db.query<{ name: string; change_seq: number }>('SELECT name, change_seq FROM businesses WHERE id = $1', [businessId]);
    expect(biz).toMatchObject({ name: 'Analytical Engines LLC' });
    const owner = await t.db.query<{ role: string; first_name: string; email: string }>('SELECT role, first_name, email FROM spend_users WHERE business_id = $1', [businessId]);
    expect(owner).toEqual([{ role: 'BUSINESS_OWNER', first_name: 'Ada', email: who.email }]);
    expect(await t.db.query('SELECT tin FROM business_tax_info WHERE business_id = $1', [businessId])).toEqual([{ tin: '12-3456789' }]);
    expect(await t.db.query('SELECT name, country FROM business_entities WHERE business_id = $1', [businessId])).toEqual([{ name: 'Analytical Engines LLC', country: 'US' }]);
    expect(await t.db.query('SELECT status, routing_number, account_last4 FROM bank_accounts WHERE business_id = $1', [businessId]))
      .toEqual([{ status: 'UNVERIFIED', routing_number: '021000021', account_last4: '6789' }]);

    for (const [method, path, body] of [['PATCH', '/company', { industry_code: '5415', description: 'x', employee_count: 1 }], ['DELETE', '/accounts/' + draft.bank_accounts[0].id, undefined], ['PATCH', '', { business_name: 'x' }]] as const) {
      expect(refusal(await appCall(t.app, who, method, path, body))).toEqual([409, 'APPLICATION_7001']);
    }
    expect((await appCall(t.app, who, 'POST', '/post-submit-survey', { heard_from: 'A friend', rating: 5 })).status).toBe(204);
    expect(refusal(await appCall(t.app, who, 'POST', '/post-submit-survey', { heard_from: 'Again', rating: 1 }))).toEqual([409, 'APPLICATION_7001']);
    // The owner signs in to the new business with a password they set later; the identity already holds it.
    expect(await t.db.query("SELECT 1 FROM spend_users u JOIN identities i ON i.id = u.identity_id WHERE lower(i.email) = $1 AND u.business_id = $2", [who.email, businessId])).toHaveLength(1);
    // SSNs and bank numbers never reach the audit detail.
    const audit = await t.db.query<{ detail: unknown }>("SELECT detail FROM audit_log WHERE surface = 'FINANCING_APPLICATION' AND surface_id = $1", [who.appId]);
    expect(audit.length).toBeGreaterThan(5);
    expect(JSON.stringify(audit)).not.toMatch(/123-45-6789|000123456789/);
  });

  it('submit refuses a missing step and an owner of 25 % without KYC (APPLICATION_7002), writing nothing', async () => {
    const who = await startApplication(t.app, fresh());
    await fillApplication(t.app, who);
    const draft = await appCall(t.app, who, 'PATCH', '/ownerships', { owners: [{ kind: 'INDIVIDUAL', name: 'Alan Turing', percent_bp: 2500 }] });
    const turing = draft.body.owners.find((o: { name: string }) => o.name === 'Alan Turing').id as string;
    await t.db.query("UPDATE financing_applications SET answers = answers - 'company' WHERE id = $1", [who.appId]);
    const res = await appCall(t.app, who, 'PATCH', '/submit', {});
    expect(refusal(res)).toEqual([422, 'APPLICATION_7002']);
    expect(res.body.error_v2.errors ?? res.body.errors).toMatchObject({ company: 'Describe the company.', [`owners.${turing}`]: 'Fill in their identity details.' });
    const [row] = await t.db.query<{ status: string; submitted_at: unknown }>('SELECT status, submitted_at FROM financing_applications WHERE id = $1', [who.appId]);
    expect(row).toEqual({ status: 'DRAFT', submitted_at: null });
  });

  it('ownership over 100 % answers APPLICATION_7003 and writes none of the owners', async () => {
    const who = await startApplication(t.app, fresh());
    await appCall(t.app, who, 'PATCH', '/ownerships', { owners: [{ kind: 'ENTITY', name: 'Holdco', percent_bp: 6000 }] });
    const res = await appCall(t.app, who, 'PATCH', '/ownerships', { owners: [{ kind: 'INDIVIDUAL', name: 'A B', percent_bp: 3000 }, { kind: 'ENTITY', name: 'C', percent_bp: 1001 }] });
    expect(refusal(res)).toEqual([422, 'APPLICATION_7003']);
    expect(await t.db.query('SELECT name FROM application_owners WHERE financing_application_id = $1', [who.appId])).toEqual([{ name: 'Holdco' }]);
    const deleted = await appCall(t.app, who, 'DELETE', '/ownerships', { ids: [(await appCall(t.app, who, 'GET', '')).body.owners[0].id] });
    expect(deleted.body.owners).toEqual([]);
  });

  it('a sanctions hit waits in MANUAL_REVIEW: applicant flagged, an ID requested, no business', async () => {
    const who = await startApplication(t.app, fresh());
    await fillApplication(t.app, who, { ownerName: 'Boris Sanctionedov' });
    const res = await appCall(t.app, who, 'PATCH', '/submit', {});
    expect(res.body).toMatchObject({ status: 'MANUAL_REVIEW', business_id: null });
    expect(await t.db.query('SELECT ofac_status FROM identities WHERE lower(email) = $1', [who.email])).toEqual([{ ofac_status: 'MANUAL_REVIEW' }]);
    const requests = await appCall(t.app, who, 'GET', '/document-requests');
    expect(requests.body.requests).toMatchObject([{ doc_type: 'GOVERNMENT_ID', status: 'OPEN' }]);
    const flagged = await t.db.query<{ last_name: string }>("SELECT last_name FROM kyc_individuals WHERE financing_application_id = $1 AND ofac_status = 'MANUAL_REVIEW'", [who.appId]);
    expect(flagged).toEqual([{ last_name: 'Sanctionedov' }]);
  });

  it('a hard rule rejects (incorporation date in the future): no business, the answer repeats', async () => {
    const who = await startApplication(t.app, fresh());
    await fillApplication(t.app, who);
    const draft = (await appCall(t.app, who, 'GET', '')).body;
    await appCall(t.app, who, 'PATCH', '/business-details', { ...draft.business_details, incorporation_date: '2026-12-01' });
    const res = await appCall(t.app, who, 'PATCH', '/submit', {});
    expect(res.body).toEqual({ status: 'REJECTED', decision: { outcome: 'REJECTED', reasons: ['The incorporation date is in the future.'] }, business_id: null });
    expect((await appCall(t.app, who, 'PATCH', '/submit', {})).body).toEqual(res.body);
    expect(await t.db.query("SELECT 1 FROM spend_users u JOIN identities i ON i.id = u.identity_id WHERE lower(i.email) = $1", [who.email])).toEqual([]);
  });

  it('field rules: EIN prefix, NAICS, SSN, dob, routing checksum (422 naming the field); If-Match; pages', async () => {
    const who = await startApplication(t.app, fresh());
    const bad = await appCall(t.app, who, 'PATCH', '/business-details', {
      legal_name: 'X', entity_type: 'LLC', ein: '07-1234567', incorporation_state: 'DE', incorporation_date: '2020-01-01', phone: '4155550100', address: ADDRESS,
    });
    expect([...refusal(bad), bad.body.error_v2.errors ?? bad.body.errors]).toMatchObject([422, 'REQUEST_7001', { ein: 'ein must be a valid EIN' }]);
    expect(refusal(await appCall(t.app, who, 'PATCH', '/company', { industry_code: '99', description: 'x', employee_count: 1 }))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await appCall(t.app, who, 'PATCH', '/bank-accounts', { accounts: [{ holder_name: 'X', routing_number: '123456789', account_number: '1234', type: 'CHECKING' }] }))).toEqual([422, 'REQUEST_7001']);
    const lead = await appCall(t.app, who, 'PATCH', '/leadership', { control_person: { first_name: 'A', last_name: 'B', title: 'CEO', email: who.email, is_applicant: true } });
    const kycId = lead.body.kyc_individuals[0].id;
    const kyc = (ssn: string, dob: string) => appCall(t.app, who, 'PATCH', `/kyc-individual/${kycId}`, { first_name: 'A', last_name: 'B', dob, ssn, address: ADDRESS, citizenship: 'US' });
    expect(refusal(await kyc('666-12-3456', '1980-01-01'))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await kyc('123-45-6789', '2010-01-01'))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await appCall(t.app, who, 'PATCH', `/kyc-individual/${randomUUID()}`, { first_name: 'A', last_name: 'B', dob: '1980-01-01', ssn: '123-45-6789', address: ADDRESS, citizenship: 'US' }))).toEqual([404, 'REQUEST_7004']);

    const version = lead.body.version as number;
    expect(refusal(await appCall(t.app, who, 'PATCH', '', { business_name: 'Old' }, { 'If-Match': String(version - 1) }))).toEqual([409, 'CONFLICT']);
    expect((await appCall(t.app, who, 'PATCH', '', { business_name: 'Named' }, { 'If-Match': `"${version}"` })).body).toMatchObject({ business_name: 'Named', version: version + 1 });

    const docs = await appCall(t.app, who, 'PATCH', '/kyb-documents', { documents: [{ doc_type: 'EIN_LETTER' }] });
    const docId = docs.body.documents[0].id;
    expect((await uploadPage(t.app, who, 'kyb', docId)).status).toBe(200);
    const two = await uploadPage(t.app, who, 'kyb', docId);
    expect(two.body.documents[0].pages).toEqual([1, 2]);
    const html = await uploadPage(t.app, who, 'kyb', docId, new TextEncoder().encode('<html><script>x</script></html>'));
    expect(html.status).toBeGreaterThanOrEqual(400);
    expect((await appCall(t.app, who, 'DELETE', `/kyb-documents/${docId}/1`)).body.documents[0].pages).toEqual([2]);
    expect(refusal(await appCall(t.app, who, 'DELETE', `/kyb-documents/${docId}/1`))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await appCall(t.app, who, 'DELETE', `/kyc-documents/${docId}/2`))).toEqual([404, 'REQUEST_7004']);
  });

  it('isolation: an applicant of A2 reaches none of A1 (header or ids: 404); a business token is SURFACE_7001; no email-otp is AUTH_7016', async () => {
    const a1 = await startApplication(t.app, fresh());
    const filled = await fillApplication(t.app, a1);
    const a2 = await startApplication(t.app, fresh());
    expect(refusal(await appCall(t.app, { token: a2.token, appId: a1.appId }, 'GET', ''))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'GET', '/v1/auth/application', { token: a2.token }))).toEqual([404, 'REQUEST_7004']);
    const kycId = filled.kyc_individuals[0].id;
    expect(refusal(await appCall(t.app, a2, 'PATCH', `/kyc-individual/${kycId}`, { first_name: 'A', last_name: 'B', dob: '1980-01-01', ssn: '123-45-6789', address: ADDRESS, citizenship: 'US' }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await appCall(t.app, a2, 'DELETE', `/accounts/${filled.bank_accounts[0].id}`))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await appCall(t.app, a2, 'DELETE', `/kyb-documents/${filled.documents.find((d: { kind: string }) => d.kind === 'KYB').id}/1`))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await appCall(t.app, a2, 'PATCH', '/ownerships', { owners: [{ id: filled.owners[0].id, kind: 'ENTITY', name: 'Mine', percent_bp: 1 }] }))).toEqual([404, 'REQUEST_7004']);
    expect((await appCall(t.app, a1, 'GET', '')).body).toEqual(filled);

    const f = await makeBusiness(t.db, { transactions: 0 });
    const business = await signIn(t.app, f.email('owner'));
    expect(refusal(await request(t.app, 'GET', '/v1/auth/application', { token: business, headers: { [APPLICATION_ID_HEADER]: a1.appId } }))).toEqual([403, 'SURFACE_7001']);

    const [u] = await t.db.query<{ identity_id: string }>('SELECT identity_id::text FROM financing_application_users WHERE financing_application_id = $1', [a1.appId]);
    const sessionId = await openSession(t.db, u!.identity_id);
    const { token } = await issueToken(t.app.deps, { identityId: u!.identity_id, sessionId, surface: { kind: 'FINANCING_APPLICATION', financing_application_id: a1.appId } },
      { scopes: ['default'], mfaRequired: false, mfaAuthed: false });
    expect(refusal(await appCall(t.app, { token, appId: a1.appId }, 'GET', ''))).toEqual([403, 'AUTH_7016']);
    // Every call of the application surface needs email-otp (§6), before its input is even read.
    for (const call of APPLICATION_CALLS.filter((c) => c.surfaces.includes('FINANCING_APPLICATION'))) {
      const path = call.path.replace(/:page\b/, '1').replace(/:[a-z_]+/g, randomUUID());
      const res = await request(t.app, call.method, path, { token, ...(call.method !== 'GET' && { body: {} }), headers: { [APPLICATION_ID_HEADER]: a1.appId } });
      expect([call.id, ...refusal(res)]).toEqual([call.id, 403, 'AUTH_7016']);
    }
    // A token for an application the identity is not a user of is refused live (4014).
    const { token: foreign } = await issueToken(t.app.deps, { identityId: u!.identity_id, sessionId, surface: { kind: 'FINANCING_APPLICATION', financing_application_id: a2.appId } },
      { scopes: ['default', 'email-otp'], mfaRequired: false, mfaAuthed: false });
    expect((await appCall(t.app, { token: foreign, appId: a2.appId }, 'GET', '')).status).toBe(404);
  });
});
