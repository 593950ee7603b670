import { describe, expect, it } from 'vitest';
import { MAX_MENTIONS } from '../../schema/api/calls-comments.ts';
import { bodySegments, filterPeople, insertMention, mentionIdsIn, mentionQueryAt, pickerOpen } from './comment-mentions.ts';

const maya = { id: 'u-maya', name: 'Maya Chen', email: 'maya@acme.test' };
const dan = { id: 'u-dan', name: 'Dan Park', email: 'dan.park@acme.test' };
const ana = { id: 'u-ana', name: 'Ana', email: 'ana@acme.test' };
const anaLima = { id: 'u-ana-lima', name: 'Ana Lima', email: 'lima@acme.test' };
const people = [maya, dan, ana, anaLima];

describe('mentionQueryAt: the "@…" being typed at the caret', () => {
  it.each([
    ['@', 1, { start: 0, query: '' }],
    ['Hi @ma', 6, { start: 3, query: 'ma' }],
    ['Hi @Maya Ch', 11, { start: 3, query: 'Maya Ch' }],
    ['(@dan', 5, { start: 1, query: 'dan' }],
    ['Hi @ma and more', 6, { start: 3, query: 'ma' }],
  ])('%j at %i → %j', (text, caret, want) => expect(mentionQueryAt(text, caret)).toEqual(want));

  it.each([
    ['no at', 5, 'no "@"'],
    ['mail ana@acme.test', 12, 'an address: a letter before "@"'],
    ['@dan\nnext', 9, 'a new line ends it'],
    ['@ dan', 5, 'a space right after "@"'],
    ['@one two three four', 19, 'more than three words'],
    ['@a@b', 4, 'a second "@"'],
    [`@${'x'.repeat(41)}`, 42, 'too long'],
  ])('%j at %i → null (%s)', (text, caret) => expect(mentionQueryAt(text, caret)).toBeNull());
});

describe('filterPeople', () => {
  it.each([
    ['', ['Ana', 'Ana Lima', 'Dan Park', 'Maya Chen']],
    ['ma', ['Maya Chen']],
    ['ma ch', ['Maya Chen']],
    ['ch', ['Maya Chen']],
    ['ana', ['Ana', 'Ana Lima']],
    ['li', ['Ana Lima']],
    ['dan.p', ['Dan Park']],
    ['zed', []],
  ])('%j → %j', (query, names) => expect(filterPeople(people, query).map((p) => p.name)).toEqual(names));

  it('names that start with the query come first, and at most the limit', () => {
    const many = [{ id: '1', name: 'Bea Park' }, { id: '2', name: 'Park Lee' }, { id: '3', name: 'Parker Ode' }];
    expect(filterPeople(many, 'park').map((p) => p.name)).toEqual(['Park Lee', 'Parker Ode', 'Bea Park']);
    expect(filterPeople(many, 'park', 2)).toHaveLength(2);
  });
});

describe('pickerOpen', () => {
  it.each([
    [null, 3, false],
    [{ start: 0, query: 'ma' }, 1, true],
    [{ start: 0, query: 'zed' }, 0, true],
    [{ start: 0, query: 'zed and' }, 0, false],
    [{ start: 0, query: 'Maya C' }, 1, true],
  ])('%j with %i matches → %s', (q, n, want) => expect(pickerOpen(q, n)).toBe(want));
});

describe('insertMention', () => {
  it('replaces the typed "@query" with "@First Last " and puts the caret after it', () => {
    expect(insertMention('Hi @ma', { start: 3, query: 'ma' }, maya)).toEqual({ text: 'Hi @Maya Chen ', caret: 14 });
  });
  it('keeps what follows, without doubling the space', () => {
    expect(insertMention('Hi @ma please look', { start: 3, query: 'ma' }, maya)).toEqual({ text: 'Hi @Maya Chen please look', caret: 14 });
    expect(insertMention('@d, ok', { start: 0, query: 'd' }, dan)).toEqual({ text: '@Dan Park , ok', caret: 10 });
  });
});

describe('mentionIdsIn: the ids sent as mention_ids', () => {
  it('only the picked people whose "@Name" is still in the text, each once', () => {
    expect(mentionIdsIn('@Maya Chen and @Dan Park, @Maya Chen again', [maya, dan, maya])).toEqual(['u-maya', 'u-dan']);
    expect(mentionIdsIn('@Maya Chen only', [maya, dan])).toEqual(['u-maya']);
    expect(mentionIdsIn('Maya Chen without the at', [maya])).toEqual([]);
  });
  it('a name inside a longer word is not a mention', () => {
    expect(mentionIdsIn('@Anabel', [ana])).toEqual([]);
    expect(mentionIdsIn('@Ana Lima', [ana, anaLima])).toEqual(['u-ana', 'u-ana-lima']);
  });
  it('at most MAX_MENTIONS', () => {
    const crowd = Array.from({ length: MAX_MENTIONS + 5 }, (_, i) => ({ id: `p${i}`, name: `Person ${i}x` }));
    expect(mentionIdsIn(crowd.map((p) => `@${p.name}`).join(' '), crowd)).toHaveLength(MAX_MENTIONS);
  });
});

describe('bodySegments: mentions highlighted in a comment', () => {
  it('cuts out each mentioned "@Name", the longest name first', () => {
    expect(bodySegments('Thanks @Ana Lima and @Ana!', [{ name: 'Ana' }, { name: 'Ana Lima' }])).toEqual([
      { text: 'Thanks ', mention: false },
      { text: '@Ana Lima', mention: true },
      { text: ' and ', mention: false },
      { text: '@Ana', mention: true },
      { text: '!', mention: false },
    ]);
  });
  it('an "@" naming no one mentioned stays plain; special characters in names are literal', () => {
    expect(bodySegments('mail @someone', [{ name: 'Maya Chen' }])).toEqual([{ text: 'mail @someone', mention: false }]);
    expect(bodySegments('@J. (Jo) Doe ok', [{ name: 'J. (Jo) Doe' }])).toEqual([{ text: '@J. (Jo) Doe', mention: true }, { text: ' ok', mention: false }]);
    expect(bodySegments('plain', [])).toEqual([{ text: 'plain', mention: false }]);
  });
});
