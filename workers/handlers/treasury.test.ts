import { describe, expect, it } from 'vitest';
import { errorBody } from '../../schema/errors.ts';
import { jsonResponse } from '../../sync/testing.ts';
import { methodAndPath, signedInWorker } from '../testing/signed-in-worker.ts';
import { TREASURY_OFFLINE } from './treasury.ts';

const WALLET = '11111111-1111-4111-8111-111111111111';
const RESERVE = '22222222-2222-4222-8222-222222222222';
const POLICY = '33333333-3333-4333-8333-333333333333';
const BASE = '/v1/auth/treasury/business-accounts';

const worker = (answer: (method: string, path: string, body: unknown) => Response | null) =>
  signedInWorker({ record: methodAndPath, route: (r) => answer(r.method, r.path, r.body), signIn: true });

describe('treasury calls', () => {
  it('refuse offline before sending anything', async () => {
    const { service, sent } = await worker(() => null);
    await service.setOnline(false);
    expect(await service.previewTransfer(WALLET, { to_account_id: RESERVE, amount: { amount: 100, currency: 'USD' } })).toEqual(TREASURY_OFFLINE);
    expect(await service.automationPolicies()).toEqual(TREASURY_OFFLINE);
    expect(await service.sweepStatus(true)).toEqual(TREASURY_OFFLINE);
    expect(sent).toEqual([]);
  });

  it('send the preview, activity page, settings and sweep calls as the contract says and answer their figures; refusals in the server’s words', async () => {
    const bodies: unknown[] = [];
    const { service, sent } = await worker((method, path, body) => {
      if (path === `${BASE}/${WALLET}/transfers/preview`) {
        bodies.push(body);
        return jsonResponse(200, { fee: { amount: 0, currency: 'USD' }, expected_settlement_date: '2026-11-30', balance_after: { amount: 900, currency: 'USD' } });
      }
      if (path.startsWith(`${BASE}/${WALLET}/actions`)) return jsonResponse(200, { data: [], page: { next: 'c2' } });
      if (path === '/v1/auth/wallet/settings' && method === 'PATCH') {
        bodies.push(body);
        return jsonResponse(200, { yield_rate_bps: 450, external_transfer_fee: 500, external_settlement_days: 2 });
      }
      if (path === '/v1/auth/wallet/automation-policy/acknowledge-failed-runs') return jsonResponse(409, errorBody('TREASURY_7008'));
      if (path === '/v1/auth/wallet/automation-policy/sweep-status') {
        bodies.push(body);
        return jsonResponse(200, { day: '2026-11-29', policies: [{ id: POLICY, status: 'MOVED', transfer_id: null }] });
      }
      return null;
    });
    expect(await service.previewTransfer(WALLET, { to_account_id: RESERVE, amount: { amount: 100, currency: 'USD' } })).toEqual({
      ok: true, preview: { fee: { amount: 0, currency: 'USD' }, expected_settlement_date: '2026-11-30', balance_after: { amount: 900, currency: 'USD' } },
    });
    expect(await service.treasuryAccountActions(WALLET)).toEqual({ ok: true, rows: [], next: 'c2' });
    expect(await service.saveWalletSettings({ yield_rate_bps: 450 })).toMatchObject({ ok: true, settings: { yield_rate_bps: 450 } });
    expect(await service.acknowledgeFailedRuns([POLICY])).toMatchObject({ ok: false, error: { error_code: 'TREASURY_7008' } });
    expect(await service.sweepStatus(true)).toMatchObject({ ok: true, status: { day: '2026-11-29' } });
    expect(bodies).toEqual([{ to_account_id: RESERVE, amount: { amount: 100, currency: 'USD' } }, { yield_rate_bps: 450 }, { run: true }]);
    expect(sent[0]).toBe(`POST ${BASE}/${WALLET}/transfers/preview`);
    expect(sent[1]).toMatch(new RegExp(`^GET ${BASE}/${WALLET}/actions`));
  });

  it('card autopay: GET, PUT with the amount and DELETE on /businesses/autopay_threshold; refusals in the server’s words; offline nothing sent', async () => {
    const AUTOPAY = '/v1/auth/businesses/autopay_threshold';
    const bodies: unknown[] = [];
    const answer = (threshold: number | null) => ({ autopay_threshold: threshold === null ? null : { amount: threshold, currency: 'USD' }, unpaid_card_balance: { amount: 0, currency: 'USD' } });
    const { service, sent } = await worker((method, path, body) => {
      if (path !== AUTOPAY) return null;
      if (method === 'PUT') {
        bodies.push(body);
        return (body as { amount: { currency: string } }).amount.currency === 'EUR' ? jsonResponse(422, errorBody('TREASURY_7002')) : jsonResponse(200, answer(50_000));
      }
      return jsonResponse(200, answer(null));
    });
    expect(await service.cardAutopay()).toEqual({ ok: true, autopay: answer(null) });
    expect(await service.saveCardAutopay({ amount: 50_000, currency: 'USD' })).toEqual({ ok: true, autopay: answer(50_000) });
    expect(await service.saveCardAutopay({ amount: 50_000, currency: 'EUR' })).toMatchObject({ ok: false, error: { error_code: 'TREASURY_7002' } });
    expect(await service.removeCardAutopay()).toEqual({ ok: true, autopay: answer(null) });
    expect(bodies).toEqual([{ amount: { amount: 50_000, currency: 'USD' } }, { amount: { amount: 50_000, currency: 'EUR' } }]);
    expect(sent).toEqual([`GET ${AUTOPAY}`, `PUT ${AUTOPAY}`, `PUT ${AUTOPAY}`, `DELETE ${AUTOPAY}`]);
    await service.setOnline(false);
    expect(await service.removeCardAutopay()).toEqual(TREASURY_OFFLINE);
    expect(sent).toHaveLength(4);
  });
});
