import { describe, expect, it } from 'vitest';
import { mediaQueryStore, PHONE_QUERY, type MatchMedia } from './media-query.ts';

function fakeMatchMedia(initial: boolean) {
  let matches = initial;
  const listeners = new Set<() => void>();
  const mm: MatchMedia = () => ({
    get matches() {
      return matches;
    },
    addEventListener: (_: string, l: () => void) => void listeners.add(l),
    removeEventListener: (_: string, l: () => void) => void listeners.delete(l),
  }) as ReturnType<MatchMedia>;
  return {
    mm,
    listeners,
    set(v: boolean) {
      matches = v;
      listeners.forEach((l) => l());
    },
  };
}

describe('mediaQueryStore', () => {
  it('reads the query and notifies on change until unsubscribed', () => {
    const fake = fakeMatchMedia(false);
    const store = mediaQueryStore(PHONE_QUERY, fake.mm);
    expect(store.read()).toBe(false);
    let calls = 0;
    const off = store.subscribe(() => calls++);
    fake.set(true);
    expect(calls).toBe(1);
    expect(store.read()).toBe(true);
    off();
    expect(fake.listeners.size).toBe(0);
  });

  it('is false without matchMedia (server or test environment)', () => {
    const store = mediaQueryStore(PHONE_QUERY, null);
    expect(store.read()).toBe(false);
    expect(() => store.subscribe(() => undefined)()).not.toThrow();
  });

  it('uses the 768 px breakpoint', () => {
    expect(PHONE_QUERY).toBe('(max-width: 767px)');
  });
});
