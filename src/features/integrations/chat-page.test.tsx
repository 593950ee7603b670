import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ChatConnection } from '../../../schema/api/calls-chat.ts';
import type { DataClient } from '../../data-access/types.ts';
import { ChatConnectionForm } from './chat-connection-form.tsx';
import { ConnectionFacts } from './chat-page.tsx';

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

const CONNECTED: ChatConnection = {
  provider: 'slack', webhook_url_hint: '…AbCd', events: ['approval_waiting', 'rejected'],
  connected_by: { id: '00000000-0000-4000-8000-000000000001', name: 'Ada Admin' }, updated_at: '2026-11-30T10:00:00.000Z',
  last_post: null, posts_waiting: 0,
};

describe('Slack and Teams settings', () => {
  it('shows a connected channel: the masked webhook, what it hears, nothing posted yet', () => {
    const t = text(renderToStaticMarkup(<ConnectionFacts connection={CONNECTED} />));
    expect(t).toContain('Connected');
    expect(t).toContain('…AbCd');
    expect(t).toContain('Approval requests and Rejections');
    expect(t).toContain('Nothing posted yet. Send a test message to check the channel.');
    expect(t).toContain('Nothing waiting');
  });

  it('says when the last post failed, why, and what waits', () => {
    const t = text(renderToStaticMarkup(<ConnectionFacts connection={{
      ...CONNECTED, events: ['rejected'], posts_waiting: 2,
      last_post: { at: '2026-11-30T10:05:00.000Z', ok: false, error: 'Slack answered 404 (no_service). The webhook may have been removed: paste a new one.' },
    }} />));
    expect(t).toContain('Last post failed');
    expect(t).toContain('Slack answered 404 (no_service)');
    expect(t).toContain('2 posts waiting');
    expect(t).not.toContain('Approval requests');
  });

  it('asks for the webhook URL with where to find it, both kinds of post chosen, and Connect', () => {
    const html = renderToStaticMarkup(<ChatConnectionForm client={{} as DataClient} provider="teams" current={null} online onSaved={() => {}} />);
    expect(text(html)).toContain('Incoming webhook URL');
    expect(text(html)).toContain('Workflows');
    expect(html.match(/type="checkbox"[^>]*checked/g)).toHaveLength(2);
    expect(html).toMatch(/<button[^>]*type="submit"[^>]*>.*Connect/);
  });

  it('changing a connection keeps the saved webhook hint and is disabled offline', () => {
    const html = renderToStaticMarkup(<ChatConnectionForm client={{} as DataClient} provider="slack" current={CONNECTED} online={false} onSaved={() => {}} onCancel={() => {}} />);
    expect(text(html)).toContain('saved: …AbCd');
    expect(html).toMatch(/<button[^>]*type="submit"[^>]*disabled/);
    expect(text(html)).toContain('Save changes');
  });
});
