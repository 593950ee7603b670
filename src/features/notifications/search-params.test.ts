import { describe, expect, it } from 'vitest';
import { KIND_LABELS } from './notification-words.ts';
import { knownKind, parseNotificationsSearch } from './search-params.ts';

describe('/notifications URL state', () => {
  it.each([
    [{}, {}],
    [{ show: 'unread' }, { show: 'unread' }],
    [{ show: 'all' }, {}],
    [{ show: 'nope', kind: 'mention' }, { kind: 'mention' }],
    [{ kind: 'DROP TABLE' }, {}],
  ])('%j → %j', (raw, parsed) => {
    expect(parseNotificationsSearch(raw)).toEqual(parsed);
  });

  it('a kind the entity does not have filters nothing', () => {
    expect(knownKind('mention', KIND_LABELS)).toBe('mention');
    expect(knownKind('made_up', KIND_LABELS)).toBeUndefined();
    expect(knownKind('constructor', KIND_LABELS)).toBeUndefined();
    expect(knownKind(undefined, KIND_LABELS)).toBeUndefined();
  });
});
