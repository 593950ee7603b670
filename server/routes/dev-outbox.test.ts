/**
 * The development mailbox hands out sign-in links and codes, so it is off unless switched on
 * (LEDGERLINE_DEV_OUTBOX=1 → createApp({devOutbox: true})), and even then answers only on a
 * loopback listener. Off, nothing is stored (codes must not sit in the database in plain text).
 */
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn } from '../test-fixtures.ts';

const outboxPath = (email: string) => `/v1/public/dev/outbox?email=${encodeURIComponent(email)}`;
const storedFor = async (db: { query: <T>(sql: string, p: unknown[]) => Promise<T[]> }, email: string) =>
  (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM dev_outbox WHERE lower(recipient) = $1', [email]))[0]!.n;
/** An in-process request as if it arrived on a listener bound to `localAddress`. */
const onListener = (app: { request: (p: string, i: RequestInit, env: unknown) => Response | Promise<Response> }, path: string, localAddress: string) =>
  app.request(path, { method: 'GET' }, { incoming: { socket: { localAddress, remoteAddress: localAddress } } });

/** Mail that carries a secret: a sign-in link and a one-time code. */
async function sendSecrets(app: Parameters<typeof request>[0], email: string, token: string) {
  expect((await request(app, 'POST', '/v1/public/passwordless/send', { body: { email } })).status).toBe(204);
  expect((await request(app, 'POST', '/v1/auth/users/current/send-email-otp', { token, body: {} })).status).toBe(200);
}

describe.each(await testDatabases())('dev outbox switched off (the default) on %s', (kind) => {
  const t = useTestApp(kind);

  it('answers 404 like an unknown path and stores no mail', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const email = f.email('owner');
    await sendSecrets(t.app, email, await signIn(t.app, email));
    const res = await request(t.app, 'GET', outboxPath(email));
    const unknown = await request(t.app, 'GET', '/v1/public/no-such-path');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(unknown.body);
    expect(await storedFor(t.db, email)).toBe(0);
    // Even NODE_ENV (which npm start leaves unset) does not switch it on.
    const saved = process.env.NODE_ENV;
    process.env.NODE_ENV = 'development';
    try {
      expect((await request(t.app, 'GET', outboxPath(email))).status).toBe(404);
    } finally {
      process.env.NODE_ENV = saved;
    }
  });
});

describe.each(await testDatabases())('dev outbox switched on on %s', (kind) => {
  const t = useTestApp(kind, { devOutbox: true });

  it('is readable on loopback (and in-process), under any spelling of the address', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const email = f.email('owner');
    await sendSecrets(t.app, email, await signIn(t.app, email));
    const res = await request(t.app, 'GET', outboxPath(email.toUpperCase()));
    expect(res.status).toBe(200);
    expect(res.body.messages.map((m: { subject: string }) => m.subject)).toEqual([
      'Your Ledgerline verification code', 'Your Ledgerline sign-in link',
    ]);
    for (const local of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) {
      expect((await onListener(t.app, outboxPath(email), local)).status).toBe(200);
    }
  });

  it('answers 404 on a listener that is not loopback', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const email = f.email('owner');
    await sendSecrets(t.app, email, await signIn(t.app, email));
    for (const local of ['10.0.0.5', '192.168.1.20', '::ffff:10.0.0.5', '2001:db8::1']) {
      const res = await onListener(t.app, outboxPath(email), local);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error_v2: expect.objectContaining({ error_code: 'REQUEST_7004' }) });
    }
  });
});
