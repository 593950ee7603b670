import { describe, expect, it } from 'vitest';
import type { BusinessChoice, BusinessSessionInfo as SessionInfo } from '../data-access/types.ts';
import { bootSwitchTarget, leftBehindText, switcherEntries, withoutBusinessParam } from './business-switch.ts';

const choice = (id: string, name: string, role: BusinessChoice['role'] = 'BUSINESS_USER'): BusinessChoice => ({ id, name, role, user_id: `u-${id}` });
/** Only the fields these rules read; the rest of a session does not matter to them. */
const session = (current: string, businesses: BusinessChoice[] | undefined) =>
  ({ business: { id: current }, businesses }) as unknown as SessionInfo;

const ALPHA = choice('a', 'Alpha');
const BETA = choice('b', 'Beta', 'BUSINESS_ADMIN');
const VENDOR = choice('v', 'Vendor portal', 'VENDOR_NETWORK_ADMIN');

describe('switcherEntries', () => {
  it('lists the shown businesses with the current one marked', () => {
    expect(switcherEntries(session('b', [ALPHA, BETA, VENDOR]))).toEqual([
      { ...ALPHA, current: false },
      { ...BETA, current: true },
    ]);
  });

  it.each([
    ['signed out', null],
    ['one business', session('a', [ALPHA])],
    ['one business plus a hidden user', session('a', [ALPHA, VENDOR])],
    ['an older stored session without the list', session('a', undefined)],
  ])('is empty with %s', (_, s) => expect(switcherEntries(s)).toEqual([]));
});

describe('bootSwitchTarget', () => {
  const s = session('a', [ALPHA, BETA, VENDOR]);
  it.each([
    ['the tab’s other business', 'b', 'b'],
    ['nothing when the tab shows the session’s business', 'a', null],
    ['nothing without a tab choice', null, null],
    ['nothing for a business the identity is not in', 'zzz', null],
    ['nothing for a hidden spend user', 'v', null],
  ])('%s', (_, tab, expected) => expect(bootSwitchTarget(s, tab)).toBe(expected));
  it('nothing when signed out', () => expect(bootSwitchTarget(null, 'b')).toBeNull());
});

describe('leftBehindText', () => {
  it.each([
    [{ business_name: 'Alpha', changes: 3 }, "3 changes in Alpha haven't synced yet; they'll sync when you switch back"],
    [{ business_name: 'Alpha', changes: 1 }, "1 change in Alpha hasn't synced yet; they'll sync when you switch back"],
    [{ business_name: 'Beta', changes: 12000 }, "12,000 changes in Beta haven't synced yet; they'll sync when you switch back"],
  ])('%j', (left, text) => expect(leftBehindText(left)).toBe(text));
});

describe('withoutBusinessParam', () => {
  it('drops business_id and keeps the rest of the URL', () => {
    expect(withoutBusinessParam('https://app.test/transactions?business_id=b&q=uber#x')).toBe('/transactions?q=uber#x');
  });
  it('leaves a URL without it alone', () => expect(withoutBusinessParam('https://app.test/transactions?q=uber')).toBeNull());
});
