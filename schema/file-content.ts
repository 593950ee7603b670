import type { ReceiptContentType } from './api/calls-receipts.ts';

/**
 * What a stored file's bytes are (issue 24 item 8), decided from the content, never from the
 * name or the declared type. Pure (bytes in, verdict out; no Node or browser APIs) so the server's
 * upload handler and the worker's pre-check (workers/receipt-store-files.ts) agree byte for byte.
 *
 * Two questions, markup first:
 * 1. Does the file carry web content a browser could run? HTML, SVG, XML or script markers
 *    (`<html`, `<script`, `<svg`, `<?xml`, `<!doctype`, `<body`, `<iframe`, `javascript:`…) in the
 *    head of the file (HEAD_SCAN_BYTES: every browser and plugin sniffs within it; NUL bytes are
 *    skipped there, so UTF-16 markup is found too), or the unambiguous HTML ones anywhere in it
 *    (a polyglot hiding its page behind a real image header). → UPLOAD_7105.
 * 2. Do the magic numbers say the declared type? JPEG, PNG, `%PDF-`, RIFF…WEBP, an ISO-BMFF
 *    `ftyp` box with an HEVC brand (or `mif1` unless AVIF). → UPLOAD_7102.
 *
 * The markers are chosen so that real photos and PDFs do not trip them: tag markers must be
 * followed by whitespace, `>` or `/` (random compressed bytes almost never spell that), XMP
 * metadata (`<?xpacket`, `<x:xmpmeta`, `<rdf:RDF`) is not a marker, and the whole-file scan leaves
 * out `<?xml` and `<svg` (invoice PDFs may embed e-invoice XML past the head).
 */

/** The head every marker is looked for in (browsers sniff within the first 512–1445 bytes). */
export const HEAD_SCAN_BYTES = 4096;

type Marker = { text: string; tag: boolean };
/** A tag name: counts when followed by what ends one in HTML (whitespace, `/`, `>`) or the file's end. */
const tag = (name: string): Marker => ({ text: `<${name}`, tag: true });
const raw = (text: string): Marker => ({ text, tag: false });

/** Looked for in the head: anything a browser could render as a page, an image with script, or XML. */
const HEAD_MARKERS: readonly Marker[] = [
  ...['html', 'head', 'body', 'script', 'iframe', 'frame', 'frameset', 'svg', 'object', 'embed', 'img', 'meta', 'style',
    'title', 'link', 'form', 'base', 'math', 'xsl:stylesheet'].map(tag),
  raw('<?xml'), raw('<!doctype'), raw('<!entity'), raw('<!--'), raw('javascript:'), raw('vbscript:'), raw('data:text/html'),
];
/** Looked for in the whole file: only what is HTML or script beyond doubt. */
const BODY_MARKERS: readonly Marker[] = [
  tag('html'), tag('body'), tag('script'), tag('iframe'), raw('<!doctype html'), raw('javascript:'), raw('vbscript:'),
];

/** ASCII upper case → lower case, every other byte as is. */
const LOWER = Uint8Array.from({ length: 256 }, (_, b) => (b >= 0x41 && b <= 0x5a ? b | 0x20 : b));
/** 1 for the bytes that end a tag name (whitespace, `/`, `>`). */
const TAG_END_BYTES: readonly number[] = [0x09, 0x0a, 0x0c, 0x0d, 0x20, 0x2f, 0x3e];
const TAG_END = Uint8Array.from({ length: 256 }, (_, b) => (TAG_END_BYTES.includes(b) ? 1 : 0));

type Pattern = { text: string; tag: boolean; bytes: Uint8Array };
/**
 * Markers indexed by their first two (lower-case) bytes, so a position costs one table lookup and
 * at most a couple of comparisons, whatever the bytes are: the scan is linear (a 10 MB file of
 * `<`, of random bytes or of near misses takes 0.1–0.3 s here, see file-content.test.ts).
 */
type Index = { mask: Uint8Array; byPair: Map<number, Pattern[]> };
function indexed(markers: readonly Marker[]): Index {
  const mask = new Uint8Array(65536);
  const byPair = new Map<number, Pattern[]>();
  for (const m of markers) {
    const bytes = Uint8Array.from(m.text, (ch) => ch.charCodeAt(0));
    const key = (bytes[0]! << 8) | bytes[1]!;
    mask[key] = 1;
    byPair.set(key, [...(byPair.get(key) ?? []), { ...m, bytes }]);
  }
  return { mask, byPair };
}
const HEAD = indexed(HEAD_MARKERS);
const BODY = indexed(BODY_MARKERS);

/** The first marker found in `bytes` (ASCII case-insensitive), or null. */
function findMarker(bytes: Uint8Array, { mask, byPair }: Index): string | null {
  const end = bytes.length - 1;
  for (let i = 0; i < end; i++) {
    const key = (LOWER[bytes[i]!]! << 8) | LOWER[bytes[i + 1]!]!;
    if (mask[key] === 0) continue;
    for (const m of byPair.get(key)!) {
      const sig = m.bytes;
      if (i + sig.length > bytes.length) continue;
      let k = 2;
      while (k < sig.length && LOWER[bytes[i + k]!] === sig[k]) k++;
      if (k < sig.length) continue;
      const after = i + k < bytes.length ? bytes[i + k]! : -1;
      if (!m.tag || after === -1 || TAG_END[after] === 1) return m.text;
    }
  }
  return null;
}

/** The first markup marker of the file (`<script`, `<?xml`…), or null when it has none. */
export function findMarkup(bytes: Uint8Array): string | null {
  const head = bytes.subarray(0, HEAD_SCAN_BYTES);
  // UTF-16 (or NUL-padded) markup reads as ASCII once the NULs are gone.
  const squeezed = head.includes(0) ? head.filter((b) => b !== 0) : head;
  return findMarker(squeezed, HEAD) ?? (bytes.length > HEAD_SCAN_BYTES ? findMarker(bytes, BODY) : null);
}

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
const HEVC_BRANDS = new Set(['heic', 'heix']);
const AVIF_BRANDS = new Set(['avif', 'avis']);

/** The type the bytes' signature (magic numbers) says they are, or null. */
export function sniffContentType(bytes: Uint8Array): ReceiptContentType | null {
  const at = (i: number, ...sig: number[]) => sig.every((b, k) => bytes[i + k] === b);
  if (at(0, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (ascii(bytes, 0, 5) === '%PDF-') return 'application/pdf';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'image/webp';
  if (bytes.length >= 12 && ascii(bytes, 4, 8) === 'ftyp') {
    // ftyp box: size (4), 'ftyp', major brand (4), minor version (4), compatible brands (4 each).
    const boxSize = Math.min(((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0, bytes.length);
    const brands = [ascii(bytes, 8, 12)];
    for (let i = 16; i + 4 <= boxSize; i += 4) brands.push(ascii(bytes, i, i + 4));
    // heic/heix name HEVC images; mif1 (any HEIF image) counts unless the file is AVIF, which
    // is HEIF too and lists mif1 among its brands.
    if (brands.some((b) => HEVC_BRANDS.has(b)) || (brands.includes('mif1') && !brands.some((b) => AVIF_BRANDS.has(b)))) return 'image/heic';
  }
  return null;
}

export type ContentCheck =
  | { ok: true; contentType: ReceiptContentType }
  | { ok: false; code: 'UPLOAD_7102' | 'UPLOAD_7105'; message: string };

/**
 * The verdict on a file sent as `declared`: markup (any type) → UPLOAD_7105; a signature that is
 * not the declared type's → UPLOAD_7102 naming both. The message ends with a full stop and may be
 * prefixed with the file's name by the caller.
 */
export function checkFileContent(declared: string, bytes: Uint8Array): ContentCheck {
  const markup = findMarkup(bytes);
  if (markup) {
    return { ok: false, code: 'UPLOAD_7105', message: `The file contains web page content (${markup}…), which is never accepted as a receipt or invoice.` };
  }
  const actual = sniffContentType(bytes);
  if (actual === declared) return { ok: true, contentType: actual };
  return {
    ok: false, code: 'UPLOAD_7102',
    message: actual
      ? `The file content does not match its type: it was sent as ${declared} but is ${actual}.`
      : `The file content does not match its type: it is not a valid ${declared} file.`,
  };
}
