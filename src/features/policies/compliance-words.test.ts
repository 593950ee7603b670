import { describe, expect, it } from 'vitest';
import { complianceRate, remindOutcome } from './compliance-words.ts';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';

describe('compliance words', () => {
  it.each([[1, '100%'], [0, '0%'], [0.925, '92.5%'], [2 / 3, '66.7%']])('rate %s → %s', (rate, text) => {
    expect(complianceRate(rate)).toBe(text);
  });

  it('says who was emailed and who was not, by name, in the server’s words', () => {
    const rows = [{ id: A, name: 'Ana Lee' }, { id: B, name: 'Bo Chen' }];
    expect(remindOutcome({ reminded: [{ user_id: A, item_count: 3 }], skipped: [{ user_id: B, code: 'POLICY_7004', message: 'This person was already reminded today.' }] }, rows))
      .toBe('Emailed 1 person (3 items). Not emailed: Bo Chen — This person was already reminded today.');
    expect(remindOutcome({ reminded: [], skipped: [] }, rows)).toBe('No one was emailed.');
  });
});
