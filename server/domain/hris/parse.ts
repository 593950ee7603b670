import Papa from 'papaparse';
import { z } from 'zod';
import {
  HRIS_ACTIVE_WORDS, HRIS_COLUMN_ALIASES, HRIS_COLUMNS, HRIS_REQUIRED_COLUMNS, HRIS_TERMINATED_WORDS, MAX_HRIS_ROWS,
  type HrisColumn, type HrisRow, type HrisRowError,
} from '../../../schema/hris.ts';
import { foldEmail } from '../../auth/email-address.ts';

/**
 * An HRIS people file (CSV) read whole: the header mapped to our columns through the usual
 * export names (schema/hris.ts), every row checked, duplicates found. Any problem refuses the whole
 * file with one message per row and column: a file half understood would half change the team.
 * References between people (managers, reporting loops) are checked against the business by
 * plan.ts, which has the people it already holds.
 */
/** `columns`: the columns the file has (a column it lacks is left as it is in Ledgerline; a blank cell clears). */
export type ParsedFile = { ok: true; columns: HrisColumn[]; rows: HrisRow[] } | { ok: false; errors: HrisRowError[] };

const squash = (s: string) => s.trim().toLowerCase().replace(/[\s_\-.]+/g, ' ').replace(/\s+/g, ' ');
const ALIAS_TO_COLUMN = new Map<string, HrisColumn>(
  HRIS_COLUMNS.flatMap((col) => HRIS_COLUMN_ALIASES[col].map((alias) => [squash(alias), col] as const)),
);
const emailSchema = z.email();

/** ISO `2026-03-01`, or the US `3/1/2026` spreadsheets write; a real calendar day, as ISO. */
export function hrisDate(raw: string): string | null {
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(raw);
  const [y, m, d] = iso ? [iso[1], iso[2], iso[3]] : us ? [us[3], us[1], us[2]] : [];
  if (!y || !m || !d) return null;
  const value = `${y}-${m.padStart(2, '0')}-${d.padStart(2, '0')}`;
  const date = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value ? null : value;
}

function statusOf(raw: string): 'active' | 'terminated' | null {
  const word = squash(raw);
  if ((HRIS_ACTIVE_WORDS as readonly string[]).includes(word)) return 'active';
  if ((HRIS_TERMINATED_WORDS as readonly string[]).includes(word)) return 'terminated';
  return null;
}

function readHeader(header: string[]): { columns: HrisColumn[]; errors: HrisRowError[] } {
  const errors: HrisRowError[] = [];
  const columns: HrisColumn[] = [];
  header.forEach((name) => {
    const col = ALIAS_TO_COLUMN.get(squash(name));
    if (!col) {
      errors.push({ row: 1, column: name, message: `Unknown column "${name.trim()}". The columns are ${HRIS_COLUMNS.join(', ')}.` });
    } else if (columns.includes(col)) {
      errors.push({ row: 1, column: name, message: `"${name.trim()}" names the ${col} column a second time.` });
    }
    columns.push(col ?? ('' as HrisColumn));
  });
  for (const need of HRIS_REQUIRED_COLUMNS) {
    if (!columns.includes(need)) errors.push({ row: 1, column: need, message: `The file needs a "${need}" column.` });
  }
  return { columns, errors };
}

function readRow(cells: string[], columns: HrisColumn[], row: number, errors: HrisRowError[]): HrisRow {
  const raw = Object.fromEntries(HRIS_COLUMNS.map((c) => [c, ''])) as Record<HrisColumn, string>;
  columns.forEach((col, i) => {
    if (col) raw[col] = (cells[i] ?? '').trim();
  });
  const fail = (column: HrisColumn, message: string) => errors.push({ row, column, message });
  for (const col of HRIS_REQUIRED_COLUMNS) if (raw[col] === '') fail(col, `${col} is empty.`);
  if (raw.email !== '' && !emailSchema.safeParse(raw.email).success) fail('email', `"${raw.email}" is not an email address.`);
  if (raw.manager_email !== '' && !emailSchema.safeParse(raw.manager_email).success) {
    fail('manager_email', `"${raw.manager_email}" is not an email address.`);
  }
  const status = raw.status === '' ? 'active' : statusOf(raw.status);
  if (raw.status !== '' && !status) fail('status', `"${raw.status}" is not a status: use active or terminated.`);
  const dates = { start_date: null as string | null, end_date: null as string | null };
  for (const col of ['start_date', 'end_date'] as const) {
    if (raw[col] === '') continue;
    dates[col] = hrisDate(raw[col]);
    if (!dates[col]) fail(col, `"${raw[col]}" is not a date: use YYYY-MM-DD (or M/D/YYYY).`);
  }
  for (const col of ['first_name', 'last_name', 'title', 'department', 'location'] as const) {
    if (raw[col].length > 200) fail(col, `${col} is longer than 200 characters.`);
  }
  const blank = (v: string) => (v === '' ? null : v);
  return {
    row, employee_id: raw.employee_id, email: foldEmail(raw.email), first_name: raw.first_name, last_name: raw.last_name,
    title: blank(raw.title), department: blank(raw.department), location: blank(raw.location),
    manager_email: raw.manager_email === '' ? null : foldEmail(raw.manager_email), manager_employee_id: blank(raw.manager_employee_id),
    status: status ?? 'active', start_date: dates.start_date, end_date: dates.end_date,
  };
}

/** Two rows of one person (by employee id or by email) are a mistake in the export, never merged. */
function findDuplicates(rows: HrisRow[], errors: HrisRowError[]): void {
  for (const key of ['employee_id', 'email'] as const) {
    const first = new Map<string, number>();
    for (const r of rows) {
      const v = key === 'employee_id' ? r[key] : r[key].toLowerCase();
      if (v === '') continue;
      const seen = first.get(v);
      if (seen !== undefined) errors.push({ row: r.row, column: key, message: `${key} "${r[key]}" is also on row ${seen}.` });
      else first.set(v, r.row);
    }
  }
}

export function parseHrisCsv(text: string): ParsedFile {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy' });
  const broken = parsed.errors.find((e) => e.type !== 'Delimiter');
  if (broken) {
    return { ok: false, errors: [{ row: (broken.row ?? 0) + 1, column: null, message: `The file could not be read as CSV: ${broken.message}.` }] };
  }
  const [header, ...lines] = parsed.data;
  if (!header || lines.length === 0) return { ok: false, errors: [{ row: 0, column: null, message: 'The file has no people under its header row.' }] };
  if (lines.length > MAX_HRIS_ROWS) {
    return { ok: false, errors: [{ row: 0, column: null, message: `The file has ${lines.length} people; at most ${MAX_HRIS_ROWS} are imported at a time.` }] };
  }
  const { columns, errors } = readHeader(header);
  if (errors.length > 0) return { ok: false, errors };
  const rows = lines.map((cells, i) => readRow(cells, columns, i + 2, errors));
  findDuplicates(rows, errors);
  return errors.length > 0 ? { ok: false, errors: errors.sort((a, b) => a.row - b.row) } : { ok: true, columns, rows };
}
