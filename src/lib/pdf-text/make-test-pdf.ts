/**
 * A minimal PDF writer for the tests of `src/lib/pdf-text/` (no dev dependency for it): text pages
 * in the base-14 Helvetica, a "scanned" page that only paints an image, and an encrypted file whose
 * user password is not empty. Offsets in the cross-reference table are exact, so pdf.js reads the
 * files without its repair path. Not imported by the app.
 */
import { createHash } from 'node:crypto';

export interface TextRun {
  /** Points from the page's left edge. */
  x: number;
  /** Baseline, points from the page's bottom edge (PDF user space). */
  y: number;
  text: string;
  /** Font size in points; 10 unless given. */
  size?: number;
}

/**
 * `rotate: 90`: the page is shown turned a quarter clockwise (/Rotate 90) and its text drawn
 * turned the other way, so it reads upright; `x`/`y` are then where the run shows on the turned
 * page (x from its left, y from its bottom, 792 × 612).
 */
export type TestPage = { kind: 'text'; runs: TextRun[]; rotate?: 90 } | { kind: 'image' } | { kind: 'blank' };

const escapePdf = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);

function contentOf(page: TestPage): string {
  if (page.kind === 'text' && page.rotate === 90) {
    // Shown turned clockwise, user space's x runs down the shown page and its y to the right.
    return page.runs.map((r) => `BT /F1 ${r.size ?? 10} Tf 0 1 -1 0 ${612 - r.y} ${r.x} Tm (${escapePdf(r.text)}) Tj ET`).join('\n');
  }
  if (page.kind === 'text') return page.runs.map((r) => `BT /F1 ${r.size ?? 10} Tf ${r.x} ${r.y} Td (${escapePdf(r.text)}) Tj ET`).join('\n');
  if (page.kind === 'image') return 'q 500 0 0 700 56 46 cm /Im1 Do Q';
  return '';
}

/** Objects (without their `n 0 obj` wrapper) → a PDF file with a correct xref table. */
function writePdf(objects: string[], trailerExtra = ''): Uint8Array {
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailerExtra}>>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}

/**
 * Pages as given (US Letter). Objects: 1 catalog, 2 pages, 3 font, 4 image (8×8 grey, unfiltered),
 * then per page its page object and its content stream.
 */
export function makeTestPdf(pages: TestPage[], trailerExtra = '', extraObjects: string[] = []): Uint8Array {
  const first = 5;
  const kids = pages.map((_, i) => `${first + 2 * i} 0 R`).join(' ');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Type /XObject /Subtype /Image /Width 8 /Height 8 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length 64 >>\nstream\n${'\x80'.repeat(64)}\nendstream`,
  ];
  pages.forEach((page, i) => {
    const content = contentOf(page);
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792]${page.kind === 'text' && page.rotate ? ` /Rotate ${page.rotate}` : ''} /Resources << /Font << /F1 3 0 R >> /XObject << /Im1 4 0 R >> >> /Contents ${first + 2 * i + 1} 0 R >>`,
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    );
  });
  return writePdf([...objects, ...extraObjects], trailerExtra);
}

/** Lines of text from the top of a page down, 14 pt apart, each run at its x. */
export function textPage(rows: (string | [number, string][])[], top = 740): TestPage {
  const runs = rows.flatMap((row, i) => (typeof row === 'string' ? [[72, row] as [number, string]] : row).map(([x, text]) => ({ x, y: top - 14 * i, text })));
  return { kind: 'text', runs };
}

const PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');

function rc4(key: Buffer, data: Buffer): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i += 1) {
    j = (j + s[i]! + key[i % key.length]!) & 255;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = Buffer.alloc(data.length);
  for (let k = 0, i = 0, j = 0; k < data.length; k += 1) {
    i = (i + 1) & 255;
    j = (j + s[i]!) & 255;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[k] = data[k]! ^ s[(s[i]! + s[j]!) & 255]!;
  }
  return out;
}

const padded = (pw: string) => Buffer.concat([Buffer.from(pw, 'latin1'), PAD]).subarray(0, 32);
const md5 = (...parts: Buffer[]) => createHash('md5').update(Buffer.concat(parts)).digest();

/**
 * A one-page PDF under the standard security handler, revision 2 (RC4, 40-bit; PDF 1.7 §7.6.3.3,
 * algorithms 2–4) with a user password: a reader without it must stop at the password.
 */
export function passwordPdf(userPassword: string, ownerPassword = 'owner'): Uint8Array {
  const id = Buffer.from('0123456789abcdef0123456789abcdef', 'hex');
  const o = rc4(md5(padded(ownerPassword)).subarray(0, 5), padded(userPassword));
  const p = -44; // print and copy allowed; only the password matters here
  const pBytes = Buffer.alloc(4);
  pBytes.writeInt32LE(p);
  const key = md5(padded(userPassword), o, pBytes, id).subarray(0, 5);
  const u = rc4(key, PAD);
  const encrypt = `<< /Filter /Standard /V 1 /R 2 /O <${o.toString('hex')}> /U <${u.toString('hex')}> /P ${p} >>`;
  // The encryption dictionary is the object after the one page's two (1–4 fixed, 5–6 the page).
  return makeTestPdf([{ kind: 'blank' }], `/Encrypt 7 0 R /ID [<${id.toString('hex')}> <${id.toString('hex')}>] `, [encrypt]);
}
