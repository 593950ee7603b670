/**
 * Private, first-party telemetry rules (§1, §2, §9): what a logged URL may contain, when we
 * track at all, and how error reports are masked. Pure, so the client and our telemetry
 * endpoint apply exactly the same rules.
 */

const ROUTER_TOKENS = ['code', 'state', 'oobCode'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const OPAQUE_ID = /^(?=.*\d)[A-Za-z0-9_-]{16,}$/;
const NUMBER = /^\d+$/;

/** Collapses ids and numbers in a path; /actions/apply/{x} and /workflows/submission-policy/new/{x} too. */
export function anonymisePath(pathname: string): string {
  const parts = pathname.split('/');
  const out = parts.map((seg, i) => {
    if (!seg) return seg;
    if (UUID.test(seg) || NUMBER.test(seg) || OPAQUE_ID.test(seg)) return ':id';
    const prev = parts.slice(Math.max(0, i - 3), i).join('/');
    if (parts[i - 1] === 'apply' && parts[i - 2] === 'actions') return ':x';
    if (prev.endsWith('workflows/submission-policy/new')) return ':x';
    return seg;
  });
  return out.join('/');
}

/**
 * The URL as logged: path anonymised, router tokens stripped, and a `sanitized_path` query
 * parameter standing in for the real path.
 */
export function sanitiseUrl(url: string): string {
  const u = new URL(url, 'http://localhost');
  const anon = anonymisePath(u.pathname);
  for (const t of ROUTER_TOKENS) u.searchParams.delete(t);
  u.searchParams.delete('sanitized_path');
  u.searchParams.set('sanitized_path', anon);
  const query = u.searchParams.toString();
  return `${anon}${query ? `?${query}` : ''}`;
}

export interface TrackingSwitches {
  /** Anything at all (analytics, session recording, error reports). */
  track: boolean;
  /** The analytics pipeline only. */
  analytics: boolean;
}

/** §2: no_track=true switches off all tracking; no_segment=true only analytics. */
export function trackingSwitches(search: string): TrackingSwitches {
  const p = new URLSearchParams(search);
  const track = p.get('no_track') !== 'true';
  return { track, analytics: track && p.get('no_segment') !== 'true' };
}

/** §2: /sign-in and /sign-up skip session-recording start-up. */
export const skipsRecordingStartup = (pathname: string) => /^\/(sign-in|sign-up)(\/|$)/.test(pathname);

/** §2: on /console paths events carry the external firm id instead of spend user and business ids. */
export function eventIdentity(
  pathname: string,
  ids: { spend_user_id: string | null; business_id: string | null; external_firm_id: string | null },
): Record<string, string | null> {
  if (/^\/console(\/|$)/.test(pathname)) return { external_firm_id: ids.external_firm_id };
  return { spend_user_id: ids.spend_user_id, business_id: ids.business_id };
}

const SENSITIVE_KEY =
  /pass(word|wd|code)?|secret|token|authori[sz]ation|cookie|api[-_]?key|ssn|social[-_]?security|\btin\b|tax[-_]?id|\bein\b|iban|account[-_]?(number|no|num)|routing|card[-_]?number|\bpan\b|cvv|cvc|date[-_]?of[-_]?birth|\bdob\b|known[-_]?travell?er[-_]?number/i;
/** Keys whose whole value is masked, lists and objects included (issue 27: a traveller's loyalty numbers). */
const SENSITIVE_TREE_KEY = /loyalty/i;
const MASK = '[masked]';
const VALUE_PATTERNS: [RegExp, string][] = [
  // Free text (error messages, stacks, query strings) can hold `password=…` or `"token": "…"`
  // pairs that key-based masking cannot see as keys: mask the value of every such pair.
  [
    /\b(pass(?:word|wd|code)?|secret|token|api[-_]?key|ssn|tin|iban|account[-_]?(?:number|no|num)|routing(?:[-_]?number)?|card[-_]?number|cvv|cvc|date[-_]?of[-_]?birth|known[-_]?travell?er[-_]?number)("?\s*[=:]\s*"?)[^\s&",;]+/gi,
    '$1$2[masked]',
  ],
  [/\beyJ[\w-]+\.[\w-]+\.[\w-]+/g, MASK], // JWTs
  [/\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b/g, MASK], // IBAN
  [/\b\d{3}-\d{2}-\d{4}\b/g, MASK], // SSN
  [/\b\d{2}-\d{7}\b/g, MASK], // EIN / TIN
  [/\b(?:\d[ -]?){12,19}\b/g, MASK], // card and long account numbers
  [/\b(bearer|basic)\s+[\w.~+/=-]+/gi, '$1 [masked]'],
];

function maskString(value: string): string {
  return VALUE_PATTERNS.reduce((s, [re, rep]) => s.replace(re, rep), value);
}

/** Masks sensitive keys and values anywhere in an error report (account numbers, IBAN, passwords, tokens, SSN, TIN). */
export function maskSensitive<T>(value: T, depth = 0): T {
  if (depth > 12) return MASK as T;
  if (typeof value === 'string') return maskString(value) as T;
  if (Array.isArray(value)) return value.map((v) => maskSensitive(v, depth + 1)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === '__proto__') continue;
      const masked = v !== null && v !== undefined && (SENSITIVE_TREE_KEY.test(k) || (SENSITIVE_KEY.test(k) && typeof v !== 'object'));
      out[k] = masked ? MASK : maskSensitive(v, depth + 1);
    }
    return out as T;
  }
  return value;
}
