/**
 * Test-only (imported by test files alone). Readers for the export tests (issue 24 item 8),
 * written independently of the exporters (which use papaparse): an RFC 4180 CSV reader and the
 * definition of a cell a spreadsheet would run.
 */

/** The independent definition: would a spreadsheet read this cell as a formula? */
export function runsAsFormula(cell: string): boolean {
  const lead = /^[\s\u200b\ufeff]*/.exec(cell)![0];
  if (/[\t\r]/.test(lead)) return true;
  return ['=', '+', '-', '@', '\uff1d', '\uff0b', '\uff0d', '\uff20'].some((t) => cell.slice(lead.length).startsWith(t));
}

/** RFC 4180: fields split by commas, records by CRLF (or LF); a quoted field may hold anything, "" is a quote. */
export function readCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let fieldStarted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endField = () => {
    record.push(field);
    field = '';
    fieldStarted = false;
  };
  for (; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch !== '"') field += ch;
      else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
      continue;
    }
    if (ch === '"' && !fieldStarted) {
      quoted = true;
      fieldStarted = true;
    } else if (ch === ',') endField();
    else if (ch === '\n' || (ch === '\r' && text[i + 1] === '\n')) {
      if (ch === '\r') i++;
      endField();
      records.push(record);
      record = [];
    } else {
      field += ch;
      fieldStarted = true;
    }
  }
  if (fieldStarted || record.length > 0) {
    endField();
    records.push(record);
  }
  return records;
}

