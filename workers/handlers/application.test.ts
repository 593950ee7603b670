import { describe, expect, it } from 'vitest';
import { errorBody } from '../../schema/errors.ts';
import { jsonResponse } from '../../sync/testing.ts';
import { signedInWorker, type WorkerRequest } from '../testing/signed-in-worker.ts';
import { APPLICATION_OFFLINE } from './application.ts';

const APP = '11111111-1111-4111-8111-111111111111';
const KYC = '22222222-2222-4222-8222-222222222222';
const DOC = '33333333-3333-4333-8333-333333333333';
const draft = {
  id: APP, status: 'DRAFT', version: 5, business_name: null, current_step: null, business_details: null, financial_details: null, company: null,
  leadership: null, products: null, checkbox: null, owners: [], kyc_individuals: [], documents: [], bank_accounts: [], invites: [], decision: null,
  business_id: null, submitted_at: null, created_at: '2026-11-30T06:00:00.000Z', missing: { company: ['Describe the company.'] },
};
const record = (r: WorkerRequest) => `${r.method} ${r.path} app=${r.headers.get('X-RAMP-FINANCING-APPLICATION-ID') ?? '-'} if=${r.headers.get('If-Match') ?? '-'}`;

describe('the financing application calls', () => {
  it('send the application id header and the version as If-Match on every step call; refusals as data', async () => {
    const { service, sent } = await signedInWorker({
      record, scopes: ['default', 'email-otp'], signIn: true,
      route: (r) => {
        if (r.path === '/v1/auth/application/company') return jsonResponse(200, draft);
        if (r.path === `/v1/auth/application/kyc-individual/${KYC}`) return jsonResponse(409, errorBody('CONFLICT'));
        if (r.path === `/v1/auth/application/kyb-documents/${DOC}/2` || r.path === '/v1/auth/application') return jsonResponse(200, draft);
        if (r.path === '/v1/auth/application/submit') return jsonResponse(422, { error_v2: { ...errorBody('APPLICATION_7002').error_v2, errors: { company: 'Describe the company.' } } });
        return null;
      },
    });
    expect(await service.application(APP)).toEqual({ ok: true, application: draft });
    expect(await service.saveApplicationStep(APP, 'company', { industry_code: '5415', description: 'x', employee_count: 2 }, 4)).toEqual({ ok: true, application: draft });
    expect(await service.saveApplicationStep(APP, `kyc:${KYC}`, {}, 5)).toMatchObject({ ok: false, error: { error_code: 'CONFLICT' } });
    expect(await service.deleteApplicationPage(APP, 'KYB', DOC, 2)).toEqual({ ok: true, application: draft });
    expect(await service.submitApplication(APP)).toMatchObject({ ok: false, error: { error_code: 'APPLICATION_7002', errors: { company: 'Describe the company.' } } });
    expect(sent.filter((s) => s.includes('/application'))).toEqual([
      `GET /v1/auth/application app=${APP} if=-`,
      `PATCH /v1/auth/application/company app=${APP} if="4"`,
      `PATCH /v1/auth/application/kyc-individual/${KYC} app=${APP} if="5"`,
      `DELETE /v1/auth/application/kyb-documents/${DOC}/2 app=${APP} if=-`,
      `PATCH /v1/auth/application/submit app=${APP} if=-`,
    ]);
  });

  it('invite a co-applicant (with the person whose identity check they fill), withdraw an invite, and verify with an invite link', async () => {
    const INVITE = '44444444-4444-4444-8444-444444444444';
    const TOKEN = 'a'.repeat(43);
    const { service, sent } = await signedInWorker({
      record: (r) => `${record(r)} ${r.text}`.trim(), scopes: ['default', 'email-otp'], signIn: true,
      route: (r) => {
        if (r.path === '/v1/auth/application/invite-applicant') return jsonResponse(201, draft);
        if (r.path === `/v1/auth/application/invite/${INVITE}`) return jsonResponse(404, errorBody('REQUEST_7004'));
        if (r.path === '/v1/public/application/verify') return jsonResponse(400, errorBody('PROFILE_7017'));
        return null;
      },
    });
    expect(await service.inviteApplicant(APP, 'co@example.com', KYC)).toEqual({ ok: true, application: draft });
    expect(await service.inviteApplicant(APP, 'other@example.com')).toEqual({ ok: true, application: draft });
    expect(await service.deleteApplicationInvite(APP, INVITE)).toMatchObject({ ok: false, error: { error_code: 'REQUEST_7004' } });
    expect(await service.applicationVerify('co@example.com', '123456', { inviteToken: TOKEN, financingApplicationId: APP }))
      .toMatchObject({ ok: false, error: { error_code: 'PROFILE_7017' } });
    expect(await service.applicationVerify('me@example.com', '654321')).toMatchObject({ ok: false, error: { error_code: 'PROFILE_7017' } });
    expect(sent.filter((s) => s.includes('/application'))).toEqual([
      `POST /v1/auth/application/invite-applicant app=${APP} if=- {"email":"co@example.com","kyc_individual_uuid":"${KYC}"}`,
      `POST /v1/auth/application/invite-applicant app=${APP} if=- {"email":"other@example.com"}`,
      `DELETE /v1/auth/application/invite/${INVITE} app=${APP} if=-`,
      `POST /v1/public/application/verify app=- if=- {"email":"co@example.com","code":"123456","invite_token":"${TOKEN}","financing_application_id":"${APP}"}`,
      'POST /v1/public/application/verify app=- if=- {"email":"me@example.com","code":"654321"}',
    ]);
  });

  it('refuse offline before sending anything, saying the answers stay on this device', async () => {
    const { service, sent } = await signedInWorker({ record, scopes: ['default', 'email-otp'], signIn: true, route: () => null });
    await service.setOnline(false);
    expect(await service.saveApplicationStep(APP, 'company', {}, 1)).toEqual(APPLICATION_OFFLINE);
    expect(await service.applicationVerify('a@b.co', '123456')).toMatchObject({ ok: false, error: { error_code: 'OFFLINE' } });
    expect(sent.filter((s) => s.includes('/application'))).toEqual([]);
  });
});
