import { useLayoutEffect, useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import {
  elementScroll,
  observeElementOffset,
  observeElementRect,
  observeWindowOffset,
  observeWindowRect,
  windowScroll,
  type Virtualizer,
} from '@tanstack/react-virtual';

/**
 * Issue 25 item 14: on a phone a list follows the page's scroll (the document scrolls, the list is
 * as tall as its rows), so the user has the whole screen and native momentum scrolling; on a
 * desktop it keeps its own scroll box. One virtualizer serves both: its scroll element is either
 * the grid's body or the window, and these helpers answer for whichever it is.
 *
 * The virtualizer's types want an Element as the scroll element; the window is passed through
 * them (`asScroller`) and every helper here checks which one it got.
 */
export type GridScroller = Element;
type GridVirtualizer = Virtualizer<GridScroller, Element>;
type Rect = { width: number; height: number };

const isWindow = (el: unknown): el is Window => typeof window !== 'undefined' && el === window;

/** The window, typed as the virtualizer's scroll element. */
export const windowScroller = (): GridScroller | null => (typeof window === 'undefined' ? null : (window as unknown as GridScroller));

export function observeScrollerRect(instance: GridVirtualizer, cb: (rect: Rect) => void): (() => void) | undefined {
  return isWindow(instance.scrollElement)
    ? observeWindowRect(instance as unknown as Virtualizer<Window, Element>, cb)
    : observeElementRect(instance, cb);
}

export function observeScrollerOffset(instance: GridVirtualizer, cb: (offset: number, isScrolling: boolean) => void): (() => void) | undefined {
  return isWindow(instance.scrollElement)
    ? observeWindowOffset(instance as unknown as Virtualizer<Window, Element>, cb)
    : observeElementOffset(instance, cb);
}

export function scrollScrollerTo(offset: number, options: { adjustments?: number; behavior?: ScrollBehavior }, instance: GridVirtualizer): void {
  if (isWindow(instance.scrollElement)) windowScroll(offset, options, instance as unknown as Virtualizer<Window, Element>);
  else elementScroll(offset, options, instance);
}

/** Where a list's rows start and what covers the page's edges, when the page scrolls it. */
export interface PagePlacement {
  /** The rows' top in document coordinates (the virtualizer's scrollMargin). */
  rowsTop: number;
  /** What covers the top of the viewport (the sticky top bar; the grid adds its own sticky header). */
  coverTop: number;
  /** What covers its bottom (the phone's bottom navigation). */
  coverBottom: number;
}

/**
 * Measures where `spacer` (the rows' box) lies in the document, and the page's scroll padding
 * (the stylesheet's `scroll-padding` on the root says what sticky bars cover, for the browser's
 * own scrolling and for the virtualizer's scrollToIndex alike).
 */
function measurePagePlacement(spacer: HTMLElement): PagePlacement {
  const root = getComputedStyle(document.documentElement);
  const px = (v: string) => {
    const n = parseFloat(v);
    return Number.isFinite(n) ? n : 0;
  };
  return {
    rowsTop: Math.round(spacer.getBoundingClientRect().top + window.scrollY),
    coverTop: px(root.scrollPaddingTop),
    coverBottom: px(root.scrollPaddingBottom),
  };
}

const samePlacement = (a: PagePlacement, b: PagePlacement) =>
  a.rowsTop === b.rowsTop && a.coverTop === b.coverTop && a.coverBottom === b.coverBottom;

const NO_PLACEMENT: PagePlacement = { rowsTop: 0, coverTop: 0, coverBottom: 0 };

/**
 * The list's placement in the page while `enabled` (the page scrolls it), measured before the next
 * paint and again whenever the document's size changes (a bar, a banner or filters opening above
 * the list move it, and they make the document taller or shorter) or the window's.
 *
 * The first read is in the next frame's animation callback, not in the layout effect: there the
 * browser lays out the new page once for its own paint, and the placement renders (flushSync) before
 * that paint. Read in the layout effect, it forced the whole new page's style and layout inside
 * React's commit (issue 33: ≈ 45 ms of the transactions page's commit task on a phone's CPU, on top
 * of the commit itself). Not in a ResizeObserver callback (issue 33, tried): that runs after the
 * frame's layout, and the list was painted at the wrong place.
 */
export function usePagePlacement(enabled: boolean, spacerRef: RefObject<HTMLElement | null>): PagePlacement {
  const [placement, setPlacement] = useState(NO_PLACEMENT);
  useLayoutEffect(() => {
    if (!enabled) return;
    const update = () => {
      const spacer = spacerRef.current;
      if (!spacer) return;
      const next = measurePagePlacement(spacer);
      setPlacement((prev) => (samePlacement(prev, next) ? prev : next));
    };
    const frame = requestAnimationFrame(() => flushSync(update));
    if (typeof ResizeObserver === 'undefined') return () => cancelAnimationFrame(frame);
    const observer = new ResizeObserver(update);
    observer.observe(document.documentElement);
    observer.observe(document.body);
    window.addEventListener('resize', update);
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
      window.removeEventListener('resize', update);
    };
  }, [enabled, spacerRef]);
  return placement;
}
