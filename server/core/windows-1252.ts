/**
 * Windows-1252 ("ANSI" on US and Western European Windows), the code page QuickBooks Desktop
 * reads IIF files in: UTF-8 bytes would show "RamÃ­rez" for "Ramírez". Latin-1 except 0x80–0x9F,
 * which hold the typographic characters below. A character the code page lacks becomes "?", as
 * Windows' own conversion does (the export keeps amounts and account names, which are ASCII).
 */
const HIGH: Record<number, number> = {
  0x20ac: 0x80, 0x201a: 0x82, 0x0192: 0x83, 0x201e: 0x84, 0x2026: 0x85, 0x2020: 0x86, 0x2021: 0x87, 0x02c6: 0x88,
  0x2030: 0x89, 0x0160: 0x8a, 0x2039: 0x8b, 0x0152: 0x8c, 0x017d: 0x8e, 0x2018: 0x91, 0x2019: 0x92, 0x201c: 0x93,
  0x201d: 0x94, 0x2022: 0x95, 0x2013: 0x96, 0x2014: 0x97, 0x02dc: 0x98, 0x2122: 0x99, 0x0161: 0x9a, 0x203a: 0x9b,
  0x0153: 0x9c, 0x017e: 0x9e, 0x0178: 0x9f,
};
const QUESTION = 0x3f;

export function encodeWindows1252(text: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(text.length);
  let n = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? QUESTION;
    out[n++] = cp < 0x80 || (cp >= 0xa0 && cp <= 0xff) ? cp : (HIGH[cp] ?? QUESTION);
  }
  return out.subarray(0, n);
}

/** The bytes of a stored text file in the charset its content type names (UTF-8 unless windows-1252). */
export function encodeForContentType(text: string, contentType: string): Uint8Array<ArrayBuffer> {
  return /charset=windows-1252/i.test(contentType) ? encodeWindows1252(text) : new TextEncoder().encode(text);
}
