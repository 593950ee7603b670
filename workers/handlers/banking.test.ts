import { describe, expect, it } from 'vitest';
import { errorBody } from '../../schema/errors.ts';
import type { LinkedBankAccount } from '../../schema/api/calls-banking.ts';
import { jsonResponse } from '../../sync/testing.ts';
import { methodAndPath, signedInWorker } from '../testing/signed-in-worker.ts';
import { BANKING_OFFLINE, FLEX_OFFLINE } from './banking.ts';

const ID = '00000000-0000-4000-8000-0000000000b1';
const bank: LinkedBankAccount = {
  id: ID, uuid: ID, name: 'Operating', bank_name: 'First Bank', account_type: 'CHECKING', routing_number: '121000358',
  account_number_masked: '••••6789', currency: 'USD', entity_id: null, status: 'UNVERIFIED', verified_at: null, attempts_left: null,
  created_at: '2026-11-29T10:00:00.000Z',
};

const worker = (answer: (method: string, path: string, body: unknown) => Response | null) =>
  signedInWorker({ calls: /^\/v1\/auth\/(banking|float)/, record: methodAndPath, route: (r) => answer(r.method, r.path, r.body) });

describe('banking calls', () => {
  it('refuses offline before sending; with no mirror synced yet, the bank list is refused too', async () => {
    const { service, sent } = await worker((_m, path) => (path === '/v1/auth/banking/accounts' ? jsonResponse(200, { accounts: [bank] }) : null));
    await service.setOnline(false);
    expect(await service.bankAccounts()).toEqual(BANKING_OFFLINE);
    expect(sent).toEqual([]);
    await service.setOnline(true);
    expect(await service.bankAccounts()).toEqual({ ok: true, accounts: [bank], cached_at: null });
    // An answer read online is not kept in memory: offline is the mirror's, and this one never synced.
    await service.setOnline(false);
    expect(await service.bankAccounts()).toEqual(BANKING_OFFLINE);
    expect(await service.startDebitCheck(ID)).toEqual(BANKING_OFFLINE);
    expect(await service.flexSettings()).toEqual(FLEX_OFFLINE);
  });

  it('linking and revealing need the sensitive scope: a step-up is asked for before anything is sent', async () => {
    const { service, sent } = await worker(() => jsonResponse(201, bank));
    const body = { name: 'Operating', account_type: 'CHECKING' as const, routing_number: '121000358', account_number: '123456789' };
    expect(await service.linkBankAccount(body)).toMatchObject({ ok: false, step_up: 'sensitive' });
    expect(await service.revealBankAccount(ID)).toMatchObject({ ok: false, step_up: 'sensitive' });
    expect(sent).toEqual([]);
  });

  it('refuses a statement file the server would refuse without sending it', async () => {
    const { service, sent } = await worker(() => null);
    const r = await service.uploadStatement(ID, new Blob(['x'], { type: 'text/plain' }), 'notes.txt');
    expect(r).toMatchObject({ ok: false, error: { error_code: 'BANKING_7005' } });
    expect(sent).toEqual([]);
  });

  it('sends the two micro-deposit amounts and answers the server’s refusal as data', async () => {
    const bodies: unknown[] = [];
    const { service, sent } = await worker((_m, _p, body) => {
      bodies.push(body);
      return jsonResponse(422, errorBody('BANKING_7002'));
    });
    const r = await service.verifyDebitCheck(ID, [12, 34]);
    expect(r).toMatchObject({ ok: false, error: { error_code: 'BANKING_7002' } });
    expect(sent).toEqual([`POST /v1/auth/banking/debit-check/${ID}/verify`]);
    expect(bodies).toEqual([{ amounts: [12, 34] }]);
  });

  it('accepts a flex offer with the chosen term', async () => {
    const bodies: unknown[] = [];
    const { service, sent } = await worker((_m, _p, body) => {
      bodies.push(body);
      return jsonResponse(409, errorBody('FLEX_7003'));
    });
    const r = await service.acceptFlexOffer(ID, 60, 'key-1');
    expect(r).toMatchObject({ ok: false, error: { error_code: 'FLEX_7003' } });
    expect(sent).toEqual([`POST /v1/auth/float/offer/${ID}/accept`]);
    expect(bodies).toEqual([{ term_days: 60 }]);
  });
});
