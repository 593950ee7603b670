import { describe, expect, it } from 'vitest';
import { sameViewState, viewStateOf, type SavedView } from '../../../schema/saved-views.ts';
import { appliedOf, searchWithView } from './view-state.ts';

const view = (state: Record<string, string>, id = 'v1') => ({ id, state, name: 'Travel' }) as unknown as SavedView;

describe('saved view state', () => {
  it('keeps only the list’s view keys, arrays comma-joined, empty values dropped (§5)', () => {
    expect(viewStateOf('transactions', { q: '', user_ids: ['a', 'b'], open: 'x', page: 3, missing_receipt: true, states: [] }))
      .toEqual({ user_ids: 'a,b', missing_receipt: 'true' });
    expect(viewStateOf('bills', { status: 'ready', sort: 'amount_desc', new: 'bill' })).toEqual({ status: 'ready', sort: 'amount_desc' });
  });

  it('applying replaces the view keys and the page index, keeps the open drawer', () => {
    expect(searchWithView('transactions', { q: 'uber', page: 4, open: 'id-1', sort: 'amount_asc' }, view({ missing_receipt: 'true' })))
      .toEqual({ open: 'id-1', missing_receipt: 'true' });
  });

  it('names the applied view and says when the filters drifted', () => {
    const views = [view({ status: 'paid' })];
    expect(appliedOf('bills', views, 'v1', { status: 'paid' })).toMatchObject({ modified: false });
    expect(appliedOf('bills', views, 'v1', { status: 'paid', q: 'acme' })).toMatchObject({ modified: true });
    expect(appliedOf('bills', views, 'gone', { status: 'paid' })).toBeNull();
    expect(sameViewState({ a: '1', b: '2' }, { b: '2', a: '1' })).toBe(true);
  });
});
