import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { EntityEvent } from '../../../schema/event-history.ts';
import { EventHistoryView } from './event-history.tsx';
import { deviceWords, eventLine, HISTORY_ABSENT, HISTORY_OFFLINE, valueWords } from './history-words.ts';
import { historyState, mergeNewest, type HistoryRows, type HistoryState } from './use-event-history.ts';

const NOW = Date.parse('2026-11-29T18:00:00Z');
const MINE = '0b5f3c52-4f6e-4a39-9d1e-0d6a4c5f2e11';
const OTHER = '7c1e2a90-1111-4c2b-8a3e-5d2f6a7b8c9d';
const JANE = { kind: 'user' as const, user_id: '00000000-0000-4000-8000-0000000000b1', label: 'Jane Roe' };
const event = (over: Partial<EntityEvent>): EntityEvent => ({
  id: '1', field: 'memo', from: null, to: 'Client dinner', from_label: null, to_label: null, actor: JANE,
  device_id: null, device_name: null, at: '2026-11-29T17:55:00Z', ...over,
});

describe('history words', () => {
  it('says from → to in words: names for ids, amounts in the entity currency, days, statuses, limits', () => {
    expect(eventLine(event({ field: 'gl_account_id', from: 'a', to: 'b', from_label: '6000 Travel', to_label: '6100 Meals' }), 'transaction', 'USD', null))
      .toMatchObject({ who: 'Jane Roe', what: 'changed GL account', from: '6000 Travel', to: '6100 Meals', automated: false });
    expect(eventLine(event({ field: 'amount', from: 1234, to: 120000 }), 'reimbursement', 'EUR', null)).toMatchObject({ from: '€12.34', to: '€1,200.00' });
    expect(eventLine(event({ field: 'amount', from: 500, to: 1500 }), 'bill', 'JPY', null)).toMatchObject({ from: '¥500', to: '¥1,500' });
    expect(eventLine(event({ field: 'due_date', from: '2026-02-01', to: '2026-03-15' }), 'bill', 'USD', null)).toMatchObject({ from: 'Feb 1, 2026', to: 'Mar 15, 2026' });
    expect(eventLine(event({ field: 'status', from: 'PENDING_APPROVAL', to: 'APPROVED' }), 'bill', 'USD', null)).toMatchObject({ what: 'changed Status', from: 'Pending approval', to: 'Approved' });
    expect(eventLine(event({ field: 'memo', from: null, to: 'Client dinner' }), 'transaction', 'USD', null)).toMatchObject({ from: 'None', to: '“Client dinner”' });
    const limit = (amount: number | null) => ({ limit_amount: amount, limit_currency: 'USD', limit_interval: 'MONTHLY', per_transaction_limit: null });
    expect(eventLine(event({ field: 'limit', from: limit(100000), to: limit(250000) }), 'card', 'USD', null)).toMatchObject({ what: 'changed Limit', from: '$1,000.00 per month', to: '$2,500.00 per month' });
    expect(valueWords('receipt_ids', ['r1', 'r2'], null, null)).toBe('2 receipts');
    expect(valueWords('allowed_categories', ['TRAVEL', 'MEALS'], null, null)).toBe('Travel and Meals');
    expect(valueWords('manager_id', '00000000-0000-4000-8000-0000000000b9', null, null)).toBe('A removed item');
    expect(valueWords('memo', 'x'.repeat(120), null, null)).toHaveLength(82);
  });

  it('names the device: this device, another by its name, or another device', () => {
    expect(deviceWords(MINE, 'Chrome on macOS', MINE)).toBe('this device');
    expect(deviceWords(OTHER, 'Chrome on Windows', MINE)).toBe('Chrome on Windows');
    expect(deviceWords(OTHER, null, MINE)).toBe('another device');
    expect(deviceWords(null, null, MINE)).toBeNull();
  });

  it('words a creation by who made it: a person, an import, the system', () => {
    expect(eventLine(event({ field: 'created', to: null }), 'reimbursement', 'USD', null)).toMatchObject({ who: 'Jane Roe', what: 'created this claim', from: null, to: null });
    expect(eventLine(event({ field: 'created', to: null, actor: { kind: 'hris', user_id: null, label: 'HRIS BambooHR' } }), 'user', null, null))
      .toMatchObject({ who: 'HRIS BambooHR', what: 'imported this person', automated: true });
    expect(eventLine(event({ field: 'created', to: null, actor: { kind: 'system', user_id: null, label: 'System' } }), 'transaction', 'USD', null))
      .toMatchObject({ who: 'System', what: 'created this transaction', automated: true });
  });
});

const ready = (events: EntityEvent[], next: string | null = null, older: 'idle' | 'loading' | { error: string } = 'idle'): HistoryState =>
  ({ state: 'ready', older, events, next, currency: 'USD', device: MINE });
const render = (history: HistoryState) => renderToStaticMarkup(<EventHistoryView type="bill" history={history} now={NOW} onOlder={() => {}} onRetry={() => {}} />);
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('EventHistoryView', () => {
  it('lists events newest first with who, from → to, relative time with the exact one, and the device', () => {
    const html = render(ready([
      event({ id: '2', field: 'amount', from: 4200, to: 5000, device_id: OTHER, device_name: 'Chrome on Windows', at: '2026-11-29T17:55:00Z' }),
      event({ id: '1', field: 'created', to: null, device_id: MINE, device_name: 'Firefox on macOS', at: '2026-11-28T09:00:00Z' }),
    ], '1'));
    const t = text(html);
    expect(t).toContain('Jane Roe changed Amount from $42.00 → to $50.00');
    expect(t).toContain('5 minutes ago · from Chrome on Windows');
    expect(t).toContain('Jane Roe created this bill');
    expect(t).toContain('yesterday · from this device');
    expect(t.indexOf('changed Amount')).toBeLessThan(t.indexOf('created this bill'));
    expect(html).toMatch(/<time[^>]*dateTime="2026-11-29T17:55:00Z"[^>]*title="Nov 29, 2026, \d{1,2}:55\s[AP]M"[^>]*tabindex="0"/);
    expect(t).toContain('Show older');
  });

  it('loading, empty, offline, absent and error states say what is going on', () => {
    expect(render({ state: 'loading' })).toContain('Loading history…');
    expect(text(render(ready([])))).toContain('No changes yet.');
    expect(text(render(ready([])))).not.toContain('Show older');
    expect(text(render({ state: 'offline' }))).toContain(HISTORY_OFFLINE);
    expect(text(render({ state: 'absent' }))).toContain(HISTORY_ABSENT);
    const error = render({ state: 'error', message: 'Something went wrong on our side.' });
    expect(error).toContain('role="alert"');
    expect(text(error)).toContain('Try again');
    expect(text(render(ready([event({})]), ))).toContain('History');
    expect(text(render(ready([event({})], '1', { error: 'Older history needs a connection.' })))).toContain('Older history needs a connection.');
  });

  it('reads its state from the connection and the answer', () => {
    expect(historyState(false, null, 'idle')).toEqual({ state: 'offline' });
    expect(historyState(true, null, 'idle')).toEqual({ state: 'loading' });
    expect(historyState(true, { rows: null, error: 'No such bill.', offline: false, absent: true }, 'idle')).toEqual({ state: 'absent' });
    expect(historyState(true, { rows: null, error: 'Boom', offline: false }, 'idle')).toEqual({ state: 'error', message: 'Boom' });
  });
});

describe('mergeNewest', () => {
  const rows = (ids: string[], next: string | null): HistoryRows => ({ events: ids.map((id) => event({ id })), next, currency: 'USD', device: MINE });
  it('keeps the older pages read when the new first page reaches what was shown', () => {
    const shown = rows(['5', '4', '3', '2', '1'], null);
    expect(mergeNewest(shown, rows(['6', '5', '4'], '4')).events.map((e) => e.id)).toEqual(['6', '5', '4', '3', '2', '1']);
    expect(mergeNewest(shown, rows(['6', '5', '4'], '4')).next).toBeNull();
    // Too much happened since: the new page alone, "Show older" from there.
    expect(mergeNewest(shown, rows(['9', '8', '7'], '7'))).toEqual(rows(['9', '8', '7'], '7'));
    expect(mergeNewest(null, rows(['1'], null))).toEqual(rows(['1'], null));
  });
});
