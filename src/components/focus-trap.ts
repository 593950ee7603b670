/** What a modal's Tab key may land on (disabled controls and hidden elements are skipped). */
const TABBABLE =
  'a[href], button:not(:disabled), input:not(:disabled):not([type="hidden"]), select:not(:disabled), ' +
  'textarea:not(:disabled), summary, [tabindex]:not([tabindex="-1"])';

export function tabbables(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(TABBABLE)].filter(
    (el) => el.tabIndex >= 0 && el.getClientRects().length > 0,
  );
}

/**
 * Where Tab (or Shift+Tab) must send focus so it never leaves a modal: the index of the
 * tabbable to focus, -1 for the modal itself (nothing inside can take focus), or null when the
 * browser's own move stays inside. `current` is the focused tabbable's index, -1 when focus is
 * on the modal itself or somewhere outside it.
 */
export function trapStep(count: number, current: number, shift: boolean): number | null {
  if (count === 0) return -1;
  if (current < 0) return shift ? count - 1 : 0;
  if (shift && current === 0) return count - 1;
  if (!shift && current === count - 1) return 0;
  return null;
}
