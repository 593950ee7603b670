import { describe, expect, it } from 'vitest';
import { commentsHeading, initials, isSystemComment, relativeTime, sendRefusalText } from './comment-words.ts';

const NOW = Date.parse('2026-11-29T18:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const MIN = 60_000;

describe('comment words', () => {
  it.each([
    [ago(10_000), 'just now'],
    [ago(5 * MIN), '5 minutes ago'],
    [ago(3 * 60 * MIN), '3 hours ago'],
    [ago(26 * 60 * MIN), 'yesterday'],
    [ago(4 * 24 * 60 * MIN), '4 days ago'],
  ])('relativeTime(%s) → %s', (iso, want) => expect(relativeTime(iso, NOW)).toBe(want));

  it('past a week, the date and time', () => {
    expect(relativeTime('2026-11-01T12:00:00Z', NOW)).toMatch(/Nov 1, 2026/);
  });

  it.each([['Maya Chen', 'MC'], ['Ana de la Cruz', 'AC'], ['cher', 'C'], ['  ', '?']])('initials(%j) → %s', (name, want) => expect(initials(name)).toBe(want));

  it('a workflow’s comment is the system’s', () => {
    expect(isSystemComment({ author_id: null, author_name: 'Workflow: Ask for receipts' })).toBe(true);
    expect(isSystemComment({ author_id: 'u1', author_name: 'Maya Chen' })).toBe(false);
  });

  it.each([
    [null, null, 'Comments'],
    [0, 0, 'Comments'],
    [3, 3, 'Comments (3)'],
    [500, 612, 'Comments (500 of 612)'],
  ])('heading for %s of %s → %s', (shown, total, want) => expect(commentsHeading(shown, total)).toBe(want));
});

describe('sendRefusalText: COMMENT_7002 names who cannot see the item', () => {
  const dan = { id: '11111111-1111-4111-8111-111111111111', name: 'Dan Park' };
  const eve = { id: '22222222-2222-4222-8222-222222222222', name: 'Eve Stone' };
  const base = 'Someone you mentioned cannot see this item.';
  it('the server’s message when it names them', () => {
    const msg = 'Dan Park cannot see this transaction, so they could not read your comment.';
    expect(sendRefusalText({ error_code: 'COMMENT_7002', message: msg }, [dan])).toBe(msg);
  });
  it('its field messages that name them', () => {
    expect(sendRefusalText({ error_code: 'COMMENT_7002', message: base, errors: { 'mention_ids.0': 'Dan Park cannot see this item.' } }, [dan]))
      .toBe(`${base} Dan Park cannot see this item.`);
  });
  it('the people its fields point at, by id or by position', () => {
    expect(sendRefusalText({ error_code: 'COMMENT_7002', message: base, errors: { [`mention_ids.${eve.id}`]: 'cannot see it' } }, [dan, eve]))
      .toBe(`${base} Eve Stone cannot see this item.`);
    expect(sendRefusalText({ error_code: 'COMMENT_7002', message: base, errors: { 'mention_ids.0': 'x', 'mention_ids.1': 'y' } }, [dan, eve]))
      .toBe(`${base} Dan Park and Eve Stone cannot see this item.`);
  });
  it('any other refusal in the catalogue’s words', () => {
    expect(sendRefusalText({ error_code: 'OFFLINE', message: 'You’re offline. Comments need a connection: nothing was sent.' }, [dan]))
      .toBe('You’re offline. Comments need a connection: nothing was sent.');
    expect(sendRefusalText({ error_code: 'COMMENT_7003', message: '' }, [])).toBe('This comment id is already used for another comment.');
  });
});
