import { describe, expect, it } from 'vitest';
import { reimbursementSchema, type Reimbursement } from '../../schema/entities/reimbursement.ts';
import { ReferenceCache } from '../reference-cache.ts';
import { testUuid } from '../test-fixtures.ts';
import { WORKER_COLLECTIONS } from './index.ts';

const AT = '2026-03-01T12:00:00.000Z';
function claim(n: number, over: Partial<Reimbursement>): Reimbursement {
  return reimbursementSchema.parse({
    id: testUuid(9, n), user_id: testUuid(2, 1), type: 'OUT_OF_POCKET', status: 'DRAFT', merchant: null, amount: 100,
    currency: 'USD', transaction_date: '2026-03-01', memo: null, gl_account_id: null, department_id: null,
    distance_miles: null, start_location: null, end_location: null, trip_date: null, location: null, start_date: null,
    end_date: null, rejection_reason: null, submitted_at: null, created_at: AT, business_id: testUuid(1, 1),
    change_seq: n, updated_at: AT, deleted: false, ...over,
  });
}

describe('reimbursement search text (the worker engine)', () => {
  const rows = [
    claim(1, { merchant: 'Blue Bottle', memo: 'team coffee' }),
    claim(2, { type: 'MILEAGE', distance_miles: 10, start_location: 'Brooklyn office', end_location: 'Newark airport', trip_date: '2026-03-01' }),
    claim(3, { type: 'PER_DIEM', location: 'San Francisco', start_date: '2026-03-01', end_date: '2026-03-02' }),
  ];
  const engine = WORKER_COLLECTIONS.reimbursements.engine(new ReferenceCache());
  engine.upsertMany(rows.map((r) => ({ ...r, server: undefined })));
  const ids = (q: string) => engine.query({ filter: { q }, sort: 'date_desc', offset: 0, limit: 10 }).rows.map((r) => r.id);

  it('matches merchant and memo', () => {
    expect(ids('bottle')).toEqual([rows[0]!.id]);
    expect(ids('coffee')).toEqual([rows[0]!.id]);
  });
  it("matches a mileage claim's start and end locations", () => {
    expect(ids('brooklyn')).toEqual([rows[1]!.id]);
    expect(ids('newark')).toEqual([rows[1]!.id]);
  });
  it("matches a per-diem claim's location", () => {
    expect(ids('francisco')).toEqual([rows[2]!.id]);
  });
});
