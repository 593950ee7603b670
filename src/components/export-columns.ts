import type { ExportSettings } from '../../schema/export-settings.ts';

/** One line of the Columns dialog: a column, whether it is exported, in the export's order. */
export interface ColumnLine {
  key: string;
  header: string;
  on: boolean;
}

/** The chosen columns first, in their order, then the others in the table's default order (off). */
export function columnLines(settings: Pick<ExportSettings, 'columns' | 'available'>): ColumnLine[] {
  const headers = new Map(settings.available.map((c) => [c.key, c.header]));
  const chosen = settings.columns.filter((k) => headers.has(k));
  const on = new Set(chosen);
  return [
    ...chosen.map((key) => ({ key, header: headers.get(key)!, on: true })),
    ...settings.available.filter((c) => !on.has(c.key)).map((c) => ({ key: c.key, header: c.header, on: false })),
  ];
}

/** The lines with line `i` moved by `delta` (−1 up, +1 down); a move past either end changes nothing. */
export function moveLine(lines: readonly ColumnLine[], i: number, delta: -1 | 1): ColumnLine[] {
  const j = i + delta;
  if (i < 0 || i >= lines.length || j < 0 || j >= lines.length) return [...lines];
  const next = [...lines];
  [next[i], next[j]] = [next[j]!, next[i]!];
  return next;
}

/** What PUT sends: the keys switched on, in the lines' order. */
export const chosenKeys = (lines: readonly ColumnLine[]): string[] => lines.filter((l) => l.on).map((l) => l.key);
