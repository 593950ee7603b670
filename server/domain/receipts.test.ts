import { describe, expect, it } from 'vitest';
import { sniffContentType } from './receipts.ts';

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
