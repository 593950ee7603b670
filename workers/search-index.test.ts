import { describe, expect, it } from 'vitest';
import { queryTerms } from '../schema/transaction-query.ts';
import { gramCode, matchesText, SearchIndex } from './search-index.ts';

/** Slots marked for `q` (the index's answer), in slot order. */
function marked(index: SearchIndex, q: string, size: number): number[] {
  const marks = new Uint32Array(size);
  index.mark(queryTerms(q), marks, 1);
  return [...marks.keys()].filter((slot) => marks[slot] === 1);
}

const TEXTS = [
  'Starbucks Coffee Ada', 'Uber Eats lunch', "Conan O'Brien Travel", 'Delta Air Lines travel', 'Éclair Café',
  '東京タワー 売店', '東京駅 弁当', 'Ресторан Пушкин', 'aaaa bbbb aaaa',
];
const QUERIES = ['bucks', 'star ada', 'e', 'ub', 'travel', "o'brien", 'écl', 'zzz', 'lunch uber', '東京タ', '東京', '京駅 弁当', 'пушк', 'aaa', 'bbb'];

/** The reference answer: every term a substring of one of the text's tokens. */
function expected(texts: readonly (string | undefined)[], q: string): number[] {
  const terms = queryTerms(q);
  return texts.flatMap((t, slot) => (t !== undefined && matchesText(t, terms) ? [slot] : []));
}

describe('gramCode', () => {
  it('is exact (≥ 0, distinct) for characters below U+0400 and a negative hash above', () => {
    const latin = ['abc', 'abd', 'bac', 'éçà', 'ϿϿϿ', '\u0000\u0000\u0000'].map((t) => gramCode(t, 0));
    expect(new Set(latin).size).toBe(latin.length);
    for (const code of latin) expect(code).toBeGreaterThanOrEqual(0);
    expect(gramCode('ϿϿϿ', 0)).toBe(2 ** 30 - 1);
    expect(gramCode('пуш', 0)).toBeLessThan(0);
    expect(gramCode('東京タ', 0)).toBeLessThan(0);
    expect(gramCode('ab東', 0)).toBeLessThan(0);
    expect(gramCode('xx東京タ', 2)).toBe(gramCode('東京タ', 0));
  });
});

describe('SearchIndex answers the same before, during and after indexing', () => {
  it.each(QUERIES)('%s', (q) => {
    const index = new SearchIndex();
    TEXTS.forEach((t, slot) => index.set(slot, t));
    // Nothing tokenized yet (set defers it): every row is verified directly.
    expect(marked(index, q, TEXTS.length)).toEqual(expected(TEXTS, q));
    index.indexSome(2);
    expect(marked(index, q, TEXTS.length)).toEqual(expected(TEXTS, q));
    index.indexSome(100);
    expect(index.backlog).toBe(0);
    expect(marked(index, q, TEXTS.length)).toEqual(expected(TEXTS, q));
  });

  it('follows a changed text and a removed row, indexed or not', () => {
    const index = new SearchIndex();
    TEXTS.forEach((t, slot) => index.set(slot, t));
    index.indexSome(100);
    const now: (string | undefined)[] = [...TEXTS];
    index.set(0, (now[0] = 'Blue Bottle Coffee'));
    index.remove(1);
    now[1] = undefined;
    // A slot beyond every tokenized one, set last: the 1-2 character scan must reach it.
    index.set(7, (now[7] = 'Uber'));
    for (const q of ['bucks', 'bottle', 'ub', 'e', 'uber']) expect(marked(index, q, 8), q).toEqual(expected(now, q));
    index.indexSome(100);
    for (const q of ['bucks', 'bottle', 'ub', 'e', 'uber']) expect(marked(index, q, 8), q).toEqual(expected(now, q));
  });
});
