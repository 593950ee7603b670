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

describe('SearchIndex under random changes (issue 33: token postings with garbage and compaction)', () => {
  it('answers as the reference through sets, re-sets, removals and slot reuse, indexed or not', () => {
    let seed = 7;
    const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const WORDS = ['starbucks', 'uber', 'lunch', 'travel', 'delta', 'air', 'éclair', 'café', '東京駅', 'пушкин', 'conan', "o'brien", 'meals', 'team'];
    const text = () => Array.from({ length: 1 + Math.floor(rand() * 4) }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
    const index = new SearchIndex();
    const now: (string | undefined)[] = [];
    const SLOTS = 300;
    for (let step = 0; step < 3000; step++) {
      const slot = Math.floor(rand() * SLOTS);
      if (rand() < 0.2) {
        index.remove(slot);
        now[slot] = undefined;
      } else index.set(slot, (now[slot] = text()));
      if (rand() < 0.3) index.indexSome(Math.floor(rand() * 50));
      if (step % 250 === 0) {
        for (const q of ['uber', 'ta', 'star lunch', 'é', '東京', 'o\'b', 'air delta', 'zzz']) {
          expect(marked(index, q, SLOTS), `${q} at ${step}`).toEqual(expected(now, q));
        }
      }
    }
    index.indexSome(SLOTS);
    for (const q of ['uber', 'ta', 'star lunch', 'é', '東京', 'пуш', 'air delta', 'meals team']) expect(marked(index, q, SLOTS), q).toEqual(expected(now, q));
    // Words are interned once, whatever the number of rows naming them.
    expect(index.vocabularySize).toBeLessThanOrEqual(WORDS.length + 1);
  });

  it('returns each matching slot once, the same as it marks', () => {
    const index = new SearchIndex();
    TEXTS.forEach((t, slot) => index.set(slot, t));
    index.indexSome(100);
    // Slot 2 loses and regains "travel": its posting list then holds it twice.
    index.set(2, 'Conan');
    index.indexSome(100);
    index.set(2, "Conan O'Brien Travel");
    index.indexSome(100);
    const marks = new Uint32Array(TEXTS.length);
    const slots = [...index.mark(['travel'], marks, 5)].sort((a, b) => a - b);
    expect(slots).toEqual(expected(TEXTS, 'travel'));
    expect(slots).toEqual([...marks.keys()].filter((s) => marks[s] === 5));
  });
});
