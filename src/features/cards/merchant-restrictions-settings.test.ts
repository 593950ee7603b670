import { describe, expect, it } from 'vitest';
import { restrictionChange } from './merchant-restrictions-settings.tsx';

describe('restrictionChange (the confirmation’s words)', () => {
  it.each([
    [[], ['Gambling'], 'Every card will be declined at Gambling.'],
    [['Gambling', 'Bars'], ['gambling'], 'Cards can be used at Bars again, where each card allows it.'],
    [['Bars'], ['Gambling'], 'Every card will be declined at Gambling. Cards can be used at Bars again, where each card allows it.'],
  ])('%j → %j', (saved, next, words) => {
    expect(restrictionChange(saved, next)).toBe(words);
  });
});
