import { describe, expect, it } from 'vitest';
import { PHONE_NAV_ENTRIES, splitPhoneNav } from './app-layout.tsx';

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
