import { describe, expect, it } from 'vitest';
import { errorBody } from '../../schema/errors.ts';
import { jsonResponse } from '../../sync/testing.ts';
import { methodAndPath, signedInWorker } from '../testing/signed-in-worker.ts';
import { CONSOLE_OFFLINE } from './advisor-console.ts';

const PROPOSAL = '44444444-4444-4444-8444-444444444444';
const AUTH = '55555555-5555-4555-8555-555555555555';

const worker = (answer: (method: string, path: string, body: unknown) => Response | null) =>
  signedInWorker({ record: methodAndPath, route: (r) => answer(r.method, r.path, r.body), signIn: true });

describe('advisor console calls', () => {
  it('refuse offline before sending anything', async () => {
    const { service, sent } = await worker(() => null);
    await service.setOnline(false);
    expect(await service.consoleClients()).toEqual(CONSOLE_OFFLINE);
    expect(await service.openClient(AUTH)).toMatchObject({ ok: false, error: { error_code: 'OFFLINE' } });
    expect(await service.acceptFirmProposal(PROPOSAL, ['READ'])).toEqual(CONSOLE_OFFLINE);
    expect(sent.filter((s) => s.includes('external-firm'))).toEqual([]);
  });

  it('send the contract’s paths and bodies; refusals in the server’s words', async () => {
    const bodies: unknown[] = [];
    const { service, sent } = await worker((method, path, body) => {
      if (path.startsWith('/v1/auth/external-firm/clients')) return jsonResponse(200, { data: [], page: { next: 'n2' } });
      if (path === `/v1/auth/businesses/external-firm-proposals/${PROPOSAL}/accept`) {
        bodies.push(body);
        return jsonResponse(409, errorBody('FIRM_7002'));
      }
      if (path === '/v1/auth/external-firm/proposals/bulk') {
        bodies.push(body);
        return jsonResponse(200, { results: [{ id: PROPOSAL, ok: false, error_v2: { error_code: 'FIRM_7002', message: 'No.' } }] });
      }
      return null;
    });
    expect(await service.consoleClients('c1')).toEqual({ ok: true, rows: [], next: 'n2' });
    expect(await service.acceptFirmProposal(PROPOSAL, ['READ'])).toMatchObject({ ok: false, error: { error_code: 'FIRM_7002' } });
    expect(await service.consoleBulkProposals('revoke', [PROPOSAL])).toEqual({ ok: true, results: [{ id: PROPOSAL, ok: false, message: 'No.' }] });
    expect(bodies).toEqual([{ rights: ['READ'] }, { action: 'revoke', ids: [PROPOSAL] }]);
    expect(sent.find((s) => s.startsWith('GET /v1/auth/external-firm/clients'))).toBeDefined();
  });
});
