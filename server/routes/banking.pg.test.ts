/**
 * Banking links race on PostgreSQL (issue 30): two API processes answering the same debit check
 * count every wrong answer once and lock it after the third; two statements of one bank account
 * read at once on both processes never claim the same ledger entry.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withPgBusiness } from '../test-pg-race.ts';
import { pgAvailable } from '../testing.ts';
import { FIXTURE_PASSWORD, request } from '../test-fixtures.ts';
import { allocateSeqs } from '../db/change-seq.ts';
import { findAccount, fund, openWalletAccount } from '../ledger/ledger.ts';
import { lockTransfer, settleTransfer, startTransfer } from '../domain/treasury/transfer-core.ts';
import { readMicroDeposits } from '../domain/banking/debit-check.ts';

const B = '/v1/auth/banking';
const MANUAL = { name: 'Race bank', account_type: 'CHECKING', routing_number: '021000021', account_number: '11112222' };
const PDF = new Uint8Array(new TextEncoder().encode('%PDF-1.7\n%%EOF\n'));

describe.skipIf(!(await pgAvailable()))('banking links race on PostgreSQL', () => {
  it('counts racing wrong answers once each across two processes, and locks after the third', async () => {
    await withPgBusiness({ operating: {} }, async ({ appA, appB, dbA, f, admin }) => {
      const stepped = (await request(appA, 'POST', '/v1/auth/users/current/step-up', { token: admin, body: { password: FIXTURE_PASSWORD } })).body.id_token;
      const linked = await request(appA, 'POST', `${B}/manual-account`, { token: stepped, body: MANUAL });
      expect(linked.status, linked.text).toBe(201);
      const id = linked.body.id as string;
      await request(appA, 'POST', `${B}/debit-check/${id}`, { token: admin });
      const deposits = (await readMicroDeposits(dbA, f.businessId, id))!;
      const wrong = [deposits[0] === 99 ? 98 : deposits[0] + 1, deposits[1]];
      const answers = await Promise.all([appA, appB, appA, appB].map((app) =>
        request(app, 'POST', `${B}/debit-check/${id}/verify`, { token: admin, body: { amounts: wrong } })));
      const codes = answers.map((r) => r.body.error_v2.error_code as string).sort();
      expect(codes).toEqual(['BANKING_7002', 'BANKING_7002', 'BANKING_7003', 'BANKING_7003']);
      const [row] = await dbA.query<{ status: string; verify_attempts: number }>('SELECT status, verify_attempts FROM bank_accounts WHERE id = $1', [id]);
      expect(row).toEqual({ status: 'FAILED', verify_attempts: 3 });
    });
  });

  it('lets one statement only claim a ledger entry when two are read at once on two processes', async () => {
    await withPgBusiness({ operating: {} }, async ({ appA, appB, dbA, f, admin }) => {
      const stepped = (await request(appA, 'POST', '/v1/auth/users/current/step-up', { token: admin, body: { password: FIXTURE_PASSWORD } })).body.id_token;
      const bankId = (await request(appA, 'POST', `${B}/manual-account`, { token: stepped, body: MANUAL })).body.id as string;
      const [ledger] = await dbA.query<{ id: string }>('SELECT id FROM ledger_accounts WHERE bank_account_id = $1', [bankId]);
      const transferId = randomUUID();
      await dbA.transaction(async (tx) => {
        const operating = await openWalletAccount(tx, { businessId: f.businessId, kind: 'OPERATING', currency: 'USD', name: 'Operating', primary: true });
        await fund(tx, { businessId: f.businessId, account: operating, amount: 50_000, currency: 'USD', key: 'opening', at: new Date('2026-11-01T00:00:00Z') });
        const seqs = await allocateSeqs(tx, f.businessId, 2);
        await startTransfer(tx, {
          businessId: f.businessId, id: transferId, from: (await findAccount(tx, f.businessId, operating))!, to: (await findAccount(tx, f.businessId, ledger!.id))!,
          amount: 4_200, fee: 0, memo: 'race', expectedSettlementDate: '2026-11-10', createdBy: null, at: new Date('2026-11-09T10:00:00Z'), seq: seqs!.first,
        });
        await settleTransfer(tx, (await lockTransfer(tx, f.businessId, transferId))!, new Date('2026-11-10T10:00:00Z'), seqs!.last);
      });
      const upload = async () => {
        const res = await appA.request(`${B}/statement?bank_account_id=${bankId}&file_name=nov.pdf`, {
          method: 'POST', headers: { 'RAMP-ID-TOKEN': admin, 'content-type': 'application/pdf' }, body: PDF,
        });
        expect(res.status).toBe(201);
        return ((await res.json()) as { id: string }).id;
      };
      const ids = [await upload(), await upload()];
      const lines = [{ date: '2026-11-10', description: 'ACH credit', amount: 4_200 }];
      const answers = await Promise.all([appA, appB].map((app, i) =>
        request(app, 'PUT', `${B}/statement/${ids[i]}/lines`, { token: admin, body: { lines } })));
      expect(answers.map((r) => r.status)).toEqual([200, 200]);
      expect(answers.map((r) => r.body.matched as number).sort()).toEqual([0, 1]);
      const claimed = answers.flatMap((r) => r.body.lines.map((l: { matched_transfer_id: string | null }) => l.matched_transfer_id)).filter(Boolean);
      expect(claimed).toEqual([transferId]);
    });
  });
});
