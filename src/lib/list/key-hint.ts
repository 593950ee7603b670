import { footerHint, SHORTCUTS, type ShortcutId, type ShortcutScope } from '../shortcuts.ts';

/**
 * A list's keyboard hint (under the grid): the list keys it answers — without selection when its
 * rows cannot be selected, without Enter when a row opens nothing, without coding unless it codes,
 * without `/` when it has no search box — then its own scope's and the global ones.
 */
export function listKeyHint(o: { select?: boolean; open?: boolean; code?: boolean; search?: boolean; scopes?: readonly ShortcutScope[] }): string {
  const { select = false, open = true, code = false, search = true, scopes = [] } = o;
  const left: ShortcutId[] = [
    ...(select ? [] : ['list.toggle' as const]), ...(open ? [] : ['list.open' as const]),
    ...(code ? [] : ['list.code' as const]), ...(search ? [] : ['list.search' as const]),
  ];
  return footerHint(['list', ...scopes, 'global'], SHORTCUTS.filter((s) => !left.includes(s.id)));
}
