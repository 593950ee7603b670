import { describe, expect, it } from 'vitest';
import type { OutboxEntry } from '../../data-access/types.ts';
import { pendingCreates, visiblePendingCreates } from './pending-claims.ts';

const OWNER = { user_id: '11111111-1111-4111-8111-111111111111', business_id: '22222222-2222-4222-8222-222222222222' };
const A = '0b7e3f36-5c1d-4a53-9d55-7a2f6c1e0a11';
const B = '0b7e3f36-5c1d-4a53-9d55-7a2f6c1e0a12';
const T0 = Date.parse('2026-03-10T12:00:00Z');

let n = 0;
const entry = (command: OutboxEntry['command'], args: unknown, id: string, over: Partial<OutboxEntry> = {}): OutboxEntry => ({
  id: `cmd-${++n}`, command, args, entity_ids: [id], created_at: T0 + n, attempts: 0, state: 'pending', not_before: 0,
  maybe_sent: false, last_error: null, step_up_scope: null, ...over,
});
const perDiem = (id: string, over: Partial<OutboxEntry> = {}) =>
  entry('reimbursement.createPerDiem', { id, location: 'Chicago', start_date: '2026-03-02', end_date: '2026-03-04', submit: false }, id, over);
const pocket = (id: string, over: Partial<OutboxEntry> = {}) =>
  entry('reimbursement.create', { id, merchant: 'Taxi', amount: 2300, currency: 'USD', transaction_date: '2026-03-05', submit: true }, id, over);

describe('pendingCreates', () => {
  it('builds a created claim with the commands’ own apply, then the edits queued after it', () => {
    const [claim] = pendingCreates([perDiem(A), entry('reimbursement.update', { reimbursement_id: A, patch: { memo: 'conference' } }, A)], OWNER);
    expect(claim).toMatchObject({
      id: A, ...OWNER, type: 'PER_DIEM', status: 'DRAFT', amount: 17000, currency: 'USD', transaction_date: '2026-03-02',
      location: 'Chicago', memo: 'conference', pending: 'pending', failure: null,
    });
  });

  it('submits when the create says so, stamping the write moment', () => {
    const e = pocket(A);
    const [claim] = pendingCreates([e], OWNER);
    expect(claim).toMatchObject({ status: 'SUBMITTED', amount: 2300, submitted_at: new Date(e.created_at).toISOString() });
  });

  it('keeps a refused create, marked failed with the server’s reason', () => {
    const e = pocket(A, { state: 'failed', last_error: { message: 'amount too large', error_code: 'REQUEST_7001' } });
    expect(pendingCreates([e], OWNER)).toMatchObject([{ id: A, merchant: 'Taxi', pending: 'failed', failure: { command_id: e.id, message: 'amount too large' } }]);
  });

  it('leaves edits of mirrored claims and other collections to the worker', () => {
    const others = [
      entry('reimbursement.update', { reimbursement_id: B, patch: { memo: 'x' } }, B),
      entry('transaction.code', { transaction_id: B, patch: { memo: 'x' } }, B),
    ];
    expect(pendingCreates(others, OWNER)).toEqual([]);
  });
});

describe('visiblePendingCreates', () => {
  const claims = pendingCreates([perDiem(A), pocket(B)], OWNER);
  it.each([
    [{}, [B, A]],
    [{ statuses: ['DRAFT' as const] }, [A]],
    [{ q: 'tax' }, [B]],
    [{ q: 'tax nope' }, []],
  ])('%j → %j', (filter, ids) => {
    expect(visiblePendingCreates(claims, filter).map((c) => c.id)).toEqual(ids);
  });
});
