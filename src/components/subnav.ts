import { useLayoutEffect, useRef, type RefObject } from 'react';

/**
 * A section's sub-navigation scrolls sideways inside itself when its tabs do not fit (a phone):
 * this keeps the current page's tab (`aria-current="page"`) in view when the page opens, so
 * "Bank accounts" or "Flex" is not hidden past the screen's edge. Scrolls the bar only, never
 * the page. Answers the ref for the `<nav>`.
 */
export function useCurrentTabInView(current: string): RefObject<HTMLElement | null> {
  const ref = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    const nav = ref.current;
    const tab = nav?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!nav || !tab || nav.scrollWidth <= nav.clientWidth) return;
    const bar = nav.getBoundingClientRect();
    const box = tab.getBoundingClientRect();
    const margin = 16;
    if (box.right > bar.right) nav.scrollLeft += box.right - bar.right + margin;
    else if (box.left < bar.left) nav.scrollLeft -= bar.left - box.left + margin;
  }, [current]);
  return ref;
}
