import { useSyncExternalStore } from 'react';

/**
 * The layout breakpoint (issue 8): below 768 px the app uses its phone layout (bottom navigation,
 * compact header, the transactions list as cards, sheets instead of side panels). The stylesheet
 * uses the same number in its `@media (max-width: 767px)` blocks.
 */
export const PHONE_MAX_WIDTH = 767;
export const PHONE_QUERY = `(max-width: ${PHONE_MAX_WIDTH}px)`;
/** A touch-first device: no hover, a coarse pointer (keyboard hints are hidden there). */
export const TOUCH_QUERY = '(hover: none) and (pointer: coarse)';

/** The subset of `window.matchMedia` the hook needs (injectable for tests). */
export type MatchMedia = (query: string) => Pick<MediaQueryList, 'matches' | 'addEventListener' | 'removeEventListener'>;

const defaultMatchMedia = (): MatchMedia | null =>
  typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? (q) => window.matchMedia(q) : null;

/** A subscribe/read pair over one media query, for useSyncExternalStore (pure; tested). */
export function mediaQueryStore(query: string, matchMedia: MatchMedia | null = defaultMatchMedia()) {
  return {
    subscribe(onChange: () => void): () => void {
      if (!matchMedia) return () => undefined;
      const list = matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    read(): boolean {
      return matchMedia ? matchMedia(query).matches : false;
    },
  };
}

const stores = new Map<string, ReturnType<typeof mediaQueryStore>>();

/** Whether `query` matches now; re-renders when it starts or stops matching. */
export function useMediaQuery(query: string): boolean {
  let store = stores.get(query);
  if (!store) {
    store = mediaQueryStore(query);
    stores.set(query, store);
  }
  return useSyncExternalStore(store.subscribe, store.read, () => false);
}

/** The layout switch for components that must render differently on a phone (not only restyle). */
export type Layout = 'phone' | 'desktop';

export function useLayout(): Layout {
  return useMediaQuery(PHONE_QUERY) ? 'phone' : 'desktop';
}
