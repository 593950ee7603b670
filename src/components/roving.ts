/**
 * Keyboard movement among a row of items (menu items, tabs): pure, so the rules are tested
 * without a DOM. `current` is the focused item's index (-1: none); the answer is the index to
 * focus, or null when the key is not a movement key.
 */
export type Orientation = 'vertical' | 'horizontal';

export function rovingTarget(key: string, current: number, count: number, orientation: Orientation = 'vertical'): number | null {
  if (count === 0) return null;
  const [prev, next] = orientation === 'vertical' ? ['ArrowUp', 'ArrowDown'] : ['ArrowLeft', 'ArrowRight'];
  switch (key) {
    case next:
      return current < 0 ? 0 : (current + 1) % count;
    case prev:
      return current < 0 ? count - 1 : (current - 1 + count) % count;
    case 'Home':
    case 'PageUp':
      return 0;
    case 'End':
    case 'PageDown':
      return count - 1;
    default:
      return null;
  }
}

/**
 * Type-ahead: a printable character moves to the next item (after the current one, wrapping)
 * whose label starts with it; null when none does or the key is not one character.
 */
export function typeAheadTarget(key: string, current: number, labels: readonly string[]): number | null {
  if (key.length !== 1 || key === ' ') return null;
  const ch = key.toLowerCase();
  for (let step = 1; step <= labels.length; step++) {
    const i = (current + step + labels.length) % labels.length;
    if (labels[i]?.trim().toLowerCase().startsWith(ch)) return i;
  }
  return null;
}
