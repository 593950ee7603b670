import { describe, expect, it } from 'vitest';
import { MOBILE_FLAG_MEMORY_MS } from '../../schema/constants.ts';
import { bootPlatform, MOBILE_FLAG_KEY, TAB_BUSINESS_KEY, tabBusinessId } from './platform-boot.ts';

function memory() {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
}

const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)';

describe('bootPlatform', () => {
  it('remembers is_mobile_app for 5 minutes with its timestamp, then forgets it', () => {
    const storage = memory();
    const t0 = 1_000_000;
    expect(bootPlatform({ userAgent: DESKTOP, search: '?is_mobile_app=true', storage, now: t0 })).toBe('mobile');
    expect(storage.getItem(MOBILE_FLAG_KEY)).toBe(String(t0));
    expect(bootPlatform({ userAgent: DESKTOP, search: '', storage, now: t0 + MOBILE_FLAG_MEMORY_MS - 1 })).toBe('mobile');
    expect(bootPlatform({ userAgent: DESKTOP, search: '', storage, now: t0 + MOBILE_FLAG_MEMORY_MS })).toBe('web');
    expect(storage.getItem(MOBILE_FLAG_KEY)).toBeNull();
  });

  it('detects the wrapper from the user agent', () => {
    expect(bootPlatform({ userAgent: IPHONE, search: '', storage: memory(), now: 1 })).toBe('mobile');
    expect(bootPlatform({ userAgent: DESKTOP, search: '', storage: memory(), now: 1 })).toBe('web');
  });
});

describe('tabBusinessId', () => {
  it('takes business_id from the link and keeps it for the tab', () => {
    const storage = memory();
    expect(tabBusinessId('', storage)).toBeNull();
    expect(tabBusinessId('?business_id=b-2', storage)).toBe('b-2');
    expect(storage.getItem(TAB_BUSINESS_KEY)).toBe('b-2');
    expect(tabBusinessId('?other=1', storage)).toBe('b-2');
  });
});
