import { describe, expect, it } from 'vitest';
import { unsyncedQuestion } from './sign-out-text.ts';

describe('unsyncedQuestion', () => {
  it.each([
    [1, "1 change hasn't synced. Sign out anyway?"],
    [3, "3 changes haven't synced. Sign out anyway?"],
  ])('%i', (n, text) => expect(unsyncedQuestion(n)).toBe(text));
});
