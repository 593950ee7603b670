import { describe, expect, it } from 'vitest';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn } from '../test-fixtures.ts';
import { absoluteLink, listeningOrigin, mailOrigin } from './mail-links.ts';

describe('mailOrigin (issue 25 item 8: mailed links are absolute)', () => {
  const env = { HOST: '127.0.0.1', PORT: '8787' };
  it('takes PUBLIC_URL first, as its origin', () => {
    expect(mailOrigin('https://ledgerline.example.com/some/path', { url: 'http://localhost:5173/v1/x' }, env)).toBe('https://ledgerline.example.com');
  });
  it('else the origin of the request that caused the mail when its host is loopback, bound or configured', () => {
    expect(mailOrigin(null, { url: 'http://localhost:5173/v1/public/passwordless/send' }, env)).toBe('http://localhost:5173');
    expect(mailOrigin(null, { url: 'http://127.0.0.1:40123/v1/x' }, env)).toBe('http://127.0.0.1:40123');
    expect(mailOrigin(null, { url: 'http://[::1]:8787/v1/x' }, env)).toBe('http://[::1]:8787');
    expect(mailOrigin(null, { url: 'http://ledger.lan:8787/v1/x' }, { HOST: 'ledger.lan', PORT: '8787' })).toBe('http://ledger.lan:8787');
    expect(mailOrigin(null, { url: 'https://books.example/v1/x' }, { ...env, LEDGERLINE_PASSKEY_ORIGINS: 'https://other.example, https://books.example' }))
      .toBe('https://books.example');
  });
  it('never lets a request name another host for a link in someone else’s mailbox: the listening URL instead', () => {
    expect(mailOrigin(null, { url: 'http://evil.example/v1/public/passwordless/send' }, env)).toBe('http://127.0.0.1:8787');
    expect(mailOrigin(null, { url: 'http://localhost.evil.example/v1/x' }, env)).toBe('http://127.0.0.1:8787');
    expect(mailOrigin(null, { url: 'http://evil.example/v1/x' }, { HOST: '0.0.0.0', PORT: '9000' })).toBe('http://127.0.0.1:9000');
    expect(mailOrigin('not a url', { url: 'http://evil.example/v1/x' }, env)).toBe('http://127.0.0.1:8787');
  });
  it('listens at 127.0.0.1:8787 by default, as main.ts does', () => {
    expect(listeningOrigin({})).toBe('http://127.0.0.1:8787');
    expect(listeningOrigin({ HOST: '::1', PORT: '3000' })).toBe('http://[::1]:3000');
  });
  it('makes a path absolute on the origin', () => {
    expect(absoluteLink('https://l.example', '/invites/abc')).toBe('https://l.example/invites/abc');
    expect(absoluteLink('http://localhost:5173', 'passwordless?token=t')).toBe('http://localhost:5173/passwordless?token=t');
  });
});

const outbox = async (app: Parameters<typeof request>[0], email: string) =>
  (await request<{ messages: { body: string }[] }>(app, 'GET', `/v1/public/dev/outbox?email=${encodeURIComponent(email)}`)).body.messages.map((m) => m.body);

describe.each(await testDatabases())('mailed links on %s', (kind) => {
  const own = listeningOrigin(process.env);
  describe('without PUBLIC_URL', () => {
    const t = useTestApp(kind, { devOutbox: true, sso: { publicUrl: null } });
    it('sign-in links and invites carry the requesting origin, absolute; a foreign Host gets the listening URL', async () => {
      const f = await makeBusiness(t.db, { transactions: 0 });
      const email = f.email('employee');
      expect((await request(t.app, 'POST', 'http://localhost:5173/v1/public/passwordless/send', { body: { email } })).status).toBe(204);
      expect((await outbox(t.app, email))[0]).toMatch(/Sign in to Ledgerline: http:\/\/localhost:5173\/passwordless\?token=[A-Za-z0-9_-]+ /);
      expect((await request(t.app, 'POST', 'http://evil.example/v1/public/passwordless/send', { body: { email } })).status).toBe(204);
      const bodies = await outbox(t.app, email);
      expect(bodies.some((b) => b.includes('evil.example'))).toBe(false);
      expect(bodies.filter((b) => b.includes(`${own}/passwordless?token=`))).toHaveLength(1);

      const admin = await signIn(t.app, f.email('admin'));
      const invitee = `mail-link-${f.businessId.slice(0, 8)}@invite.test`;
      const invited = await request(t.app, 'POST', 'http://127.0.0.1:4321/v1/auth/businesses/users/invite', {
        token: admin, body: { email: invitee, first_name: 'Mail', last_name: 'Link', role: 'BUSINESS_USER' },
      });
      expect(invited.status).toBe(201);
      expect((await outbox(t.app, invitee))[0]).toMatch(/Accept the invite: http:\/\/127\.0\.0\.1:4321\/invites\/[A-Za-z0-9_-]+ /);
    });
  });
  describe('with PUBLIC_URL', () => {
    const t = useTestApp(kind, { devOutbox: true, sso: { publicUrl: 'https://ledgerline.example.com' } });
    it('every link is on PUBLIC_URL, whatever host the request named', async () => {
      const f = await makeBusiness(t.db, { transactions: 0 });
      const email = f.email('manager');
      expect((await request(t.app, 'POST', 'http://localhost:5173/v1/public/passwordless/send', { body: { email } })).status).toBe(204);
      expect((await outbox(t.app, email))[0]).toMatch(/: https:\/\/ledgerline\.example\.com\/passwordless\?token=/);
    });
  });
});
