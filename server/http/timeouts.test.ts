/**
 * A slow client cannot hold a connection (issue 24), over a real socket (serve.ts listen): headers
 * sent one byte at a time are cut off by the headers timeout, a body that stalls answers 408
 * TIMEOUT (error_v2) and closes, a body dripped slower than the whole-request timeout is cut off;
 * meanwhile normal requests are answered as usual. Short timeouts come through listen's options.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorV2Schema } from '../../schema/errors.ts';
import { listen, type RunningServer } from '../serve.ts';
import { TEST_TOKEN_SECRET } from '../test-app.ts';
import { openTestDb, testDatabases, type TestDb } from '../test-db.ts';
import { DEFAULT_TIMEOUTS, resolveTimeouts, TIMEOUT_ENV } from './timeouts.ts';

const TIMEOUTS = { headersMs: 1_500, requestMs: 4_000, keepAliveMs: 1_000, bodyIdleMs: 1_000 };

type Conversation = { socket: Socket; received: () => string; closedAfterMs: Promise<number> };

/** A raw connection: what the server sends is collected; closedAfterMs resolves when it hangs up. */
function open(port: number): Promise<Conversation> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let data = '';
    const socket = connect(port, '127.0.0.1', () => {
      resolve({ socket, received: () => data, closedAfterMs });
    });
    socket.on('data', (chunk) => (data += chunk.toString('utf8')));
    socket.on('error', () => {});
    const closedAfterMs = new Promise<number>((done) => socket.on('close', () => done(Date.now() - started)));
    socket.once('error', reject);
  });
}

/** Writes `text` one character every `everyMs`, until the socket closes or the text ends. */
async function drip(socket: Socket, text: string, everyMs: number): Promise<void> {
  for (const ch of text) {
    if (socket.destroyed || !socket.writable) return;
    socket.write(ch);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** The status and error_v2 of a raw HTTP answer. */
function answerOf(raw: string): { status: number; code: string | undefined } {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0);
  const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
  const parsed = errorV2Schema.safeParse(JSON.parse(body || 'null'));
  return { status, code: parsed.success ? parsed.data.error_v2.error_code : undefined };
}

describe('timeout settings', () => {
  it('reads LEDGERLINE_*_TIMEOUT_MS, lets options override, refuses nonsense and a headers timeout past the request one', () => {
    expect(resolveTimeouts({}, {})).toEqual(DEFAULT_TIMEOUTS);
    expect(resolveTimeouts({ bodyIdleMs: 5 }, { [TIMEOUT_ENV.headersMs]: '2000' })).toMatchObject({ headersMs: 2_000, bodyIdleMs: 5 });
    expect(() => resolveTimeouts({}, { [TIMEOUT_ENV.bodyIdleMs]: 'soon' })).toThrow(TIMEOUT_ENV.bodyIdleMs);
    expect(() => resolveTimeouts({ headersMs: 10, requestMs: 5 }, {})).toThrow(TIMEOUT_ENV.headersMs);
  });
});

describe.each(await testDatabases())('slow clients on %s', (kind) => {
  let store: TestDb;
  let server: RunningServer;
  beforeAll(async () => {
    store = await openTestDb(kind);
    server = await listen({ db: store.db, tokenSecret: TEST_TOKEN_SECRET, host: '127.0.0.1', port: 0, timeouts: TIMEOUTS });
  });
  afterAll(async () => {
    await server?.close();
    await store?.close();
  });
  const normalRequest = async () => (await fetch(`${server.url}/v1/public/config`)).status;

  it('cuts off headers sent one byte at a time within the headers timeout, while other requests are served', async () => {
    const slow = await open(server.port);
    const dripping = drip(slow.socket, `GET /v1/public/config HTTP/1.1\r\nHost: x\r\nX-Slow: ${'a'.repeat(100)}`, 250);
    // Meanwhile a normal client is served at once.
    expect(await normalRequest()).toBe(200);
    const closedAfter = await slow.closedAfterMs;
    await dripping;
    // Cut off after the headers timeout, checked once a second: well before the drip would end (~28 s).
    expect(closedAfter).toBeGreaterThanOrEqual(TIMEOUTS.headersMs - 100);
    expect(closedAfter).toBeLessThan(TIMEOUTS.headersMs + 2_000);
    expect(answerOf(slow.received())).toEqual({ status: 408, code: 'TIMEOUT' });
    expect(await normalRequest()).toBe(200);
  });

  it('answers a body that stalls with 408 TIMEOUT and closes the connection', async () => {
    const slow = await open(server.port);
    slow.socket.write('POST /v1/public/sign-in HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":');
    expect(await normalRequest()).toBe(200);
    const closedAfter = await slow.closedAfterMs;
    expect(closedAfter).toBeLessThan(TIMEOUTS.bodyIdleMs + 2_000);
    expect(answerOf(slow.received())).toEqual({ status: 408, code: 'TIMEOUT' });
  });

  it('cuts off a body dripped slower than the whole-request timeout, though each byte comes in time', async () => {
    const slow = await open(server.port);
    slow.socket.write('POST /v1/public/sign-in HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n');
    const dripping = drip(slow.socket, `{"email":"${'a'.repeat(990)}`, 400);
    expect(await normalRequest()).toBe(200);
    const closedAfter = await slow.closedAfterMs;
    await dripping;
    expect(closedAfter).toBeGreaterThanOrEqual(TIMEOUTS.requestMs - 100);
    expect(closedAfter).toBeLessThan(TIMEOUTS.requestMs + 2_000);
    expect(answerOf(slow.received()).status).toBe(408);
    expect(await normalRequest()).toBe(200);
  });
});
