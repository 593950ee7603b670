import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { NotificationItem, type NotificationRow } from './notification-item.tsx';

const NOW = Date.parse('2026-11-29T18:30:00Z');
const row = (over: Partial<NotificationRow> = {}): NotificationRow => ({
  id: '00000000-0000-4000-8000-000000000001', owner_id: '00000000-0000-4000-8000-000000000002', kind: 'approval_waiting',
  title: 'Maya Chen’s claim is waiting for your approval', body: 'Team lunch · $84.00', subject_type: 'approval', subject_id: null,
  path: '/approvals?open=1', actor_id: null, read_at: null, created_at: '2026-11-29T18:20:00Z', updated_at: '2026-11-29T18:20:00Z',
  pending: null, failure: null, ...over,
} as NotificationRow);
const render = (r: NotificationRow) => renderToStaticMarkup(<NotificationItem row={r} now={NOW} onOpen={() => undefined} />);

describe('NotificationItem', () => {
  it('an unread one says so to assistive tech and shows the dot', () => {
    const html = render(row());
    expect(html).toContain('<span class="sr-only">Unread: </span>');
    expect(html).toContain('data-unread="true"');
    expect(html).toContain('ntf-dot');
    expect(html).toContain('10 min ago');
    expect(html).not.toContain('Waiting to sync');
  });

  it('marked read on this device and not yet confirmed: "Waiting to sync", never synced', () => {
    const html = render(row({ read_at: '2026-11-29T18:29:00Z', pending: 'pending' }));
    expect(html).toContain('Waiting to sync');
    expect(html).not.toContain('Unread: ');
    expect(html).not.toContain('ntf-dot');
  });

  it('a refused mark says it did not sync', () => {
    const html = render(row({ read_at: '2026-11-29T18:29:00Z', pending: 'failed', failure: { command_id: 'c', message: 'Not found.' } }));
    expect(html).toContain('Not synced');
  });

  it('an empty body leaves no empty line', () => {
    expect(render(row({ body: '' }))).not.toContain('ntf-body');
  });
});
