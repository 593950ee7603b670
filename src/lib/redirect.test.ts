import { describe, expect, it } from 'vitest';
import { HOME_PATH, safeRedirect } from './redirect.ts';

describe('safeRedirect', () => {
  it.each([
    [undefined, HOME_PATH],
    ['', HOME_PATH],
    ['/transactions?q=uber', '/transactions?q=uber'],
    ['https://evil.test/', HOME_PATH],
    ['//evil.test/x', HOME_PATH],
    ['/\\evil.test', HOME_PATH],
    ['javascript:alert(1)', HOME_PATH],
    ['/sign-in?redirect=/x', HOME_PATH],
  ])('%j → %j', (input, expected) => {
    expect(safeRedirect(input)).toBe(expected);
  });
});
