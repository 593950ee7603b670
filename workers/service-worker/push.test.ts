import { describe, expect, it } from 'vitest';
import { pushNotification, safeAppPath } from './push.ts';

describe('service worker push', () => {
  it('shows the pushed notification and keeps its in-app path', () => {
    const shown = pushNotification(JSON.stringify({ title: 'Your claim was rejected', body: 'Missing receipt', path: '/reimbursements?open=1', tag: 'n1' }));
    expect(shown.title).toBe('Your claim was rejected');
    expect(shown.options).toMatchObject({ body: 'Missing receipt', tag: 'n1', data: { path: '/reimbursements?open=1' } });
  });

  it('never opens another site, and says something true for an unreadable push', () => {
    for (const bad of ['https://evil.example/x', '//evil.example/x', '/\\evil.example', 42, null]) expect(safeAppPath(bad)).toBe('/notifications');
    expect(pushNotification('not json')).toMatchObject({ title: 'Ledgerline: you have a new notification', options: { data: { path: '/notifications' } } });
    expect(pushNotification(null).options.body).toBe('');
  });
});
