import { describe, expect, it } from 'vitest';
import { colorSchemeFor, parseTheme, readTheme, storeTheme, THEME_KEY } from './theme.ts';

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  };
}

describe('theme', () => {
  it.each([
    ['light', 'light'],
    ['dark', 'dark'],
    ['system', 'system'],
    [null, 'system'],
    ['purple', 'system'],
  ] as const)('parses %s as %s', (raw, choice) => {
    expect(parseTheme(raw)).toBe(choice);
  });

  it('stores a pinned theme and forgets it for "system"', () => {
    const storage = memoryStorage();
    storeTheme(storage, 'dark');
    expect(readTheme(storage)).toBe('dark');
    storeTheme(storage, 'system');
    expect(storage.data.has(THEME_KEY)).toBe(false);
    expect(readTheme(storage)).toBe('system');
  });

  it('follows the system when storage refuses', () => {
    const refusing = { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('denied'); }, removeItem: () => undefined };
    expect(readTheme(refusing)).toBe('system');
    expect(() => storeTheme(refusing, 'dark')).not.toThrow();
  });

  it('tells the browser which schemes the page supports', () => {
    expect(colorSchemeFor('system')).toBe('light dark');
    expect(colorSchemeFor('dark')).toBe('dark');
  });
});
