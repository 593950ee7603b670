import { describe, expect, it } from 'vitest';
import { Rng } from './prng.ts';
import { MERCHANTS } from './merchants.ts';
import { LOCATIONS, SPEND_CATEGORY_KEYS } from './reference-data.ts';
import { merchantRegion } from './transactions.ts';

describe('merchantRegion', () => {
  const homes = [...new Set(LOCATIONS.map((l) => l.region))];

  it.each(SPEND_CATEGORY_KEYS)('always lands on a region with %s merchants, from every office', (category) => {
    const rng = new Rng(1, category);
    for (const home of homes) {
      for (let i = 0; i < 400; i++) {
        const region = merchantRegion(rng, category, home);
        expect(MERCHANTS[category][region]?.length ?? 0).toBeGreaterThan(0);
      }
    }
  });

  it('keeps SaaS global and London meals mostly in the UK', () => {
    const rng = new Rng(2);
    expect(merchantRegion(rng, 'software', 'UK')).toBe('GLOBAL');
    const meals = Array.from({ length: 1_000 }, () => merchantRegion(rng, 'meals', 'UK'));
    const uk = meals.filter((r) => r === 'UK').length;
    expect(uk).toBeGreaterThan(750);
    expect(meals.filter((r) => r === 'EU').length).toBe(1_000 - uk);
  });
});
