import { createDecipheriv, createECDH, createHmac, createPublicKey, randomBytes, verify } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { notify } from '../domain/notifications/notify.ts';
import { useTestApp } from '../test-app.ts';
import { testDatabases } from '../test-db.ts';
import { makeBusiness, refusal, request, signIn, type Fixture } from '../test-fixtures.ts';
import { deliverDuePushes, type PushDeliveryOptions } from './delivery.ts';

type Hit = { path: string; headers: IncomingHttpHeaders; body: Buffer };

/** A local stand-in for a push service: keeps every request, answers `status`. */
async function startReceiver() {
  const hits: Hit[] = [];
  const state = { status: 201 };
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      hits.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(parts) });
      res.writeHead(state.status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { hits, state, base, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A browser's side of a subscription: its P-256 key pair and auth secret. */
function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return { ecdh, auth, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } };
}

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/** RFC 8291 / RFC 8188 decryption of one aes128gcm record, as the browser does it. */
function decrypt(body: Buffer, ua: ReturnType<typeof browserKeys>): string {
  const salt = body.subarray(0, 16);
  const idlen = body[20]!;
  const asPublic = body.subarray(21, 21 + idlen);
  const secret = ua.ecdh.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), ua.ecdh.getPublicKey(), asPublic, Buffer.from([1])]);
  const ikm = hmac(hmac(ua.auth, secret), keyInfo);
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01', 'binary')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01', 'binary')).subarray(0, 12);
  const record = body.subarray(21 + idlen);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const plain = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  return plain.subarray(0, plain.lastIndexOf(2)).toString('utf8');
}

/** The `Authorization: vapid t=<jwt>, k=<key>` header: the JWT verified with k (ES256), its claims. */
function verifyVapid(header: string, publicKey: string): Record<string, unknown> {
  const m = /^vapid t=([^,]+), k=(.+)$/.exec(header);
  expect(m, header).not.toBeNull();
  expect(m![2]).toBe(publicKey);
  const [h, p, s] = m![1]!.split('.');
  const point = Buffer.from(publicKey, 'base64url');
  const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }, format: 'jwk' });
  expect(verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s!, 'base64url'))).toBe(true);
  expect(JSON.parse(Buffer.from(h!, 'base64url').toString())).toMatchObject({ alg: 'ES256', typ: 'JWT' });
  return JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<string, unknown>;
}

const T = '/v1/auth/notifications/device-token';

describe.each(await testDatabases())('Web Push device tokens on %s', (kind) => {
  const t = useTestApp(kind, { sso: { allowLoopbackHttp: true } });
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  let a: Fixture;
  let b: Fixture;
  let employee: string;
  let manager: string;
  const opts = (): PushDeliveryOptions => ({
    net: { allowLoopbackHttp: true, dnsServer: null }, subject: 'mailto:ops@ledgerline.test', now: () => Date.now() + 5_000, log: () => undefined,
  });
  const register = (token: string, endpoint: string, keys: { p256dh: string; auth: string }, previous?: string) =>
    request(t.app, 'PUT', T, { token, body: { subscription: { endpoint, keys }, ...(previous ? { previous_token: previous } : {}) } });
  const notifyEmployee = (key: string) => t.db.transaction((tx) => notify(tx, a.businessId, [{
    owner_id: a.users.employee, kind: 'rejected', title: 'Your claim was rejected', body: 'Missing receipt', path: '/reimbursements?open=x',
    actor_id: a.users.manager, event_key: key,
  }], new Date().toISOString(), { mail: false }));

  beforeAll(async () => {
    rx = await startReceiver();
    a = await makeBusiness(t.db, { transactions: 0 });
    b = await makeBusiness(t.db, { transactions: 0 });
    employee = await signIn(t.app, a.email('employee'));
    manager = await signIn(t.app, a.email('manager'));
  });
  afterAll(async () => rx.close());
  beforeEach(() => { rx.hits.length = 0; rx.state.status = 201; });

  it('pushes a new notification encrypted for the subscription and signed with the server’s VAPID key', async () => {
    const key = (await request(t.app, 'GET', '/v1/auth/notifications/push-key', { token: employee })).body.public_key as string;
    expect(Buffer.from(key, 'base64url')).toHaveLength(65);
    // One key for every process and restart: asked again, the same.
    expect((await request(t.app, 'GET', '/v1/auth/notifications/push-key', { token: manager })).body.public_key).toBe(key);
    const ua = browserKeys();
    const reg = await register(employee, `${rx.base}/push/emp-1`, ua.keys);
    expect(reg.status, reg.text).toBe(200);
    expect(reg.body).toMatchObject({ token: expect.stringMatching(/^[0-9a-f]{64}$/), last_error: null });

    await notifyEmployee('push-test:1');
    expect(await deliverDuePushes(t.db, opts())).toMatchObject({ sent: 1, failed: 0 });
    expect(rx.hits).toHaveLength(1);
    const hit = rx.hits[0]!;
    expect(hit.path).toBe('/push/emp-1');
    expect(hit.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(hit.headers.ttl)).toBeGreaterThan(0);
    const claims = verifyVapid(String(hit.headers.authorization), key);
    expect(claims).toMatchObject({ aud: rx.base, sub: 'mailto:ops@ledgerline.test' });
    expect(Number(claims.exp)).toBeGreaterThan(Date.now() / 1000);
    expect(hit.body.readUInt32BE(16)).toBe(4096);
    expect(hit.body[20]).toBe(65);
    expect(JSON.parse(decrypt(hit.body, ua))).toMatchObject({ title: 'Your claim was rejected', body: 'Missing receipt', path: '/reimbursements?open=x' });
    // The one who acted is not pushed (not notified), and nothing is left to send.
    expect(await deliverDuePushes(t.db, opts())).toMatchObject({ sent: 0 });
  });

  it('refreshes a token, drops a gone subscription, refuses http endpoints without the switch, and keeps tokens to their owner', async () => {
    const ua = browserKeys();
    const first = await register(employee, `${rx.base}/push/emp-2`, ua.keys);
    const again = await register(employee, `${rx.base}/push/emp-2`, browserKeys().keys);
    expect(again.body.token).toBe(first.body.token);
    const moved = await register(employee, `${rx.base}/push/emp-3`, ua.keys, first.body.token);
    const tokens = await t.db.query<{ token: string }>('SELECT token FROM push_subscriptions WHERE user_id = $1', [a.users.employee]);
    expect(tokens.map((r) => r.token)).not.toContain(first.body.token);
    expect(tokens.map((r) => r.token)).toContain(moved.body.token);

    // Another person (or business) cannot remove it; the owner can, once.
    expect(refusal(await request(t.app, 'DELETE', `${T}/${moved.body.token}`, { token: manager }))).toEqual([404, 'REQUEST_7004']);
    const bAdmin = await signIn(t.app, b.email('admin'));
    expect(refusal(await request(t.app, 'DELETE', `${T}/${moved.body.token}`, { token: bAdmin }))).toEqual([404, 'REQUEST_7004']);
    expect((await request(t.app, 'DELETE', `${T}/${moved.body.token}`, { token: employee })).body).toEqual({ deleted: true });
    expect(refusal(await request(t.app, 'DELETE', `${T}/${moved.body.token}`, { token: employee }))).toEqual([404, 'REQUEST_7004']);

    // A push service answering 410: the subscription is gone and deleted.
    const gone = await register(employee, `${rx.base}/push/emp-4`, ua.keys);
    rx.state.status = 410;
    await notifyEmployee('push-test:2');
    expect(await deliverDuePushes(t.db, opts())).toMatchObject({ dropped: expect.any(Number), sent: 0 });
    expect(await t.db.query('SELECT 1 FROM push_subscriptions WHERE token = $1', [gone.body.token])).toEqual([]);

    expect(refusal(await register(employee, 'ftp://push.example/x', ua.keys))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await request(t.app, 'PUT', T, { token: employee, body: { subscription: { endpoint: `${rx.base}/x`, keys: ua.keys }, extra: 1 } }))).toEqual([422, 'REQUEST_7001']);
  });
});

describe.each(await testDatabases())('Web Push without the loopback switch on %s', (kind) => {
  const t = useTestApp(kind);
  it('refuses an http endpoint, and the outbound door refuses a private address', async () => {
    const a = await makeBusiness(t.db, { transactions: 0 });
    const token = await signIn(t.app, a.email('employee'));
    const keys = browserKeys().keys;
    const res = await request(t.app, 'PUT', T, { token, body: { subscription: { endpoint: 'http://127.0.0.1:9/push', keys } } });
    expect([res.status, res.body.error_v2.errors]).toEqual([422, { 'subscription.endpoint': 'subscription.endpoint must start with https://' }]);
    await request(t.app, 'PUT', T, { token, body: { subscription: { endpoint: 'https://10.0.0.5/push', keys } } });
    await t.db.transaction((tx) => notify(tx, a.businessId, [{
      owner_id: a.users.employee, kind: 'rejected', title: 'Rejected', path: '/reimbursements', actor_id: a.users.manager, event_key: 'k:private',
    }], new Date().toISOString(), { mail: false }));
    const tally = await deliverDuePushes(t.db, { net: { allowLoopbackHttp: false, dnsServer: null }, subject: 'mailto:x@y.test', now: () => Date.now() + 5_000 });
    expect(tally).toMatchObject({ sent: 0, retried: 1 });
    const [sub] = await t.db.query<{ last_error: string }>('SELECT last_error FROM push_subscriptions WHERE business_id = $1', [a.businessId]);
    expect(sub!.last_error).toContain('could not be reached');
  });
});
