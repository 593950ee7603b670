import { useEffect, useRef } from 'react';
import { isModalLayerOpen } from '../../components/use-layer.ts';
import { matchShortcut, type ShortcutId, type ShortcutScope } from '../shortcuts.ts';

/** Typing in a text field, a select or an editable element (where a letter is a letter, not a command). */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(target.type);
}

/**
 * A page's own keys from the shortcut registry (`scope`'s entries among `ids`): `onKey` gets the
 * matched id, unless the key is typed into a field, pressed in a menu or a tab list, held down,
 * or a modal layer is open. Listens on the document while `enabled`; `onKey` may change freely.
 */
export function usePageShortcuts<I extends ShortcutId>(enabled: boolean, scope: ShortcutScope, ids: readonly I[], onKey: (id: I) => void): void {
  const latest = useRef(onKey);
  useEffect(() => {
    latest.current = onKey;
  });
  const wanted = ids.join(' ');
  useEffect(() => {
    if (!enabled) return;
    const accepted = new Set(wanted.split(' '));
    const listener = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.repeat || isModalLayerOpen()) return;
      if (e.target instanceof Element && e.target.closest('[role="menu"], [role="tablist"]')) return;
      const info = { key: e.key, shiftKey: e.shiftKey, ctrlKey: e.ctrlKey, metaKey: e.metaKey, altKey: e.altKey, inField: isTyping(e.target) };
      const id = matchShortcut(info, [scope])?.id;
      if (!id || !accepted.has(id)) return;
      e.preventDefault();
      latest.current(id as I);
    };
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, [enabled, scope, wanted]);
}
