import { describe, expect, it } from 'vitest';
import { errorBody } from '../../schema/errors.ts';
import { jsonResponse } from '../../sync/testing.ts';
import { methodAndPath, signedInWorker } from '../testing/signed-in-worker.ts';
import { SUPPORT_ACCESS_OFFLINE } from './support-access.ts';

const SUPPORT_ACCESS = '/v1/auth/businesses/support-access';
const VERIFICATION = '/v1/auth/users/current/email-verification';
const GRANT = {
  id: '11111111-1111-4111-8111-111111111111', active: true, allow_writes: false,
  created_at: '2026-06-01T12:00:00.000Z', expires_at: '2026-06-08T12:00:00.000Z', revoked_at: null,
  granted_by: { user_id: '22222222-2222-4222-8222-222222222222', name: 'Ada Admin' }, revoked_by: null,
};

const worker = (answer: (method: string, path: string, body: unknown) => Response | null) =>
  signedInWorker({ record: methodAndPath, route: (r) => answer(r.method, r.path, r.body), signIn: true });

describe('support access and email verification calls', () => {
  it('refuse offline before sending anything', async () => {
    const { service, sent } = await worker(() => null);
    await service.setOnline(false);
    expect(await service.grantSupportAccess({ days: 3 })).toEqual(SUPPORT_ACCESS_OFFLINE);
    expect(await service.revokeSupportAccess()).toEqual(SUPPORT_ACCESS_OFFLINE);
    expect(await service.verifyEmail('123456')).toEqual(SUPPORT_ACCESS_OFFLINE);
    expect(sent).toEqual([]);
  });

  it('send the grant as given and answer the grant; pass the server’s refusals in its words', async () => {
    const bodies: unknown[] = [];
    const { service, sent } = await worker((method, path, body) => {
      if (path === SUPPORT_ACCESS && method === 'POST') {
        bodies.push(body);
        return jsonResponse(201, { grant: GRANT });
      }
      if (path === SUPPORT_ACCESS && method === 'DELETE') return jsonResponse(403, errorBody('FORBIDDEN_7003', 'Only administrators can manage the business.'));
      if (path === `${VERIFICATION}/verify`) return jsonResponse(422, errorBody('PROFILE_7016'));
      if (path === `${VERIFICATION}/send`) return jsonResponse(403, errorBody('PROFILE_UNVERIFIED'));
      return null;
    });
    expect(await service.grantSupportAccess({ days: 7, allow_writes: false })).toEqual({ ok: true, grant: GRANT });
    expect(bodies).toEqual([{ days: 7, allow_writes: false }]);
    expect(await service.revokeSupportAccess()).toMatchObject({ ok: false, error: { error_code: 'FORBIDDEN_7003', message: 'Only administrators can manage the business.' } });
    expect(await service.verifyEmail('123456')).toMatchObject({ ok: false, error: { error_code: 'PROFILE_7016' } });
    expect(sent).toEqual([`POST ${SUPPORT_ACCESS}`, `DELETE ${SUPPORT_ACCESS}`, `POST ${VERIFICATION}/verify`]);
  });
});
