import { describe, expect, it } from 'vitest';
import { encodeForContentType, encodeWindows1252 } from './windows-1252.ts';

describe('encodeWindows1252', () => {
  it('keeps ASCII and Latin-1 letters as single bytes', () => {
    expect([...encodeWindows1252('Ramírez\tÖl')]).toEqual([0x52, 0x61, 0x6d, 0xed, 0x72, 0x65, 0x7a, 0x09, 0xd6, 0x6c]);
  });

  it('maps the typographic characters to 0x80–0x9F (the code page chart, not Latin-1)', () => {
    // Node's TextDecoder reads 'windows-1252' as Latin-1, so the bytes are checked against the chart.
    expect([...encodeWindows1252('€–“”…Œ™')]).toEqual([0x80, 0x96, 0x93, 0x94, 0x85, 0x8c, 0x99]);
  });

  it('writes ? for what the code page lacks, one per character (astral ones too)', () => {
    expect(Buffer.from(encodeWindows1252('Zoë 東京 😀 ok')).toString('latin1')).toBe('Zoë ?? ? ok');
    // C1 controls are not characters of the code page either.
    expect([...encodeWindows1252('\u0081')]).toEqual([0x3f]);
  });

  it('encodes by the content type: windows-1252 when named, UTF-8 otherwise', () => {
    expect([...encodeForContentType('í', 'text/plain; charset=windows-1252')]).toEqual([0xed]);
    expect([...encodeForContentType('í', 'text/csv; charset=utf-8')]).toEqual([0xc3, 0xad]);
  });
});
