import { useEffect, useRef } from 'react';
import { isModalLayerOpen } from '../components/use-layer.ts';
import { matchShortcut, type ShortcutId } from '../lib/shortcuts.ts';

/** Typing somewhere: a text field, a select or an editable element (checkboxes and buttons are not). */
export function isTextEntry(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(target.type);
}

/**
 * The shell's global keys from the registry ('?' shortcuts, ⌘K/Ctrl+K palette): never while a
 * dialog is open (the layer stack) or inside an open menu (its type-ahead), and a key without a
 * modifier never while typing.
 */
export function useGlobalShortcuts(handlers: Partial<Record<ShortcutId, () => void>>): void {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.repeat || isModalLayerOpen()) return;
      if (e.target instanceof Element && e.target.closest('[role="menu"]')) return;
      const shortcut = matchShortcut(
        { key: e.key, shiftKey: e.shiftKey, ctrlKey: e.ctrlKey, metaKey: e.metaKey, altKey: e.altKey, inField: isTextEntry(e.target) },
        ['global'],
      );
      const handler = shortcut && latest.current[shortcut.id];
      if (!handler) return;
      e.preventDefault();
      handler();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}
