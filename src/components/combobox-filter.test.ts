import { describe, expect, it } from 'vitest';
import { filterOptions, initialActive } from './combobox-filter.ts';

const LEADING = [{ value: '', label: 'None' }];
const OPTIONS = [
  { value: '6000', label: '6000 Travel' },
  { value: '6100', label: '6100 Meals' },
  { value: '6200', label: '6200 Software' },
  { value: '7000', label: 'Airfare (travel)' },
];

describe('filterOptions', () => {
  it('lists everything when nothing is typed or the text is the current choice', () => {
    expect(filterOptions(LEADING, OPTIONS, '', '')).toHaveLength(5);
    expect(filterOptions(LEADING, OPTIONS, '6100 Meals', '6100 Meals')).toHaveLength(5);
  });

  it('keeps matches, those starting with the text first, and the leading choices on top', () => {
    expect(filterOptions(LEADING, OPTIONS, 'travel', '').map((o) => o.value)).toEqual(['', '6000', '7000']);
    expect(filterOptions(LEADING, OPTIONS, 'air', '').map((o) => o.value)).toEqual(['', '7000']);
    expect(filterOptions(LEADING, OPTIONS, '62', '').map((o) => o.value)).toEqual(['', '6200']);
  });

  it('puts labels that start with the text before labels that only contain it', () => {
    const list = [{ value: 'b', label: 'Big travel' }, { value: 't', label: 'Travel' }];
    expect(filterOptions([], list, 'tra', '').map((o) => o.value)).toEqual(['t', 'b']);
  });

  it('is case-insensitive and ignores surrounding spaces', () => {
    expect(filterOptions([], OPTIONS, '  MEALS ', '').map((o) => o.value)).toEqual(['6100']);
  });
});

describe('initialActive', () => {
  const list = [...LEADING, ...OPTIONS];
  it('highlights the current value when the list opens', () => {
    expect(initialActive(list, 1, '6200', false)).toBe(3);
  });
  it('highlights the first match (past the leading choices) once something is typed', () => {
    expect(initialActive(list, 1, '6200', true)).toBe(1);
  });
  it('falls back to the first entry, and to none in an empty list', () => {
    expect(initialActive(list, 1, 'gone', false)).toBe(0);
    expect(initialActive([], 0, '', true)).toBe(-1);
  });
});
