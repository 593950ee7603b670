import { createSocket, type RemoteInfo } from 'node:dgram';
import { isIP } from 'node:net';

/**
 * A small authoritative DNS server over UDP on loopback for tests (node:dgram, RFC 1035 wire
 * format): it answers TXT, A and AAAA for the names registered with it and NXDOMAIN for every
 * other name (NOERROR with no answer when the name exists with other types). The server is
 * pointed at it with LEDGERLINE_DNS_SERVER / createApp's `sso.dnsServer` (`server`, host:port):
 * domain proofs (`_ledgerline-challenge.<domain>` TXT) and the names outbound fetches resolve.
 *
 * `lookups` lists every question asked (name, type), so a test can tell a lookup happened.
 */
export type TestDnsServer = {
  /** host:port, for LEDGERLINE_DNS_SERVER. */
  server: string;
  setTxt(name: string, values: string[]): void;
  setAddresses(name: string, addresses: string[]): void;
  remove(name: string): void;
  /** Answer SERVFAIL for this name (a broken DNS host). */
  failName(name: string): void;
  lookups: Array<{ name: string; type: string }>;
  close(): Promise<void>;
};

const TYPES: Record<number, string> = { 1: 'A', 16: 'TXT', 28: 'AAAA' };

type Records = { txt: string[]; a: string[]; aaaa: string[]; fail: boolean };

function readName(msg: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let at = offset;
  for (;;) {
    const len = msg[at]!;
    if (len === 0) return { name: labels.join('.'), end: at + 1 };
    if ((len & 0xc0) === 0xc0) throw new Error('compressed names are not expected in questions');
    labels.push(msg.subarray(at + 1, at + 1 + len).toString('ascii'));
    at += 1 + len;
  }
}

function ipv4Bytes(a: string): Buffer {
  return Buffer.from(a.split('.').map(Number));
}

function ipv6Bytes(a: string): Buffer {
  const [head = '', tail = ''] = a.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = a.includes('::') ? [...h, ...new Array<string>(8 - h.length - t.length).fill('0'), ...t] : h;
  const out = Buffer.alloc(16);
  groups.forEach((g, i) => out.writeUInt16BE(parseInt(g, 16), i * 2));
  return out;
}

function txtData(value: string): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length || i === 0; i += 255) {
    const chunk = bytes.subarray(i, i + 255);
    parts.push(Buffer.from([chunk.length]), chunk);
    if (bytes.length === 0) break;
  }
  return Buffer.concat(parts);
}

function answer(msg: Buffer, records: Map<string, Records>, lookups: TestDnsServer['lookups']): Buffer | null {
  if (msg.length < 12) return null;
  const id = msg.readUInt16BE(0);
  const flags = msg.readUInt16BE(2);
  if (msg.readUInt16BE(4) !== 1) return null;
  const { name, end } = readName(msg, 12);
  const qtype = msg.readUInt16BE(end);
  const question = msg.subarray(12, end + 4);
  lookups.push({ name: name.toLowerCase(), type: TYPES[qtype] ?? String(qtype) });
  const rec = records.get(name.toLowerCase().replace(/\.$/, ''));
  const rdatas: Buffer[] =
    !rec ? [] : qtype === 16 ? rec.txt.map(txtData) : qtype === 1 ? rec.a.map(ipv4Bytes) : qtype === 28 ? rec.aaaa.map(ipv6Bytes) : [];
  const rcode = rec?.fail ? 2 : rec ? 0 : 3;
  const header = Buffer.alloc(12);
  header.writeUInt16BE(id, 0);
  // QR, opcode copied, AA, RD copied, RA; rcode.
  header.writeUInt16BE(0x8000 | (flags & 0x7800) | 0x0400 | (flags & 0x0100) | 0x0080 | rcode, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(rec?.fail ? 0 : rdatas.length, 6);
  const answers = (rec?.fail ? [] : rdatas).map((rdata) => {
    const rr = Buffer.alloc(12);
    rr.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
    rr.writeUInt16BE(qtype, 2);
    rr.writeUInt16BE(1, 4); // IN
    rr.writeUInt32BE(5, 6); // TTL 5 s
    rr.writeUInt16BE(rdata.length, 10);
    return Buffer.concat([rr, rdata]);
  });
  return Buffer.concat([header, question, ...answers]);
}

export async function startDnsServer(): Promise<TestDnsServer> {
  const records = new Map<string, Records>();
  const lookups: TestDnsServer['lookups'] = [];
  const socket = createSocket('udp4');
  socket.on('message', (msg: Buffer, from: RemoteInfo) => {
    let reply: Buffer | null = null;
    try {
      reply = answer(msg, records, lookups);
    } catch {
      reply = null;
    }
    if (reply) socket.send(reply, from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const entry = (name: string): Records => {
    const key = name.toLowerCase().replace(/\.$/, '');
    let rec = records.get(key);
    if (!rec) records.set(key, (rec = { txt: [], a: [], aaaa: [], fail: false }));
    return rec;
  };
  return {
    server: `127.0.0.1:${socket.address().port}`,
    setTxt: (name, values) => void (entry(name).txt = values),
    setAddresses: (name, addresses) => {
      const rec = entry(name);
      rec.a = addresses.filter((a) => isIP(a) === 4);
      rec.aaaa = addresses.filter((a) => isIP(a) === 6);
    },
    remove: (name) => void records.delete(name.toLowerCase()),
    failName: (name) => void (entry(name).fail = true),
    lookups,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
