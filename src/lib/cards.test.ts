import { describe, expect, it } from 'vitest';
import { cardName, lastFourText } from './cards.ts';

describe('card names', () => {
  it('names a card by its name and last four, or its name alone before a number is assigned', () => {
    expect(cardName({ display_name: 'Travel', last_four: '1234' })).toBe('Travel ••1234');
    expect(cardName({ display_name: 'Travel', last_four: null })).toBe('Travel');
    expect(lastFourText({ last_four: '0042' })).toBe('••0042');
    expect(lastFourText({ last_four: null })).toBeNull();
  });
});
