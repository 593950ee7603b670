import type { Hono } from 'hono';
import { APPLICATION_ID_HEADER } from '../../schema/api/calls-application-steps.ts';
import { request, type TestResponse } from '../test-fixtures.ts';

/** Test support for the financing application's suites (issue 31). */
const PDF = new TextEncoder().encode('%PDF-1.7\n%application page\n');

type Applicant = { token: string; appId: string; email: string };

/** The mailed code of the newest application mail to `email`. */
export async function applicationCode(app: Hono, email: string): Promise<string> {
  const res = await request<{ messages: { body: string; subject: string }[] }>(app, 'GET', `/v1/public/dev/outbox?email=${encodeURIComponent(email)}`);
  const mail = res.body.messages.find((m) => m.subject === 'Your Ledgerline application code');
  const code = mail && /is (\d{6})\./.exec(mail.body)?.[1];
  if (!code) throw new Error(`no application code for ${email}: ${res.text}`);
  return code;
}

/** start + verify: a new application of a (new or known) identity. */
export async function startApplication(app: Hono, email: string, names = { first_name: 'Ada', last_name: 'Lovelace' }, appId?: string): Promise<Applicant> {
  const started = await request(app, 'POST', '/v1/public/application/start', { body: { email, ...names } });
  if (started.status !== 204) throw new Error(`start: ${started.status} ${started.text}`);
  const code = await applicationCode(app, email);
  const res = await request(app, 'POST', '/v1/public/application/verify', { body: { email, code, ...(appId && { financing_application_id: appId }) } });
  if (res.status !== 200) throw new Error(`verify: ${res.status} ${res.text}`);
  return { token: res.body.id_token, appId: res.body.financing_application_id, email };
}

/** A call of the application surface: token and the application header. */
export function appCall(app: Hono, who: { token: string; appId: string }, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<TestResponse<any>> { // eslint-disable-line @typescript-eslint/no-explicit-any
  return request(app, method, `/v1/auth/application${path}`, { token: who.token, body, headers: { [APPLICATION_ID_HEADER]: who.appId, ...headers } });
}

/** Uploads one page (PDF) to a document. */
export async function uploadPage(app: Hono, who: { token: string; appId: string }, kind: 'kyb' | 'kyc', docId: string, bytes: Uint8Array = PDF) {
  const res = await app.request(`/v1/auth/application/${kind}-documents/${docId}/pages`, {
    method: 'POST', body: bytes as unknown as BodyInit, headers: { 'RAMP-ID-TOKEN': who.token, [APPLICATION_ID_HEADER]: who.appId, 'content-type': 'application/pdf' },
  });
  return { status: res.status, body: await res.json() };
}

export const ADDRESS = { line1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };

/** Fills every step of a clean application (the applicant the control person and the one owner); answers the draft. */
export async function fillApplication(app: Hono, who: Applicant, opts: { legalName?: string; ownerName?: string } = {}) {
  const ok = (res: { status: number; body: any; text?: string }) => { // eslint-disable-line @typescript-eslint/no-explicit-any
    if (res.status >= 300) throw new Error(`${res.status} ${res.text ?? JSON.stringify(res.body)}`);
    return res.body;
  };
  const legal = opts.legalName ?? 'Analytical Engines LLC';
  ok(await appCall(app, who, 'PATCH', '/business-details', {
    legal_name: legal, entity_type: 'LLC', ein: '12-3456789', incorporation_state: 'DE', incorporation_date: '2020-01-15', phone: '+1 415 555 0100', address: ADDRESS,
  }));
  const usd = (amount: number) => ({ amount, currency: 'USD' });
  ok(await appCall(app, who, 'PATCH', '/financial-details', { annual_revenue: usd(500_000_00), cash_on_hand: usd(80_000_00), monthly_spend_estimate: usd(20_000_00) }));
  ok(await appCall(app, who, 'PATCH', '/company', { industry_code: '5415', description: 'Software', employee_count: 12 }));
  const lead = ok(await appCall(app, who, 'PATCH', '/leadership', {
    control_person: { first_name: 'Ada', last_name: 'Lovelace', title: 'CEO', email: who.email, is_applicant: true },
  }));
  const controlId = lead.kyc_individuals.find((k: { is_control_person: boolean }) => k.is_control_person).id as string;
  const owned = ok(await appCall(app, who, 'PATCH', '/ownerships', { owners: [{ kind: 'INDIVIDUAL', name: opts.ownerName ?? 'Grace Hopper', percent_bp: 6000 }] }));
  const ownerKyc = owned.owners[0].kyc_individual_id as string;
  for (const [id, first, last, ssn] of [[controlId, 'Ada', 'Lovelace', '123-45-6789'], [ownerKyc, ...(opts.ownerName ?? 'Grace Hopper').split(' '), '234-56-7890']] as string[][]) {
    ok(await appCall(app, who, 'PATCH', `/kyc-individual/${id}`, { first_name: first, last_name: last, dob: '1980-05-05', ssn, address: ADDRESS, citizenship: 'US' }));
  }
  const kyc = ok(await appCall(app, who, 'PATCH', '/kyc-documents', {
    documents: [{ doc_type: 'PASSPORT', kyc_individual_id: controlId }, { doc_type: 'PASSPORT', kyc_individual_id: ownerKyc }],
  }));
  for (const d of kyc.documents) ok(await uploadPage(app, who, 'kyc', d.id));
  const kyb = ok(await appCall(app, who, 'PATCH', '/kyb-documents', { documents: [{ doc_type: 'ARTICLES_OF_INCORPORATION' }] }));
  ok(await uploadPage(app, who, 'kyb', kyb.documents.find((d: { kind: string }) => d.kind === 'KYB').id));
  ok(await appCall(app, who, 'PATCH', '/products', { products: ['CARDS', 'BILL_PAY'] }));
  ok(await appCall(app, who, 'PATCH', '/bank-accounts', { accounts: [{ holder_name: legal, routing_number: '021000021', account_number: '000123456789', type: 'CHECKING' }] }));
  return ok(await appCall(app, who, 'PATCH', '/checkbox', { certify_owners: true, accept_terms: true }));
}
