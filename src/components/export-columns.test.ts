import { describe, expect, it } from 'vitest';
import { availableColumns } from '../../schema/export-settings.ts';
import { chosenKeys, columnLines, moveLine } from './export-columns.ts';

describe('the Columns dialog lines', () => {
  const available = availableColumns('cards');
  it('lists the chosen columns first in their order, then the rest off in the default order; drops unknown keys', () => {
    const lines = columnLines({ columns: ['status', 'card', 'gone'], available });
    expect(lines.slice(0, 3)).toEqual([
      { key: 'status', header: 'Status', on: true },
      { key: 'card', header: 'Card', on: true },
      { key: 'last_four', header: 'Last four', on: false },
    ]);
    expect(lines).toHaveLength(available.length);
    expect(chosenKeys(lines)).toEqual(['status', 'card']);
  });
  it('moves a line up or down, never past either end', () => {
    const lines = columnLines({ columns: ['status', 'card'], available });
    expect(chosenKeys(moveLine(lines, 1, -1))).toEqual(['card', 'status']);
    expect(moveLine(lines, 0, -1)).toEqual(lines);
    expect(moveLine(lines, lines.length - 1, 1)).toEqual(lines);
    const switchedOn = lines.map((l) => (l.key === 'limit' ? { ...l, on: true } : l));
    expect(chosenKeys(moveLine(switchedOn, switchedOn.findIndex((l) => l.key === 'limit'), -1))).toEqual(['status', 'card', 'limit']);
  });
});
