import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Comment } from '../../workers/api.ts';
import { COMMENTS_OFFLINE, COMPOSER_OFFLINE } from '../lib/comment-words.ts';
import type { ThreadState } from '../lib/use-comment-thread.ts';
import { CommentComposer } from './comment-composer.tsx';
import { CommentThreadView } from './comment-thread.tsx';

const NOW = Date.parse('2026-11-29T18:00:00Z');
const comment = (over: Partial<Comment>): Comment => ({
  id: '00000000-0000-4000-8000-000000000001',
  subject_type: 'transaction',
  subject_id: '00000000-0000-4000-8000-0000000000aa',
  author_id: '00000000-0000-4000-8000-0000000000b1',
  author_name: 'Maya Chen',
  workflow_id: null,
  body: 'Hello',
  mentions: [],
  created_at: '2026-11-29T17:55:00Z',
  can_delete: false,
  ...over,
});
const mine = comment({ id: '00000000-0000-4000-8000-000000000002', body: 'Can you check this, @Dan Park?', can_delete: true, created_at: '2026-11-29T17:57:00Z',
  mentions: [{ user_id: '00000000-0000-4000-8000-0000000000b2', name: 'Dan Park' }] });
const robot = comment({ id: '00000000-0000-4000-8000-000000000003', author_id: null, author_name: 'Workflow: Ask for receipts', workflow_id: '00000000-0000-4000-8000-0000000000c1', body: 'Please add a receipt.', created_at: '2026-11-29T15:00:00Z' });

const render = (thread: ThreadState, online = true) => renderToStaticMarkup(
  <CommentThreadView thread={thread} now={NOW} onDelete={async () => null} onRetry={() => {}}
    composer={<CommentComposer people={[]} disabledReason={online ? null : COMPOSER_OFFLINE} onSend={async () => null} />} />,
);
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('CommentThreadView states', () => {
  it('loading: a skeleton (no spinner) and words for assistive tech', () => {
    const html = render({ state: 'loading' });
    expect(html).toContain('aria-busy="true"');
    expect(html).toContain('class="skeleton');
    expect(html).toContain('Loading comments…');
    expect(html).not.toContain('spinner');
    expect(text(html)).toContain('Comments');
  });

  it('ready: oldest first as answered, initials, the full time as a title, mentions marked, Delete only where allowed', () => {
    const html = render({ state: 'ready', comments: [comment({}), mine, robot], total: 3 });
    expect(text(html)).toContain('Comments (3)');
    const order = ['Hello', 'Can you check this', 'Please add a receipt.'].map((s) => html.indexOf(s));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(html).toContain('>MC</span>');
    expect(html).toContain('<mark class="comment-mention">@Dan Park</mark>');
    expect(html).toMatch(/<time[^>]*dateTime="2026-11-29T17:55:00Z"[^>]*title="Nov 29, 2026[^"]*"[^>]*>5 minutes ago<\/time>/);
    expect(html.match(/>Delete</g)).toHaveLength(1);
    expect(html).toMatch(/<li class="comment comment-system">.*Workflow: Ask for receipts/);
  });

  it('ready and empty: says so, with the composer', () => {
    const html = render({ state: 'ready', comments: [], total: 0 });
    expect(html).toContain('No comments yet.');
    expect(html).toContain('Write a comment');
  });

  it('more than the thread answers: the heading says how many there are', () => {
    expect(text(render({ state: 'ready', comments: [comment({})], total: 612 }))).toContain('Comments (1 of 612)');
  });

  it('offline before it was read: the offline words, nothing shown as current, the composer waits with the reason', () => {
    const html = render({ state: 'offline', kept: null }, false);
    expect(html).toContain(COMMENTS_OFFLINE);
    expect(html).not.toContain('No comments yet');
    expect(html).toMatch(/<textarea[^>]*disabled=""/);
    expect(html).toContain(COMPOSER_OFFLINE);
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>Send<\/button>/);
  });

  it('offline after it was read in this session: what it had, said to be from then, and no Delete', () => {
    const html = render({ state: 'offline', kept: { comments: [mine], total: 1 } }, false);
    expect(html).toContain(COMMENTS_OFFLINE);
    expect(html).toContain('as they were when you last had a connection');
    expect(html).toContain('Can you check this');
    expect(html).not.toContain('>Delete<');
  });

  it('refused: the server’s words and Try again', () => {
    const html = render({ state: 'error', message: 'This item was not found.', kept: null });
    expect(html).toContain('role="alert"');
    expect(text(html)).toContain('The comments could not be read: This item was not found.');
    expect(text(html)).toContain('Try again');
  });
});

describe('CommentComposer', () => {
  it('online: a labelled textarea (a list-autocomplete for @), the keys, Send disabled until there is text', () => {
    const html = renderToStaticMarkup(<CommentComposer people={[]} disabledReason={null} onSend={async () => null} />);
    expect(html).toMatch(/<label class="sr-only" for="([^"]+)">Write a comment<\/label>/);
    expect(html).toContain('aria-autocomplete="list"');
    expect(html).not.toContain('aria-expanded');
    expect(html).toContain('Type @ to mention someone.');
    expect(html).toContain('+Enter sends.');
    expect(html).toMatch(/<button[^>]*type="button"[^>]*disabled=""[^>]*>Send<\/button>/);
    expect(html).not.toMatch(/<textarea[^>]*disabled/);
  });
});
