import type { SelectOption } from './select-field.tsx';

/**
 * The options a combobox lists for what is typed: every option while the text is the current
 * choice's label (or empty), else those whose label contains the text (case-insensitive), the
 * ones starting with it first. Leading choices ("No change", "None") are always kept on top.
 */
export function filterOptions(
  leading: readonly SelectOption[],
  options: readonly SelectOption[],
  query: string,
  currentLabel: string,
): SelectOption[] {
  const q = query.trim().toLowerCase();
  if (!q || query === currentLabel) return [...leading, ...options];
  const starts: SelectOption[] = [];
  const contains: SelectOption[] = [];
  for (const o of options) {
    const label = o.label.toLowerCase();
    if (label.startsWith(q)) starts.push(o);
    else if (label.includes(q)) contains.push(o);
  }
  return [...leading, ...starts, ...contains];
}

/** The option to highlight when the list opens or the text changes: the first match, else the current value. */
export function initialActive(list: readonly SelectOption[], leadingCount: number, value: string, typed: boolean): number {
  if (list.length === 0) return -1;
  if (typed) return list.length > leadingCount ? leadingCount : 0;
  const at = list.findIndex((o) => o.value === value);
  return at >= 0 ? at : 0;
}
