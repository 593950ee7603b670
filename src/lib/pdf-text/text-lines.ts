/**
 * A PDF page's text layer → lines of text, shaped as OCR gives them (one line per printed row,
 * words in reading order, one space between words), so the parsers written for OCR text
 * (statement lines, invoices, receipts) read a PDF's text unchanged. Pure.
 *
 * pdf.js hands out text as runs ("items") in drawing order, each with its glyphs' transform; a
 * statement's table row is often several runs (date, description, amount, balance) drawn column
 * by column, so drawing order is not reading order. Rows are rebuilt from geometry: runs whose
 * baselines sit within half a font size of each other are one row, rows go top to bottom, runs
 * left to right, and a space goes where the gap between two runs is wider than a letter's kerning.
 * (The same idea as pdfminer's LAParams `line_overlap`/`char_margin`, much simplified.)
 */

/** One text run in page space with y growing downwards (pdf.js's viewport space), in points. */
export interface PdfTextRun {
  str: string;
  /** Left edge. */
  x: number;
  /** Baseline, from the top of the page. */
  y: number;
  /** Advance width of the whole run. */
  width: number;
  /** Font size (the glyphs' height). */
  size: number;
}

/** What the rebuilding reads of pdf.js's `TextItem` (marked-content entries have no `str`). */
export interface PdfJsTextItem {
  str?: string;
  transform?: number[];
  width?: number;
  height?: number;
}

/**
 * A gap wider than this share of the font size is a space. A space in Helvetica is 0.28 em; the
 * kerning and the split of one word into runs leave gaps well under 0.1 em.
 */
const SPACE_GAP = 0.15;
/** Baselines closer than this share of the larger font size are one row. */
const SAME_ROW = 0.5;

/**
 * pdf.js text items → runs in the page's viewport space. `viewport` is the page viewport's
 * transform (`page.getViewport({ scale: 1 }).transform`), so a page with /Rotate reads upright.
 */
export function runsFromItems(items: readonly PdfJsTextItem[], viewport: readonly number[] = [1, 0, 0, -1, 0, 0]): PdfTextRun[] {
  const [va, vb, vc, vd, ve, vf] = viewport as [number, number, number, number, number, number];
  const runs: PdfTextRun[] = [];
  for (const item of items) {
    if (typeof item.str !== 'string' || !item.transform || item.str.trim() === '') continue;
    const [a, b, c, d, e, f] = item.transform as [number, number, number, number, number, number];
    // The item's transform composed with the viewport's (pdf.js Util.transform(viewport, item)).
    const tc = va * c + vc * d;
    const td = vb * c + vd * d;
    const x = va * e + vc * f + ve;
    const y = vb * e + vd * f + vf;
    const size = Math.hypot(tc, td) || item.height || Math.hypot(a, b) || 1;
    const scale = Math.hypot(va, vb) || 1;
    runs.push({ str: item.str, x, y, width: (item.width ?? 0) * scale, size });
  }
  return runs;
}

/** Faux bold draws the same run twice a fraction of a point apart: read it once. */
const isOverprint = (prev: PdfTextRun, run: PdfTextRun) =>
  prev.str === run.str && Math.abs(prev.x - run.x) < 0.2 * run.size && Math.abs(prev.y - run.y) < 0.2 * run.size;

function joinRow(row: PdfTextRun[]): string {
  const sorted = [...row].sort((p, q) => p.x - q.x);
  let text = '';
  let prev: PdfTextRun | null = null;
  for (const run of sorted) {
    if (prev && isOverprint(prev, run)) continue;
    if (prev) {
      const gap = run.x - (prev.x + prev.width);
      const spaced = /\s$/.test(text) || /^\s/.test(run.str);
      if (!spaced && gap > SPACE_GAP * Math.min(prev.size, run.size)) text += ' ';
    }
    text += run.str;
    prev = run;
  }
  return text.replace(/\s+/g, ' ').trim();
}

/** Runs → the page's lines, top to bottom (empty lines dropped). */
export function linesFromRuns(runs: readonly PdfTextRun[]): string[] {
  const byY = [...runs].sort((p, q) => p.y - q.y || p.x - q.x);
  const rows: PdfTextRun[][] = [];
  let row: PdfTextRun[] = [];
  let anchor = 0;
  let anchorSize = 0;
  for (const run of byY) {
    // Measured from the row's first baseline, not the last run's, so a slope cannot chain rows.
    if (row.length > 0 && run.y - anchor <= SAME_ROW * Math.max(anchorSize, run.size)) {
      row.push(run);
      continue;
    }
    if (row.length > 0) rows.push(row);
    row = [run];
    anchor = run.y;
    anchorSize = run.size;
  }
  if (row.length > 0) rows.push(row);
  return rows.map(joinRow).filter((line) => line !== '');
}

/** A page's text items → its lines. */
export function linesFromItems(items: readonly PdfJsTextItem[], viewport?: readonly number[]): string[] {
  return linesFromRuns(runsFromItems(items, viewport));
}

/** Printed characters (spaces not counted): below `MIN_PAGE_CHARS` a page has no text layer worth reading. */
export function textWeight(lines: readonly string[]): number {
  return lines.reduce((n, line) => n + line.replace(/\s/g, '').length, 0);
}

/**
 * A page with fewer characters than this is treated as a scan (a page number or a bank's name
 * stamped over a scanned image is not the statement). A short real page ("Page 3 of 3", one
 * interest line) is about 25.
 */
export const MIN_PAGE_CHARS = 20;
