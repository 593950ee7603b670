import { describe, expect, it } from 'vitest';
import type { Reimbursement } from '../entities/reimbursement.ts';
import {
  claimErrors, foreignFields, reimbursementCreate, reimbursementDelete, reimbursementCreateMileage, reimbursementCreatePerDiem, reimbursementSubmit,
  reimbursementSaveDraft, reimbursementUpdate, syncedClaimRefusal,
} from './reimbursement.ts';
import { serverIdsOf } from './receipt.ts';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const AT = '2026-03-05T10:00:00.000Z';
const base = (over: Partial<Reimbursement> = {}): Reimbursement => ({
  id: id(1), user_id: id(2), business_id: id(9), type: 'OUT_OF_POCKET', status: 'DRAFT', merchant: null, amount: 1, currency: 'USD',
  transaction_date: '2026-03-05', memo: null, gl_account_id: null, department_id: null, distance_miles: null, start_location: null,
  end_location: null, trip_date: null, location: null, start_date: null, end_date: null, rejection_reason: null, receipt_ids: [], submitted_at: null,
  created_at: AT, change_seq: 0, updated_at: AT, deleted: false, ...over,
});

describe('reimbursement commands', () => {
  it('create fills the claim and submits it unless told not to; the call carries the client id', () => {
    const args = reimbursementCreate.args.parse({ id: id(1), amount: 1250, currency: 'EUR', transaction_date: '2026-03-01', merchant: 'Café' });
    expect(reimbursementCreate.request(args)).toEqual({ body: args });
    expect(reimbursementCreate.entityIds(args)).toEqual([id(1)]);
    expect(reimbursementCreate.apply(base(), args)).toMatchObject({
      amount: 1250, currency: 'EUR', transaction_date: '2026-03-01', merchant: 'Café', status: 'SUBMITTED', submitted_at: AT,
    });
    const draft = reimbursementCreate.apply(base(), { ...args, submit: false });
    expect(draft).toMatchObject({ status: 'DRAFT', submitted_at: null });
  });

  it('mileage and per diem derive amount, currency and claim date', () => {
    const m = reimbursementCreateMileage.apply(base({ type: 'MILEAGE' }), reimbursementCreateMileage.args.parse({
      id: id(1), distance_miles: 10, start_location: 'A', end_location: 'B', trip_date: '2025-06-01',
    }));
    expect(m).toMatchObject({ amount: 700, currency: 'USD', transaction_date: '2025-06-01', trip_date: '2025-06-01' });
    const p = reimbursementCreatePerDiem.apply(base({ type: 'PER_DIEM' }), reimbursementCreatePerDiem.args.parse({
      id: id(1), location: 'Oslo', start_date: '2026-03-01', end_date: '2026-03-03',
    }));
    expect(p).toMatchObject({ amount: 17000, currency: 'USD', transaction_date: '2026-03-01' });
    // An edit of the distance recomputes the amount.
    const edited = reimbursementUpdate.apply(m, { reimbursement_id: id(1), patch: { distance_miles: 20, trip_date: '2026-01-02' } });
    expect(edited).toMatchObject({ amount: 1450, transaction_date: '2026-01-02' });
  });

  it("applies the business's rates the command carries, and never sends them", () => {
    const rates = [
      { kind: 'PER_DIEM' as const, name: 'London', year: null, rate: 7500, currency: 'GBP' },
      { kind: 'MILEAGE' as const, name: null, year: 2026, rate: 800, currency: 'USD' },
    ];
    const pArgs = reimbursementCreatePerDiem.args.parse({ id: id(1), location: 'london', start_date: '2026-03-01', end_date: '2026-03-03', rates });
    expect(reimbursementCreatePerDiem.request(pArgs).body).not.toHaveProperty('rates');
    const p = reimbursementCreatePerDiem.apply(base({ type: 'PER_DIEM' }), pArgs);
    expect(p).toMatchObject({ amount: 5625 * 2 + 7500, currency: 'GBP', location: 'london' });
    const mArgs = reimbursementCreateMileage.args.parse({ id: id(1), distance_miles: 10, start_location: 'A', end_location: 'B', trip_date: '2026-06-01', rates });
    expect(reimbursementCreateMileage.request(mArgs).body).not.toHaveProperty('rates');
    const m = reimbursementCreateMileage.apply(base({ type: 'MILEAGE' }), mArgs);
    expect(m).toMatchObject({ amount: 800, currency: 'USD' });
    // An edit moving the stay elsewhere pays that place's rate; its request carries only the patch.
    const uArgs = { reimbursement_id: id(1), patch: { location: 'Chicago' }, rates };
    expect(reimbursementUpdate.request(uArgs)).toEqual({ params: { reimbursement_uuid: id(1) }, body: { location: 'Chicago' } });
    expect(reimbursementUpdate.apply(p, uArgs)).toMatchObject({ amount: 17000, currency: 'USD' });
    // An edit queued without rates (an older client) that touches no amount field keeps the amount.
    expect(reimbursementUpdate.apply(p, { reimbursement_id: id(1), patch: { memo: 'Team offsite' } })).toMatchObject({ amount: 5625 * 2 + 7500, currency: 'GBP' });
    expect(claimErrors({ ...m, trip_date: '2027-01-01' }, new Date('2027-01-02T00:00:00Z'), [{ ...rates[1]!, year: 2027 }])).toEqual({});
  });

  it('submit stamps the write moment and clears a rejection; fields of another type are named', () => {
    const rejected = base({ status: 'REJECTED', rejection_reason: 'No receipt', updated_at: '2026-03-06T00:00:00.000Z' });
    const args = reimbursementSubmit.args.parse({ reimbursement_id: id(1) });
    expect(reimbursementSubmit.request(args)).toEqual({ params: { reimbursement_uuid: id(1) } });
    expect(reimbursementSubmit.apply(rejected, args)).toMatchObject({
      status: 'SUBMITTED', rejection_reason: null, submitted_at: '2026-03-06T00:00:00.000Z',
    });
    expect(foreignFields('OUT_OF_POCKET', { memo: 'x', distance_miles: 3, location: 'y' })).toEqual({
      distance_miles: 'distance_miles cannot be set on a reimbursement of type OUT_OF_POCKET',
      location: 'location cannot be set on a reimbursement of type OUT_OF_POCKET',
    });
    expect(claimErrors(base({ type: 'MILEAGE', distance_miles: 0, trip_date: '2026-01-01' }), new Date(AT))).toHaveProperty('distance_miles');
  });

  it('delete carries the id to the catalogue\'s DELETE and tombstones the row; confirmed by change seq', () => {
    const args = reimbursementDelete.args.parse({ reimbursement_id: id(1) });
    expect(reimbursementDelete.call.method).toBe('DELETE');
    expect(reimbursementDelete.call.path).toBe('/v1/auth/reimbursements/:reimbursement_uuid');
    expect(reimbursementDelete.request(args)).toEqual({ params: { reimbursement_uuid: id(1) } });
    expect(reimbursementDelete.entityIds(args)).toEqual([id(1)]);
    expect(reimbursementDelete.apply(base(), args)).toMatchObject({ id: id(1), deleted: true, status: 'DRAFT' });
    expect(reimbursementDelete.confirm).toBe('change_seq');
    expect(() => reimbursementDelete.args.parse({ reimbursement_id: 'nope' })).toThrow();
  });

  describe('receipts on a claim (issue 9)', () => {
    const uploaded = new Map([[id(51), id(61)], [id(52), id(62)], [id(53), id(61)]]);
    const serverId = (x: string) => uploaded.get(x);

    it('serverIdsOf maps client ids, keeps unknown (server) ids, and drops repeats', () => {
      expect(serverIdsOf([id(51), id(70), id(52), id(53)], serverId)).toEqual([id(61), id(70), id(62)]);
      expect(serverIdsOf([], serverId)).toEqual([]);
    });

    it('create waits for its receipts\' uploads, is sent with the server ids, and shows the client ids at once', () => {
      const args = reimbursementCreate.args.parse({ id: id(1), amount: 500, currency: 'USD', transaction_date: '2026-03-01', receipt_ids: [id(51), id(52)] });
      expect(reimbursementCreate.after?.(args)).toEqual([id(51), id(52)]);
      const sent = reimbursementCreate.resolve!(args, serverId);
      expect(reimbursementCreate.request(sent).body).toMatchObject({ receipt_ids: [id(61), id(62)] });
      expect(args.receipt_ids).toEqual([id(51), id(52)]);
      expect(reimbursementCreate.apply(base(), args).receipt_ids).toEqual([id(51), id(52)]);
      // None named: nothing to wait for, none on the row.
      const plain = reimbursementCreate.args.parse({ id: id(1), amount: 500, currency: 'USD', transaction_date: '2026-03-01' });
      expect(reimbursementCreate.after?.(plain)).toEqual([]);
      expect(reimbursementCreate.resolve!(plain, serverId)).toEqual(plain);
      expect(reimbursementCreate.apply(base(), plain).receipt_ids).toEqual([]);
      expect(reimbursementCreateMileage.after?.(reimbursementCreateMileage.args.parse({
        id: id(1), distance_miles: 3, start_location: 'A', end_location: 'B', trip_date: '2026-03-01', receipt_ids: [id(53)],
      }))).toEqual([id(53)]);
    });

    it('update replaces the set (receipt_ids is common to every type); saveDraft takes them too', () => {
      const args = reimbursementUpdate.args.parse({ reimbursement_id: id(1), patch: { receipt_ids: [id(52)] } });
      expect(reimbursementUpdate.after?.(args)).toEqual([id(52)]);
      expect(reimbursementUpdate.request(reimbursementUpdate.resolve!(args, serverId)).body).toEqual({ receipt_ids: [id(62)] });
      expect(reimbursementUpdate.apply(base({ receipt_ids: [id(61)] }), args).receipt_ids).toEqual([id(52)]);
      expect(foreignFields('MILEAGE', { receipt_ids: [] })).toEqual({});
      const memoOnly = reimbursementUpdate.args.parse({ reimbursement_id: id(1), patch: { memo: 'x' } });
      expect(reimbursementUpdate.apply(base({ receipt_ids: [id(61)] }), memoOnly).receipt_ids).toEqual([id(61)]);

      const draft = reimbursementSaveDraft.args.parse({
        reimbursement_id: id(1), draft: { type: 'OUT_OF_POCKET', amount: 5, currency: 'USD', transaction_date: '2026-03-01', receipt_ids: [id(51)] },
      });
      expect(reimbursementSaveDraft.after?.(draft)).toEqual([id(51)]);
      expect(reimbursementSaveDraft.request(reimbursementSaveDraft.resolve!(draft, serverId)).body).toMatchObject({ receipt_ids: [id(61)] });
      expect(reimbursementSaveDraft.apply(base(), draft).receipt_ids).toEqual([id(51)]);
    });
  });
});

describe('synced claims (issue 12)', () => {
  const SYNCED = '2026-11-27T04:00:00.000Z';
  const rows = new Map<string, Partial<Reimbursement>>([[id(1), { accounting_synced_at: null }], [id(2), { accounting_synced_at: SYNCED }], [id(3), {}]]);
  const mirror = { has: (x: string) => rows.has(x), get: (x: string) => rows.get(x) };

  it.each([
    ['the GL account of an unsynced claim', id(1), { gl_account_id: id(10) }, null],
    ['the GL account of a claim without the mark (older server)', id(3), { gl_account_id: id(10) }, null],
    ['the GL account of a synced claim', id(2), { gl_account_id: id(10) }, 'ACCOUNTING_7301'],
    ['the department of a synced claim', id(2), { department_id: null }, 'ACCOUNTING_7301'],
    ['the amount of a synced claim', id(2), { amount: 500 }, 'ACCOUNTING_7301'],
    ['the claim date of a synced claim', id(2), { transaction_date: '2026-03-01' }, 'ACCOUNTING_7301'],
    ['the distance of a synced mileage claim', id(2), { distance_miles: 12 }, 'ACCOUNTING_7301'],
    ['the per-diem dates of a synced claim', id(2), { start_date: '2026-03-01' }, 'ACCOUNTING_7301'],
    ['the memo with the amount', id(2), { memo: 'x', amount: 500 }, 'ACCOUNTING_7301'],
    ['the memo of a synced claim', id(2), { memo: 'team dinner' }, null],
    ['the receipts of a synced claim', id(2), { receipt_ids: [id(11)] }, null],
  ] as const)('check on %s → %s', (_label, claimId, patch, expected) => {
    expect(reimbursementUpdate.check!(reimbursementUpdate.args.parse({ reimbursement_id: claimId, patch }), mirror)).toBe(expected);
  });

  it('lets a mirror that cannot read rows through (the server refuses instead)', () => {
    expect(reimbursementUpdate.check!({ reimbursement_id: id(2), patch: { amount: 500 } }, { has: () => true })).toBeNull();
  });

  it('names the export day in the refusal', () => {
    expect(syncedClaimRefusal(SYNCED, { amount: 500 })).toBe(
      'This reimbursement was exported to your accounting system on 2026-11-27. Mark it as not synced to change its amount, date or coding.');
    expect(syncedClaimRefusal(null, { amount: 500 })).toBeNull();
    expect(syncedClaimRefusal(SYNCED, {})).toBeNull();
  });
});
