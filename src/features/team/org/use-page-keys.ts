import { useEffect } from 'react';
import { isModalLayerOpen } from '../../../components/use-layer.ts';

const inField = (t: EventTarget | null) =>
  t instanceof HTMLElement && (t.isContentEditable || ['INPUT', 'SELECT', 'TEXTAREA'].includes(t.tagName));

/**
 * The organisation pages' two keys (their lists are short plain tables, Tab and the row menus do
 * the rest): '/' focuses the search box (its hint shows it), 'n' opens "New …" when writes are
 * possible. Quiet while typing in a field, with a modifier, or while a dialog is open.
 */
export function usePageKeys(search: () => void, create: () => void, canCreate: boolean): void {
  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || inField(e.target) || isModalLayerOpen()) return;
      if (e.key === '/') {
        e.preventDefault();
        search();
      } else if ((e.key === 'n' || e.key === 'N') && !e.shiftKey && canCreate) {
        e.preventDefault();
        create();
      }
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [search, create, canCreate]);
}
