import { describe, expect, it } from 'vitest';
import { LIMIT_INTERVALS } from '../../schema/entities/card.ts';
import { cardName, cardRequestDescription, INTERVAL_WORDS, lastFourText } from './card-labels.ts';

describe('card words', () => {
  it('name a card by its name and last four, or its name alone before it has a number', () => {
    expect(cardName({ display_name: 'Travel', last_four: '4242' })).toBe('Travel ••4242');
    expect(cardName({ display_name: 'Travel', last_four: null })).toBe('Travel');
    expect(lastFourText({ last_four: '0042' })).toBe('••0042');
    expect(lastFourText({ last_four: null })).toBeNull();
  });

  it('give every limit period words, and a request one line', () => {
    for (const i of LIMIT_INTERVALS) expect(INTERVAL_WORDS[i], i).toMatch(/^(a|in) /);
    expect(cardRequestDescription({ is_physical: true, amount: 200_000, currency: 'USD', interval: 'MONTHLY' })).toBe('Physical card · $2,000.00 a month');
  });
});
