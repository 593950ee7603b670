import { describe, expect, it } from 'vitest';
import { PROBE_PATH, probeServer, reportingTransport, type ServerReach } from './reachability.ts';
import type { Transport } from './ports.ts';
import { jsonResponse } from './testing.ts';

const URL_ = 'http://api.test/v1/auth/sync/feed';
const portalPage = () => new Response('<html>Sign in to Airport Wi-Fi</html>', { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' } });
const redirectedTo = (url: string) => Object.defineProperties(jsonResponse(200, {}), { redirected: { value: true }, url: { value: url } });

function reporting(answer: () => Promise<Response>) {
  const heard: ServerReach[] = [];
  const transport = reportingTransport(() => answer(), (r) => heard.push(r));
  return { heard, transport };
}

describe('reportingTransport (requests as evidence of reaching the server)', () => {
  it.each<[string, () => Promise<Response>, ServerReach]>([
    ['an API answer, even a refusal', async () => jsonResponse(404, { error_v2: { message: 'x', error_code: 'REQUEST_7004' } }), 'answered'],
    ['an SSE stream', async () => new Response('', { headers: { 'content-type': 'text/event-stream' } }), 'answered'],
    ['no answer (network error)', () => Promise.reject(new TypeError('Failed to fetch')), 'silent'],
    ["a captive portal's sign-in page", async () => portalPage(), 'silent'],
    ['a redirect to another origin', async () => redirectedTo('http://portal.example/login'), 'silent'],
  ])('%s', async (_what, answer, reach) => {
    const { heard, transport } = reporting(answer);
    await transport(URL_).catch(() => undefined);
    expect(heard).toEqual([reach]);
  });

  it('an abort says nothing about the server, and the caller still gets the failure', async () => {
    const ctrl = new AbortController();
    ctrl.abort();
    const { heard, transport } = reporting(() => Promise.reject(new DOMException('aborted', 'AbortError')));
    await expect(transport(URL_, { signal: ctrl.signal })).rejects.toThrow('aborted');
    expect(heard).toEqual([]);
  });
});

describe('probeServer', () => {
  it('asks the bare API path, uncached, and tells answered from silent', async () => {
    const asked: [string, RequestInit | undefined][] = [];
    const up: Transport = async (input, init) => (asked.push([String(input), init]), jsonResponse(404, { error_v2: { message: 'x', error_code: 'REQUEST_7004' } }));
    expect(await probeServer(up, 'http://api.test')).toBe('answered');
    expect(asked).toEqual([[`http://api.test${PROBE_PATH}`, expect.objectContaining({ method: 'GET', cache: 'no-store' })]]);
    expect(await probeServer(async () => portalPage(), 'http://api.test')).toBe('silent');
    expect(await probeServer(() => Promise.reject(new TypeError('Failed to fetch')), 'http://api.test')).toBe('silent');
  });
});
