import { useEffect, useRef, useState, type RefObject } from 'react';
import { tabbables, trapStep } from './focus-trap.ts';
import { hasModalLayer, isTopLayer, popLayer, pushLayer, type LayerStack } from './layer-stack.ts';

let stack: LayerStack = [];
let nextId = 1;
const modalIds = new Set<number>();

/** Whether a modal layer (a dialog) is open: the page's and the shell's shortcuts then stay quiet. */
export const isModalLayerOpen = (): boolean => hasModalLayer(stack, modalIds);

export interface LayerOptions {
  ref: RefObject<HTMLElement | null>;
  /** Modal: Tab and Shift+Tab cycle inside, and focus that escapes (a click) is brought back. */
  modal: boolean;
  /** Escape while this is the top layer; without it Escape still stops at the layer. */
  onEscape?: () => void;
  /** Move focus inside when it opens (to an autoFocus control, else the first tabbable, else the layer). */
  autoFocus?: boolean;
  /** Where focus goes when the layer closes, when the element that opened it is gone or not wanted. */
  returnFocus?: () => HTMLElement | null | undefined;
  /** Prefer returnFocus over the element that had focus when the layer opened. */
  preferReturnFocus?: boolean;
}

/**
 * One open layer (modal, drawer, menu): joins the layer stack while mounted, handles Escape and
 * Tab at the document in the capture phase, so the page's own shortcuts underneath (the table's
 * Escape, j/k) never see them, and gives focus back to whatever opened the layer when it closes.
 */
export function useLayer({ ref, modal, onEscape, autoFocus = true, returnFocus, preferReturnFocus = false }: LayerOptions) {
  const [id] = useState(() => nextId++);
  // Read while rendering: children's autoFocus has already moved focus by the time effects run.
  const [opener] = useState(() => (typeof document === 'undefined' ? null : document.activeElement));
  const latest = useRef({ onEscape, returnFocus, preferReturnFocus, modal });
  useEffect(() => {
    latest.current = { onEscape, returnFocus, preferReturnFocus, modal };
  });

  useEffect(() => {
    stack = pushLayer(stack, id);
    if (latest.current.modal) modalIds.add(id);
    const el = ref.current;
    if (autoFocus && el && !el.contains(document.activeElement)) (tabbables(el)[0] ?? el).focus();

    const onKeyDown = (e: KeyboardEvent) => {
      const box = ref.current;
      if (!box || !isTopLayer(stack, id)) return;
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        latest.current.onEscape?.();
        return;
      }
      if (e.key !== 'Tab' || !latest.current.modal) return;
      const list = tabbables(box);
      const to = trapStep(list.length, list.indexOf(document.activeElement as HTMLElement), e.shiftKey);
      if (to === null) return;
      e.preventDefault();
      (list[to] ?? box).focus();
    };
    const onFocusIn = (e: FocusEvent) => {
      const box = ref.current;
      if (!box || !latest.current.modal || !isTopLayer(stack, id)) return;
      if (e.target instanceof Node && !box.contains(e.target)) (tabbables(box)[0] ?? box).focus();
    };
    document.addEventListener('keydown', onKeyDown, true);
    document.addEventListener('focusin', onFocusIn);
    return () => {
      stack = popLayer(stack, id);
      modalIds.delete(id);
      document.removeEventListener('keydown', onKeyDown, true);
      document.removeEventListener('focusin', onFocusIn);
      const { returnFocus: fallback, preferReturnFocus: prefer } = latest.current;
      const back = opener instanceof HTMLElement && opener.isConnected && opener !== document.body ? opener : null;
      const target = prefer ? (fallback?.() ?? back) : (back ?? fallback?.());
      // Only when focus was inside the layer (or lost with it): a click elsewhere keeps its focus.
      const active = document.activeElement;
      if (target && (!active || active === document.body || el?.contains(active))) target.focus();
    };
    // The layer's identity and first focus are fixed for its lifetime; handlers read `latest`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id]);
}
