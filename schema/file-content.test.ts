import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { checkFileContent, findMarkup, HEAD_SCAN_BYTES, sniffContentType } from './file-content.ts';

const ascii = (s: string) => [...s].map((ch) => ch.charCodeAt(0));
const ftyp = (...brands: string[]) => {
  const size = 8 + 4 + 4 + (brands.length - 1) * 4;
  return Uint8Array.from([0, 0, 0, size, ...ascii('ftyp'), ...ascii(brands[0]!), 0, 0, 0, 0, ...brands.slice(1).flatMap(ascii), 1, 2, 3]);
};

describe('sniffContentType: the magic numbers of receipt files', () => {
  it.each([
    ['image/jpeg', Uint8Array.from([0xff, 0xd8, 0xff, 0xdb, 1])],
    ['image/png', Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0])],
    ['application/pdf', Uint8Array.from(ascii('%PDF-1.4'))],
    ['image/webp', Uint8Array.from([...ascii('RIFF'), 9, 9, 0, 0, ...ascii('WEBP')])],
    ['image/heic', ftyp('heic')],
    ['image/heic', ftyp('heix')],
    ['image/heic', ftyp('mif1', 'miaf', 'heic')],
    ['image/heic', ftyp('mif1', 'miaf')],
  ])('%s', (type, bytes) => expect(sniffContentType(bytes)).toBe(type));

  it.each([
    ['empty', new Uint8Array(0)],
    ['two JPEG bytes', Uint8Array.from([0xff, 0xd8])],
    ['a PNG cut short', Uint8Array.from([0x89, 0x50, 0x4e, 0x47])],
    ['%PDF without the dash', Uint8Array.from(ascii('%PDF1'))],
    ['a WAV', Uint8Array.from([...ascii('RIFF'), 0, 0, 0, 0, ...ascii('WAVE')])],
    ['an MP4', ftyp('isom', 'mp41')],
    ['an AVIF (HEIF, lists mif1)', ftyp('avif', 'mif1', 'miaf')],
    ['an ftyp box too short for its brand', Uint8Array.from([0, 0, 0, 12, ...ascii('ftyphe')])],
    ['text', Uint8Array.from(ascii('hello world!'))],
  ])('%s is none of them', (_label, bytes) => expect(sniffContentType(bytes)).toBeNull());
});

const enc = (s: string) => [...new TextEncoder().encode(s)];
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Pseudo-random filler without `<` (so only the planted marker can be found). */
const filler = (n: number) => Array.from({ length: n }, (_, i) => ((i * 2654435761) >>> 24) % 256).map((b) => (b === 0x3c ? 0x3d : b));

describe('findMarkup: web content hidden in a file', () => {
  it.each([
    ['<html>', enc('<html>')], ['<HTML lang=en>', enc('<HTML lang=en>')], ['<script>', enc('x<script>')], ['<svg/onload>', enc('<svg/onload=alert(1)>')],
    ['<?xml', enc('<?xml version="1.0"?>')], ['<!DOCTYPE', enc('<!DOCTYPE html>')], ['<body\t', enc('<body\tonload=x>')],
    ['<iframe', enc('<iframe src=x>')], ['javascript:', enc('href="JAVASCRIPT:alert(1)"')], ['<img onerror>', enc('<img src=x onerror=alert(1)>')],
    ['UTF-16LE <script>', [...'<script>'].flatMap((ch) => [ch.charCodeAt(0), 0])],
    ['UTF-16BE <html>', [0xfe, 0xff, ...[...'<html>'].flatMap((ch) => [0, ch.charCodeAt(0)])]],
  ])('finds %s at the start', (_label, bytes) => {
    expect(findMarkup(Uint8Array.from([...PNG, ...bytes]))).not.toBeNull();
  });

  it('finds script markers anywhere in the file, head-only ones only in the head', () => {
    const deep = (marker: string) => Uint8Array.from([...PNG, ...filler(HEAD_SCAN_BYTES + 5000), ...enc(marker)]);
    expect(findMarkup(deep('<script>'))).toBe('<script');
    expect(findMarkup(deep('<HTML>'))).toBe('<html');
    expect(findMarkup(deep('javascript:'))).toBe('javascript:');
    // An e-invoice's embedded XML or an SVG deep inside a PDF is not a page a browser would sniff.
    expect(findMarkup(deep('<?xml version="1.0"?>'))).toBeNull();
    expect(findMarkup(deep('<svg '))).toBeNull();
  });

  it.each([
    ['a tag name that goes on (<svgfont, <htmlish)', enc('<svgfont <htmlish <bodyguard <scripts')],
    ['XMP metadata', enc('<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF/></x:xmpmeta>')],
    ['prose', enc('Invoice 2026-114 for services: total 1,284.00 < 2,000.00 budget')],
  ])('leaves %s alone', (_label, bytes) => {
    expect(findMarkup(Uint8Array.from([...PNG, ...bytes]))).toBeNull();
  });

  it.each(['r01-coffee-usd.png', 'r07-fuel-eur.png', 'sample.jpg', 'sample.webp', 'sample.pdf', 'sample.heic'])('passes the real file %s', (name) => {
    const bytes = Uint8Array.from(readFileSync(new URL(`../tests/fixtures/receipts/${name}`, import.meta.url)));
    expect(findMarkup(bytes)).toBeNull();
    const type = sniffContentType(bytes);
    expect(type).not.toBeNull();
    expect(checkFileContent(type!, bytes)).toEqual({ ok: true, contentType: type });
  });

  it('refuses markup before it compares types: a polyglot is UPLOAD_7105 whatever it was sent as', () => {
    const polyglot = Uint8Array.from([...PNG, ...enc('<html><script>alert(1)</script>')]);
    expect(checkFileContent('image/png', polyglot)).toMatchObject({ ok: false, code: 'UPLOAD_7105' });
    expect(checkFileContent('image/jpeg', polyglot)).toMatchObject({ ok: false, code: 'UPLOAD_7105' });
    expect(checkFileContent('image/jpeg', Uint8Array.from(PNG))).toMatchObject({
      ok: false, code: 'UPLOAD_7102', message: 'The file content does not match its type: it was sent as image/jpeg but is image/png.',
    });
  });

  it.each([
    ['pseudo-random bytes', (i: number) => (i * 2654435761) >>> 24],
    ['nothing but "<"', () => 0x3c],
    ['"<scrip" over and over (every position a near miss)', (i: number) => '<scrip'.charCodeAt(i % 6)],
  ])('scans 10 MB of %s in linear time', (_label, byte) => {
    const big = new Uint8Array(10 * 1024 * 1024);
    for (let i = 0; i < big.length; i++) big[i] = byte(i);
    const started = performance.now();
    expect(findMarkup(big)).toBeNull();
    // ~0.1–0.3 s measured on a shared 2-core machine; quadratic or per-marker scans took 4–6 s.
    expect(performance.now() - started).toBeLessThan(4000);
  });
});
