import { describe, expect, it } from 'vitest';
import { linesFromItems, linesFromRuns, MIN_PAGE_CHARS, runsFromItems, textWeight, type PdfJsTextItem, type PdfTextRun } from './text-lines.ts';

/** A pdf.js text item as the worker sends it: upright text at (x, y) in PDF space (y up). */
const item = (str: string, x: number, y: number, width = str.length * 5, size = 10): PdfJsTextItem => ({
  str, transform: [size, 0, 0, size, x, y], width, height: size,
});
/** A run in viewport space (y down). */
const run = (str: string, x: number, y: number, width = str.length * 5, size = 10): PdfTextRun => ({ str, x, y, width, size });

/** pdf.js's viewport transform of an upright US Letter page at scale 1. */
const LETTER = [1, 0, 0, -1, 0, 792];

describe('linesFromItems: a page’s text items → lines as OCR gives them', () => {
  it.each<[string, PdfJsTextItem[], string[]]>([
    [
      'a table drawn column by column is read row by row, left to right',
      [
        item('10/03', 72, 700), item('10/04', 72, 686),
        item('Coffee Roasters', 120, 700), item('Mobile deposit', 120, 686),
        item('4.50', 400, 700), item('1,000.00', 400, 686),
        item('995.50', 500, 700), item('1,995.50', 500, 686),
      ],
      ['10/03 Coffee Roasters 4.50 995.50', '10/04 Mobile deposit 1,000.00 1,995.50'],
    ],
    [
      'a word split into runs (kerning) stays one word; a real gap is one space',
      [item('Cof', 72, 700, 15), item('fee', 87.4, 700, 15), item('Shop', 106, 700, 20)],
      ['Coffee Shop'],
    ],
    [
      'baselines a little apart (a smaller font, a superscript) are one row',
      [item('Total', 72, 700), item('USD', 110, 701.5, 12, 7), item('42.00', 200, 699.2)],
      ['Total USD 42.00'],
    ],
    [
      'faux bold (the run drawn twice, a fraction of a point apart) is read once',
      [item('INVOICE', 72, 740, 40, 14), item('INVOICE', 72.3, 740, 40, 14), item('#4471', 120, 740, 30, 14)],
      ['INVOICE #4471'],
    ],
    [
      'whitespace-only items and marked content are not text; spaces inside runs collapse',
      [item('Balance', 72, 700), item(' ', 107, 700, 90, 0), { str: undefined }, item('forward   ', 200, 700), item('12.00', 300, 700)],
      ['Balance forward 12.00'],
    ],
    [
      'a run that starts with a space adds no second one',
      [item('Net', 72, 700, 15), item(' 30', 95, 700, 15)],
      ['Net 30'],
    ],
    ['a page without text has no lines', [], []],
  ])('%s', (_, items, lines) => {
    expect(linesFromItems(items, LETTER)).toEqual(lines);
  });

  it('rows go top to bottom whatever order they were drawn in', () => {
    const items = [item('third', 72, 600), item('first', 72, 740), item('second', 72, 700)];
    expect(linesFromItems(items, LETTER)).toEqual(['first', 'second', 'third']);
  });

  it('a slope does not chain rows: each row is measured from its first baseline', () => {
    // Three runs 4 pt apart each: within half a font size of the one before, not of the first.
    const runs = [run('a', 72, 100), run('b', 100, 104), run('c', 130, 108), run('d', 160, 112)];
    expect(linesFromRuns(runs)).toEqual(['a b', 'c d']);
  });

  it('places runs through the page viewport (a page shown turned, a scaled viewport)', () => {
    // /Rotate 90 (pdf.js's viewport transform at scale 1 for a 612 × 792 page): user x runs down.
    const rotated = [0, 1, 1, 0, 0, 0];
    const turned = (str: string, across: number, down: number): PdfJsTextItem => ({ str, transform: [0, 10, -10, 0, down, across], width: str.length * 5, height: 10 });
    expect(linesFromItems([turned('right', 200, 100), turned('left', 72, 100), turned('below', 72, 120)], rotated)).toEqual(['left right', 'below']);
    const [scaled] = runsFromItems([item('x', 10, 700, 5)], [2, 0, 0, -2, 0, 1584]);
    expect(scaled).toEqual({ str: 'x', x: 20, y: 184, width: 10, size: 20 });
  });
});

describe('textWeight', () => {
  it('counts printed characters, so a stamped page number is not a text layer', () => {
    expect(textWeight(['Page 1 of 3'])).toBe(8);
    expect(textWeight(['Page 1 of 3']) < MIN_PAGE_CHARS).toBe(true);
    expect(textWeight(['10/31 Interest paid 0.12', 'Page 3 of 3']) >= MIN_PAGE_CHARS).toBe(true);
  });
});
