import { describe, expect, it } from 'vitest';
import { badgeText, bellLabel, chunkIds, dayLabel, groupByDay, relativeTime, safePath } from './notification-words.ts';

const day = (ms: number) => `day ${new Date(ms).getDate()}`;
// Local times (the words are about the viewer's calendar days), whatever the machine's zone.
const at = (d: number, h: number, m = 0) => new Date(2026, 10, d, h, m).toISOString();
const NOW = new Date(2026, 10, 29, 18, 30).getTime();

describe('badge and the bell’s name', () => {
  it.each([
    [0, '', 'Notifications'],
    [1, '1', 'Notifications, 1 unread'],
    [3, '3', 'Notifications, 3 unread'],
    [99, '99', 'Notifications, 99 unread'],
    [100, '99+', 'Notifications, 99+ unread'],
    [12_345, '99+', 'Notifications, 99+ unread'],
  ])('%i unread → badge "%s", name "%s"', (n, badge, name) => {
    expect(badgeText(n)).toBe(badge);
    expect(bellLabel(n)).toBe(name);
  });
});

describe('relativeTime', () => {
  it.each([
    [at(29, 18, 30), 'just now'],
    [at(29, 18, 25), '5 min ago'],
    [at(29, 15, 20), '3 h ago'],
    [at(28, 9, 0), 'yesterday'],
    [at(25, 12, 0), '4 days ago'],
    [at(12, 12, 0), 'day 12'],
  ])('%s → %s', (when, words) => {
    expect(relativeTime(when, NOW, day)).toBe(words);
  });
});

describe('groupByDay', () => {
  it('groups newest-first rows by local day, in order, named Today / Yesterday / the day', () => {
    const rows = [at(29, 18), at(29, 0, 5), at(28, 23, 59), at(28, 1), at(20, 12)].map((created_at, i) => ({ id: String(i), created_at }));
    const groups = groupByDay(rows, NOW, day);
    expect(groups.map((g) => [g.label, g.rows.map((r) => r.id)])).toEqual([
      ['Today', ['0', '1']],
      ['Yesterday', ['2', '3']],
      ['day 20', ['4']],
    ]);
  });

  it('an empty list has no group', () => {
    expect(groupByDay([], NOW, day)).toEqual([]);
  });

  it('a time a few minutes into the future (a clock ahead) is still today', () => {
    expect(dayLabel(at(29, 18, 40), NOW, day)).toBe('Today');
  });
});

describe('chunkIds', () => {
  const ids = (n: number) => Array.from({ length: n }, (_, i) => `id-${i}`);
  it.each([
    [0, 500, []],
    [1, 500, [1]],
    [500, 500, [500]],
    [501, 500, [500, 1]],
    [1201, 500, [500, 500, 201]],
  ])('%i ids in chunks of %i → sizes %j', (n, size, sizes) => {
    const chunks = chunkIds(ids(n), size);
    expect(chunks.map((c) => c.length)).toEqual(sizes);
    expect(chunks.flat()).toEqual(ids(n));
  });

  it('drops duplicates and refuses a size below one', () => {
    expect(chunkIds(['a', 'b', 'a'], 2)).toEqual([['a', 'b']]);
    expect(() => chunkIds(['a'], 0)).toThrow();
  });
});

describe('safePath', () => {
  it.each([
    ['/approvals?open=1', '/approvals?open=1'],
    ['/transactions', '/transactions'],
    ['//evil.example/x', '/notifications'],
    ['/\\evil.example', '/notifications'],
    ['https://evil.example', '/notifications'],
    ['/\t/evil.example/x', '/notifications'],
    ['/\n/evil.example', '/notifications'],
    ['javascript:alert(1)', '/notifications'],
    ['/bills?open=2#x', '/bills?open=2#x'],
  ])('%s → %s', (path, to) => {
    expect(safePath(path)).toBe(to);
  });
});
