import { describe, expect, it } from 'vitest';
import type { MissingItemView } from '../../../workers/api.ts';
import { back, next, restart, skip, viewOf, withLive, EMPTY_WIZARD } from './wizard-state.ts';

const item = (n: number): MissingItemView => ({
  object_type: 'transaction', object_id: `00000000-0000-4000-8000-00000000000${n}`, date: '2026-11-2' + n, amount: 10000, currency: 'USD',
  merchant: `Shop ${n}`, memo: null, receipt_ids: [], gl_account_id: null, department_id: null, location_id: null, claim_type: null,
  violations: [{ code: 'missing_receipt', policy_id: '00000000-0000-4000-8000-0000000000aa', policy_name: 'P', message: 'A receipt is required.' }],
});
const [a, b, c] = [item(1), item(2), item(3)];

describe('the missing-items walk', () => {
  it('walks one item at a time with its position, then is done', () => {
    let s = withLive(EMPTY_WIZARD, [a, b, c]);
    expect(viewOf(s, [a, b, c])).toMatchObject({ position: 1, total: 3, current: { item: a, fixed: false }, done: false });
    s = skip(s);
    expect(s.skipped).toEqual(['transaction:' + a.object_id]);
    s = next(s);
    expect(viewOf(s, [a, b, c])).toMatchObject({ position: 3, current: { item: c } });
    expect(viewOf(back(s), [a, b, c]).position).toBe(2);
    s = next(s);
    expect(viewOf(s, [a, b, c])).toMatchObject({ done: true, current: null, remaining: 3 });
  });

  it('an item fixed leaves the live list: it stays on screen as fixed, counted once, and never rejoins', () => {
    let s = withLive(EMPTY_WIZARD, [a, b]);
    expect(viewOf(s, [b])).toMatchObject({ current: { item: a, fixed: true }, fixed: 1, remaining: 1, total: 2 });
    // The feed confirms the same state: nothing changes, nothing comes back.
    s = withLive(s, [b]);
    expect(s.queue).toHaveLength(2);
    expect(viewOf(s, [b]).fixed).toBe(1);
  });

  it('new items join at the end; a restart walks what is still missing', () => {
    let s = withLive(EMPTY_WIZARD, [a]);
    s = withLive(s, [a, c]);
    expect(s.queue.map((k) => k.slice(-1))).toEqual(['1', '3']);
    expect(restart([c]).queue).toEqual(['transaction:' + c.object_id]);
  });
});
