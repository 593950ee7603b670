import { describe, expect, it } from 'vitest';
import { fitNavEntries, PHONE_NAV_ENTRIES, splitPhoneNav } from './app-layout.tsx';

describe('splitPhoneNav', () => {
  const nav = (n: number) => Array.from({ length: n }, (_, i) => `entry ${i + 1}`);

  it('keeps every entry in the bar while five or fewer fit', () => {
    expect(splitPhoneNav(nav(5))).toEqual({ bar: nav(5), more: [] });
    expect(splitPhoneNav(nav(2))).toEqual({ bar: nav(2), more: [] });
  });

  it('shows the first four and moves the rest into More beyond five (an admin has eight)', () => {
    expect(PHONE_NAV_ENTRIES).toBe(4);
    expect(splitPhoneNav(nav(8))).toEqual({ bar: nav(4), more: ['entry 5', 'entry 6', 'entry 7', 'entry 8'] });
    expect(splitPhoneNav(nav(6)).more).toEqual(['entry 5', 'entry 6']);
  });
});

describe('fitNavEntries (a narrow desktop bar)', () => {
  it('keeps every entry when they all fit, with no room kept for More', () => {
    expect(fitNavEntries([100, 100, 100], 304, 2, 76)).toBe(3);
  });

  it('shows as many as fit beside More, in order', () => {
    // 76 (More) + 2 + 100 + 2 + 100 = 280 ≤ 300; a third would need 382.
    expect(fitNavEntries([100, 100, 100, 100], 300, 2, 76)).toBe(2);
    // One px short of the third.
    expect(fitNavEntries([100, 100, 100, 100], 381, 2, 76)).toBe(2);
    expect(fitNavEntries([100, 100, 100, 100], 382, 2, 76)).toBe(3);
  });

  it('never leaves the bar with only More', () => {
    expect(fitNavEntries([200, 100], 150, 2, 76)).toBe(1);
  });
});
