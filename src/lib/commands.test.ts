import { describe, expect, it } from 'vitest';
import { filterCommands, matchScore, mergeCommands, navCommands, type Command } from './commands.ts';

const cmd = (id: string, label: string, keywords?: string[]): Command => ({ id, label, group: 'Test', keywords, run: () => undefined });

const COMMANDS = [
  ...navCommands([
    { to: '/transactions', label: 'Transactions' },
    { to: '/settings', label: 'Settings' },
  ]),
  cmd('search', 'Search transactions', ['find', 'filter']),
  cmd('code', 'Code selected (3)', ['coding', 'bulk']),
  cmd('theme', 'Toggle theme', ['dark', 'light']),
];
const labels = (query: string) => filterCommands(COMMANDS, query).map((c) => c.label);

describe('matchScore', () => {
  it.each([
    ['Settings', 'set', 0],
    ['Go to Settings', 'sett', 1],
    ['Toggle theme', 'gle', 2],
    ['Toggle theme', 'tgth', 3],
    ['Toggle theme', 'xyz', null],
    ['Anything', '  ', 0],
    ['Go to Settings', 'SETT', 1],
  ])('%s / %s → %s', (text, query, expected) => {
    expect(matchScore(text, query)).toBe(expected);
  });
});

describe('filterCommands', () => {
  it('keeps every command, in order, for an empty query', () => {
    expect(labels('')).toEqual(COMMANDS.map((c) => c.label));
  });

  it('puts the best match first: "sett" is Settings', () => {
    expect(labels('sett')[0]).toBe('Go to Settings');
  });

  it('matches a word start before a substring, before letters in order', () => {
    expect(labels('tra')).toEqual(['Go to Transactions', 'Search transactions']);
    expect(labels('them')).toEqual(['Toggle theme']);
    expect(labels('srch')).toEqual(['Search transactions']);
  });

  it('matches keywords after labels', () => {
    expect(labels('dark')).toEqual(['Toggle theme']);
    expect(labels('bulk')).toEqual(['Code selected (3)']);
  });

  it('finds nothing for a query no command matches', () => {
    expect(labels('qqq')).toEqual([]);
  });
});

describe('mergeCommands', () => {
  it("lets a page's command replace a contributed one with the same id, keeping its place", () => {
    const page = cmd('b', 'B from the page');
    expect(mergeCommands([cmd('a', 'A'), cmd('b', 'B')], [page]).map((c) => c.label)).toEqual(['A', 'B from the page']);
  });
});

describe('navCommands', () => {
  it('makes one "Go to" command per nav entry that navigates there', () => {
    const to: string[] = [];
    const [first] = navCommands([{ to: '/settings', label: 'Settings' }]);
    first!.run({ navigate: (path) => to.push(path) });
    expect(first!.label).toBe('Go to Settings');
    expect(to).toEqual(['/settings']);
  });
});
