import { footerHint, SHORTCUTS, type ShortcutId, type ShortcutScope } from '../shortcuts.ts';

/**
 * A list's keyboard hint (under the grid): the list keys it answers — without selection when its
 * rows cannot be selected, without coding unless it codes — then its own scope's and the global ones.
 */
export function listKeyHint({ select = false, code = false, scopes = [] }: { select?: boolean; code?: boolean; scopes?: readonly ShortcutScope[] }): string {
  const left: ShortcutId[] = [...(select ? [] : ['list.toggle' as const]), ...(code ? [] : ['list.code' as const])];
  return footerHint(['list', ...scopes, 'global'], SHORTCUTS.filter((s) => !left.includes(s.id)));
}
