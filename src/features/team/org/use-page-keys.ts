import { useEffect } from 'react';
import { isModalLayerOpen } from '../../../components/use-layer.ts';
import { isTyping } from '../../../lib/list/use-page-shortcuts.ts';

/**
 * The organisation pages' own key ('/' and the list's keys come with the list): 'n' opens
 * "New …" when writes are possible. Quiet while typing in a field, with a modifier, or while a
 * dialog is open.
 */
export function usePageKeys(create: () => void, canCreate: boolean): void {
  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target) || isModalLayerOpen()) return;
      if ((e.key === 'n' || e.key === 'N') && !e.shiftKey && canCreate) {
        e.preventDefault();
        create();
      }
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [create, canCreate]);
}
