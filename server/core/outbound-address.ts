import { isIP } from 'node:net';

/**
 * Which addresses a server-side fetch (server/core/outbound-fetch.ts) may connect to: public
 * unicast only. Judged on the address bytes, after the URL parser and the resolver have done their
 * work, so every spelling of a host ends here as the same bytes (the WHATWG URL parser already
 * turns 2130706433, 0x7f000001, 0177.0.0.1 and 127.1 into 127.0.0.1; IPv6 is parsed below).
 *
 * Refused (IPv4): 0/8 "this network", 10/8, 172.16/12, 192.168/16 private, 100.64/10 CGNAT,
 * 127/8 loopback, 169.254/16 link-local, 192.0.0/24 IETF, 192.0.2/24, 198.51.100/24,
 * 203.0.113/24 documentation, 192.88.99/24 6to4 relay, 198.18/15 benchmarking, 224/4 multicast,
 * 240/4 reserved and broadcast.
 * Refused (IPv6): everything outside global unicast 2000::/3 (so ::, ::1, IPv4-mapped ::ffff:0:0/96
 * and IPv4-compatible ::/96, fc00::/7 unique-local, fe80::/10 link-local, ff00::/8 multicast,
 * 100::/64 discard), and inside it 2001::/23 (IETF: Teredo, benchmarking, ORCHID), 2001:db8::/32
 * and 3fff::/20 documentation, 2002::/16 6to4 (it embeds an IPv4 address). NAT64 64:ff9b::/96 is
 * judged by the IPv4 address it embeds; 64:ff9b:1::/48 (local-use NAT64) is refused.
 */

export type AddressVerdict = 'public' | 'loopback' | 'refused';

const V4_REFUSED: Array<[number, number]> = [
  [0x00000000, 8], [0x0a000000, 8], [0x64400000, 10], [0xa9fe0000, 16], [0xac100000, 12], [0xc0000000, 24],
  [0xc0000200, 24], [0xc0586300, 24], [0xc0a80000, 16], [0xc6120000, 15], [0xc6336400, 24], [0xcb007100, 24],
  [0xe0000000, 4], [0xf0000000, 4],
];

function v4Number(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return null;
    n = n * 256 + Number(p);
  }
  return n;
}

const inV4 = (n: number, base: number, bits: number) => bits === 0 || Math.floor(n / 2 ** (32 - bits)) === Math.floor(base / 2 ** (32 - bits));

function v4Verdict(n: number): AddressVerdict {
  if (inV4(n, 0x7f000000, 8)) return 'loopback';
  return V4_REFUSED.some(([base, bits]) => inV4(n, base, bits)) ? 'refused' : 'public';
}

/** An IPv6 address as 8 groups of 16 bits (with an embedded dotted IPv4 tail); null when malformed. */
function v6Groups(text: string): number[] | null {
  let s = text.toLowerCase();
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  // A dotted IPv4 tail (::ffff:127.0.0.1, 64:ff9b::10.0.0.1) becomes its two hex groups.
  const tail = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(s);
  if (tail) {
    const n = v4Number(tail[1]!);
    if (n === null) return null;
    s = `${s.slice(0, -tail[1]!.length)}${Math.floor(n / 65536).toString(16)}:${(n % 65536).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const parse = (h: string) => (h === '' ? [] : h.split(':').map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN)));
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  const fixed = head.length + rest.length;
  if ([...head, ...rest].some(Number.isNaN)) return null;
  if (halves.length === 1 && fixed !== 8) return null;
  if (halves.length === 2 && fixed > 7) return null;
  const zeros = halves.length === 2 ? new Array<number>(8 - fixed).fill(0) : [];
  return [...head, ...zeros, ...rest];
}

function v6Verdict(g: number[]): AddressVerdict {
  const embeddedV4 = g[6]! * 65536 + g[7]!;
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return 'loopback';
  // NAT64 well-known prefix: the IPv4 address it stands for decides (a private one is refused).
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) {
    const v = v4Verdict(embeddedV4);
    return v === 'public' ? 'public' : 'refused';
  }
  if ((g[0]! & 0xe000) !== 0x2000) return 'refused';
  if (g[0] === 0x2001 && g[1]! < 0x200) return 'refused';
  if (g[0] === 0x2001 && g[1] === 0xdb8) return 'refused';
  if (g[0] === 0x2002) return 'refused';
  if (g[0] === 0x3fff && g[1]! < 0x1000) return 'refused';
  return 'public';
}

/** public, loopback (127/8, ::1) or refused; anything that is not an IP address is refused. */
export function addressVerdict(address: string): AddressVerdict {
  const host = address.replace(/^\[|\]$/g, '');
  const family = isIP(host);
  if (family === 4) return v4Verdict(v4Number(host)!);
  if (family === 6) {
    const groups = v6Groups(host);
    return groups ? v6Verdict(groups) : 'refused';
  }
  return 'refused';
}

/** Whether a connection to `address` is allowed: public always, loopback only with the opt-in. */
export function addressAllowed(address: string, allowLoopback: boolean): boolean {
  const verdict = addressVerdict(address);
  return verdict === 'public' || (verdict === 'loopback' && allowLoopback);
}
