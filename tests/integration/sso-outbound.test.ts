import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app.ts';
import { resolveSsoSettings } from '../../server/auth/sso/settings.ts';
import { addressVerdict } from '../../server/core/outbound-address.ts';
import { outboundFetch, OutboundRefused, OUTBOUND_REFUSED_MESSAGE, type OutboundOptions } from '../../server/core/outbound-fetch.ts';
import { TEST_TOKEN_SECRET, useTestApp } from '../../server/test-app.ts';
import { testDatabases } from '../../server/test-db.ts';
import { makeBusiness, request, signIn } from '../../server/test-fixtures.ts';
import { startDnsServer } from '../support/dns-server.ts';
import { startSamlIdp } from '../support/saml-idp.ts';

/**
 * Issue 24, items 3 and 4: server-side fetches cannot reach inside (the SSRF matrix: every
 * address family and spelling, names that resolve inside through the test DNS server, redirects
 * to inside), every refusal in the same words; SSO_ALLOW_LOOPBACK_HTTP is off unless asked for;
 * a slow identity provider holds no transaction, so it cannot delay another tenant; provider
 * changes are limited per business.
 */

/** A TCP listener on every local address (IPv4 and IPv6) that counts the connections it gets. */
let listener: TcpServer;
let hits = 0;
let port = 0;
const dns = await startDnsServer();

/** This machine's own non-loopback addresses (private, documentation, ULA, link-local here): a connection to them reaches `listener`. */
const ownAddresses = Object.values(networkInterfaces()).flat().filter((a) => a && !a.internal).map((a) => a!.address);

beforeAll(async () => {
  listener = createTcpServer((socket) => {
    hits++;
    socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok');
  });
  await new Promise<void>((r) => listener.listen(0, '::', r));
  port = (listener.address() as AddressInfo).port;
  dns.setAddresses('inside.test', ['127.0.0.1']);
  dns.setAddresses('inside6.test', ['::1']);
  dns.setAddresses('mapped.test', ['::ffff:127.0.0.1']);
  dns.setAddresses('mixed.test', ['93.184.215.14', '127.0.0.1']);
  dns.setAddresses('meta.test', ['169.254.169.254']);
  for (const [i, a] of ownAddresses.entries()) dns.setAddresses(`own${i}.test`, [a.split('%')[0]!]);
});
afterAll(async () => {
  await new Promise((r) => listener.close(r));
  await dns.close();
});

const off: OutboundOptions = { allowLoopbackHttp: false, dnsServer: dns.server, timeoutMs: 1500 };
const on: OutboundOptions = { ...off, allowLoopbackHttp: true };

/** The refusal's words with the URL taken out: one message for all. */
async function refusal(url: string, opts: OutboundOptions): Promise<string> {
  try {
    await outboundFetch(url, {}, opts);
    return 'fetched';
  } catch (err) {
    if (!(err instanceof OutboundRefused)) return `other: ${String(err)}`;
    return err.message.replace(url, '<url>');
  }
}
const GENERIC = `<url> ${OUTBOUND_REFUSED_MESSAGE}`;

describe('outbound fetches cannot reach inside', () => {
  const spellings = () => {
    const own = ownAddresses.map((a) => (a.includes(':') ? `[${a.replace('%', '%25')}]` : a));
    return [
      // IPv4 loopback, every spelling the URL parser accepts
      '127.0.0.1', '127.0.0.2', '2130706433', '0x7f000001', '0177.0.0.1', '127.1', '0x7f.1', '0177.1', '127.0.1', '0x7F.0.0.1',
      // unspecified (Linux connects 0.0.0.0 to this host)
      '0.0.0.0', '0', '[::]',
      // IPv6 loopback and IPv4-mapped / -compatible / NAT64 forms of loopback and private addresses
      '[::1]', '[0:0:0:0:0:0:0:1]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[0:0:0:0:0:ffff:7f00:1]', '[::127.0.0.1]',
      '[64:ff9b::127.0.0.1]', '[64:ff9b::7f00:1]', '[64:ff9b::10.0.0.1]', '[64:ff9b:1::a00:1]', '[2002:7f00:1::]',
      // private, CGNAT, link-local, multicast, benchmarking, documentation, reserved, broadcast
      '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '100.64.0.1', '169.254.169.254', '224.0.0.1', '239.255.255.250',
      '198.18.0.1', '192.0.2.2', '203.0.113.1', '240.0.0.1', '255.255.255.255', '[fe80::1]', '[fc00::1]', '[fd00::2]', '[ff02::1]',
      '[2001:db8::1]',
      // names: localhost, and names the DNS server resolves inside (or half inside)
      'localhost', 'LOCALHOST.', 'api.localhost', 'inside.test', 'inside6.test', 'mapped.test', 'mixed.test', 'meta.test',
      'nowhere.test',
      // this machine's own addresses, and names for them
      ...own, ...ownAddresses.map((_a, i) => `own${i}.test`),
    ];
  };

  it('classifies addresses: public, loopback, or refused', () => {
    expect(addressVerdict('93.184.215.14')).toBe('public');
    expect(addressVerdict('2606:4700::1111')).toBe('public');
    expect(addressVerdict('[64:ff9b::8.8.8.8]')).toBe('public');
    expect(addressVerdict('127.9.9.9')).toBe('loopback');
    expect(addressVerdict('::1')).toBe('loopback');
    for (const a of ['::ffff:127.0.0.1', '::127.0.0.1', '0.0.0.0', '::', '172.20.0.1', 'fd00::2', 'fe80::1%eth0', '3fff::1', 'not-an-ip']) {
      expect(addressVerdict(a), a).toBe('refused');
    }
  });

  it('the SSRF matrix, opt-in off: every family and spelling, https and http, is refused in the same words; the listener is reached 0 times', async () => {
    const urls = spellings().flatMap((host) => [`https://${host}:${port}/metadata`, `http://${host}:${port}/metadata`]);
    urls.push(`https://user:pass@93.184.215.14:${port}/`, `ftp://127.0.0.1:${port}/`, `file:///etc/passwd`, 'not a url');
    const answers = await Promise.all(urls.map(async (url) => [url, await refusal(url, off)] as const));
    for (const [url, words] of answers) expect(words, url).toBe(GENERIC);
    expect(hits).toBe(0);
  });

  it('with the opt-in, loopback is reachable but nothing else inside is, and redirects are checked at each hop (at most 3)', async () => {
    const own = ownAddresses.map((a) => (a.includes(':') ? `[${a.replace('%', '%25')}]` : a));
    const insideTargets = [
      ...own.map((h) => `http://${h}:${port}/`), ...ownAddresses.map((_a, i) => `http://own${i}.test:${port}/`),
      `http://0.0.0.0:${port}/`, `http://[::ffff:127.0.0.1]:${port}/`, `http://meta.test:${port}/`, `http://mapped.test:${port}/`,
      `https://169.254.169.254:${port}/`, `http://mixed.test:${port}/`,
    ];
    let redirectorHits = 0;
    const redirector: HttpServer = createHttpServer((req, res) => {
      redirectorHits++;
      const u = new URL(req.url ?? '/', 'http://x');
      if (u.pathname === '/to') return res.writeHead(302, { location: u.searchParams.get('target')! }).end();
      const hop = Number(u.pathname.slice('/hop/'.length));
      if (u.pathname.startsWith('/hop/')) return res.writeHead(307, { location: hop > 0 ? `/hop/${hop - 1}` : '/done' }).end();
      res.writeHead(200, { 'content-type': 'text/plain' }).end('done');
    });
    await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`;
    try {
      // Loopback itself, with the opt-in: fetched (the tests' IdPs live here). inside.test is known
      // to the test DNS server only: its fetch connects to the address checked (the pinned lookup),
      // not to whatever the system resolver would say.
      expect(await (await outboundFetch(`${base}/done`, {}, on)).text()).toBe('done');
      expect(await (await outboundFetch(`${base.replace('127.0.0.1', 'inside.test')}/done`, {}, on)).text()).toBe('done');
      for (const target of insideTargets) {
        expect(await refusal(target, on), target).toBe(GENERIC);
        const via = `${base}/to?target=${encodeURIComponent(target)}`;
        expect(await refusal(via, on), via).toBe(GENERIC);
      }
      // Three redirects are followed; a fourth is refused.
      expect(await (await outboundFetch(`${base}/hop/2`, {}, on)).text()).toBe('done');
      expect(await refusal(`${base}/hop/3`, on)).toBe(GENERIC);
      expect(redirectorHits).toBeGreaterThan(insideTargets.length);
      expect(hits).toBe(0);
    } finally {
      await new Promise((r) => redirector.close(r));
    }
  });

  it('closed port, timeout and an oversized answer say the same words as a refused address (no port oracle)', async () => {
    const slow = createHttpServer((req, res) => {
      if (req.url === '/big') return res.writeHead(200).end('x'.repeat(1024 * 1024 + 1));
      setTimeout(() => res.writeHead(200).end('late'), 3000);
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    const slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
    try {
      expect(await refusal('http://127.0.0.1:9/', on)).toBe(GENERIC);
      expect(await refusal(`${slowUrl}/slow`, on)).toBe(GENERIC);
      expect(await refusal(`${slowUrl}/big`, on)).toBe(GENERIC);
      // TLS to something that does not speak it.
      expect(await refusal(`https://127.0.0.1:${(slow.address() as AddressInfo).port}/`, on)).toBe(GENERIC);
    } finally {
      slow.closeAllConnections();
      await new Promise((r) => slow.close(r));
    }
  });

  it('SSO_ALLOW_LOOPBACK_HTTP is off by default in every mode; only 1 or true turn it on', () => {
    for (const NODE_ENV of [undefined, 'development', 'test', 'production']) {
      expect(resolveSsoSettings({}, { NODE_ENV }).allowLoopbackHttp, String(NODE_ENV)).toBe(false);
    }
    expect(resolveSsoSettings({}, { SSO_ALLOW_LOOPBACK_HTTP: '1' }).allowLoopbackHttp).toBe(true);
    expect(resolveSsoSettings({}, { SSO_ALLOW_LOOPBACK_HTTP: 'true' }).allowLoopbackHttp).toBe(true);
    expect(resolveSsoSettings({}, { SSO_ALLOW_LOOPBACK_HTTP: '0' }).allowLoopbackHttp).toBe(false);
    expect(resolveSsoSettings({}, { LEDGERLINE_DNS_SERVER: '127.0.0.1:5353' }).dnsServer).toBe('127.0.0.1:5353');
    expect(resolveSsoSettings({}, {}).dnsServer).toBeNull();
  });
});

describe.each(await testDatabases())('SSO provider fetches on %s', (kind) => {
  const t = useTestApp(kind, { sso: { allowLoopbackHttp: true, google: null, publicUrl: null, dnsServer: dns.server } });

  it('the API refuses inside addresses in one message with the opt-in off (SAML metadata and OIDC issuer)', async () => {
    const biz = await makeBusiness(t.db, { transactions: 0 });
    const token = await signIn(t.app, biz.email('owner'));
    const strict = createApp({ db: t.db, tokenSecret: TEST_TOKEN_SECRET, sso: { allowLoopbackHttp: false, google: null, dnsServer: dns.server } });
    try {
      const urls = [`http://127.0.0.1:${port}/m`, `https://2130706433:${port}/m`, `https://inside.test:${port}/m`, `https://[::ffff:7f00:1]:${port}/m`];
      const answers = [];
      for (const [i, url] of urls.entries()) {
        const saml = await request(strict, 'POST', '/v1/auth/authentication/saml-providers', {
          token, body: { domain: `s${i}.example.com`, brand: 'OKTA', metadata_url: url },
        });
        const oidc = await request(strict, 'POST', '/v1/auth/authentication/oidc-providers', {
          token, body: { domain: `o${i}.example.com`, brand: 'OKTA', issuer: url, client_id: 'c', client_secret: 's' },
        });
        expect(saml.status, url).toBe(422);
        expect(oidc.status, url).toBe(422);
        expect(saml.body.error_v2.error_code).toBe('BUSINESS_7004');
        expect(oidc.body.error_v2.error_code).toBe('BUSINESS_7004');
        answers.push(saml.body.error_v2.message.replace(url, '<url>'), oidc.body.error_v2.message.replace(url, '<url>'));
      }
      // "The metadata URL <url> …" and "The issuer <url> …": one message per field, whatever the address.
      expect(new Set(answers).size).toBe(2);
      expect([...new Set(answers)].every((m) => m.endsWith(OUTBOUND_REFUSED_MESSAGE))).toBe(true);
      expect(hits).toBe(0);
    } finally {
      await strict.close();
    }
  });

  it('a slow identity provider holds no transaction: another tenant writes while six provider fetches hang', async () => {
    const slowIdp = await startSamlIdp();
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    let asked = 0;
    const slow = createHttpServer((_req, res) => {
      asked++;
      void held.then(async () => res.writeHead(200, { 'content-type': 'application/samlmetadata+xml' }).end(slowIdp.metadataXml));
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    const slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/metadata`;
    const tenants = await Promise.all([0, 1, 2, 3, 4, 5].map(() => makeBusiness(t.db, { transactions: 0 })));
    const other = await makeBusiness(t.db, { transactions: 0 });
    const tokens = await Promise.all(tenants.map((b) => signIn(t.app, b.email('owner'))));
    const otherToken = await signIn(t.app, other.email('owner'));
    let n = 0;
    /**
     * Another tenant's write, given 15 s: the fetches below hang until released, so a write that
     * waited for them (a fetch inside a transaction holds PGlite's one connection, or five of the
     * six in PostgreSQL's pool) would never finish before the release. No timing is compared: the
     * write either completes while the fetches hang, or it cannot.
     */
    const otherWrite = async () => {
      const write = request(t.app, 'POST', '/v1/auth/businesses/departments', { token: otherToken, body: { name: `Dept ${n++}` } });
      const res = await Promise.race([write, new Promise<'stuck'>((r) => setTimeout(() => r('stuck'), 15_000))]);
      expect(res, "another tenant's write waited for the provider fetches").not.toBe('stuck');
      if (res !== 'stuck') expect(res.status, res.text).toBe(201);
    };
    try {
      // Six tenants (more than the PostgreSQL pool of 5) add a provider whose metadata URL answers only when released.
      let settled = 0;
      const creating = tenants.map((b, i) => request(t.app, 'POST', '/v1/auth/authentication/saml-providers', {
        token: tokens[i], body: { domain: b.email('owner').split('@')[1], brand: 'OKTA', metadata_url: slowUrl },
      }).finally(() => settled++));
      // Every fetch is out and hanging before the other tenant writes.
      for (const deadline = Date.now() + 30_000; asked < tenants.length && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
      expect(asked).toBe(tenants.length);
      for (let i = 0; i < 3; i++) await otherWrite();
      expect(settled, 'the provider requests were still waiting on their fetches while the other tenant wrote').toBe(0);
      release();
      for (const res of await Promise.all(creating)) expect(res.status, res.text).toBe(201);
    } finally {
      release();
      slow.closeAllConnections();
      await new Promise((r) => slow.close(r));
      await slowIdp.close();
    }
  });

  it('a repeated Idempotency-Key replays the stored answer (the fetch runs first, the domain is judged in the transaction)', async () => {
    const idp = await startSamlIdp();
    try {
      const biz = await makeBusiness(t.db, { transactions: 0 });
      const token = await signIn(t.app, biz.email('owner'));
      const send = () => request(t.app, 'POST', '/v1/auth/authentication/saml-providers', {
        token, headers: { 'Idempotency-Key': `sso-create-${biz.businessId}` },
        body: { domain: biz.email('owner').split('@')[1], brand: 'OKTA', metadata_url: idp.metadataUrl },
      });
      const first = await send();
      expect(first.status, first.text).toBe(201);
      const again = await send();
      expect(again.status, again.text).toBe(201);
      expect(again.body.id).toBe(first.body.id);
      expect((await t.db.query('SELECT id FROM sso_providers WHERE business_id = $1', [biz.businessId])).length).toBe(1);
    } finally {
      await idp.close();
    }
  });

  it('at most 10 provider additions or IdP replacements per business per hour (429 AUTH_7029 with Retry-After); other businesses unaffected', async () => {
    const idp = await startSamlIdp();
    try {
      const biz = await makeBusiness(t.db, { transactions: 0 });
      const token = await signIn(t.app, biz.email('owner'));
      const created = await request(t.app, 'POST', '/v1/auth/authentication/saml-providers', {
        token, body: { domain: biz.email('owner').split('@')[1], brand: 'OKTA', metadata_xml: idp.metadataXml },
      });
      expect(created.status, created.text).toBe(201);
      for (let i = 0; i < 9; i++) {
        const res = await request(t.app, 'PATCH', `/v1/auth/authentication/sso-providers/${created.body.id}`, {
          token, body: { metadata_xml: idp.metadataXml, ...(i === 8 && { brand: 'OTHER' }) },
        });
        expect(res.status, `change ${i + 2}`).toBe(200);
      }
      // Switches (brand, enable, enforce) do not count.
      expect((await request(t.app, 'PATCH', `/v1/auth/authentication/sso-providers/${created.body.id}`, { token, body: { brand: 'OKTA' } })).status).toBe(200);
      expect((await request(t.app, 'PATCH', `/v1/auth/authentication/sso-providers/${created.body.id}`, { token, body: { brand: 'OTHER' } })).status).toBe(200);
      const over = await request(t.app, 'PATCH', `/v1/auth/authentication/sso-providers/${created.body.id}`, { token, body: { metadata_xml: idp.metadataXml, brand: 'DUO' } });
      expect(over.status).toBe(429);
      expect(over.body.error_v2.error_code).toBe('AUTH_7029');
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(3500);
      // Refused before any fetch: the metadata URL is not even asked.
      let asked = 0;
      const counting = createHttpServer((_req, res) => void (asked++, res.writeHead(200).end(idp.metadataXml)));
      await new Promise<void>((r) => counting.listen(0, '127.0.0.1', r));
      const refusedCreate = await request(t.app, 'POST', '/v1/auth/authentication/saml-providers', {
        token, body: { domain: `more.${biz.email('owner').split('@')[1]}`, brand: 'OKTA', metadata_url: `http://127.0.0.1:${(counting.address() as AddressInfo).port}/` },
      });
      await new Promise((r) => counting.close(r));
      expect(refusedCreate.status).toBe(429);
      expect(asked).toBe(0);
      const [row] = await t.db.query<{ brand: string }>('SELECT brand FROM sso_providers WHERE id = $1', [created.body.id]);
      expect(row!.brand).toBe('OTHER');
      const otherBiz = await makeBusiness(t.db, { transactions: 0 });
      const otherToken = await signIn(t.app, otherBiz.email('owner'));
      const fine = await request(t.app, 'POST', '/v1/auth/authentication/saml-providers', {
        token: otherToken, body: { domain: otherBiz.email('owner').split('@')[1], brand: 'OKTA', metadata_xml: idp.metadataXml },
      });
      expect(fine.status).toBe(201);
    } finally {
      await idp.close();
    }
  });
});
