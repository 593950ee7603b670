/**
 * The one registry of keyboard shortcuts (issue 8, "Keyboard-first"). The handlers match key
 * events against it (`matchShortcut`: the shell's global keys, `lib/list/keyboard.ts` for a
 * list's keys) and the "Keyboard shortcuts" dialog and the table's footer hint are generated
 * from it, so a key is described exactly where it is bound. Pure; tested.
 */
export type ShortcutGroup = 'Global' | 'Transactions list' | 'Reimbursements' | 'Approvals' | 'Cards';
/**
 * Where a shortcut answers: anywhere in the signed-in app, on a page with a list table, or only
 * on the reimbursements page (its "New" key), or only in the approvals inbox (approve, reject),
 * or only in the managed cards grid (lock, unlock).
 */
export type ShortcutScope = 'global' | 'list' | 'reimbursements' | 'approvals' | 'cards';

export type ShortcutId =
  | 'help'
  | 'palette'
  | 'list.extendDown'
  | 'list.extendUp'
  | 'list.down'
  | 'list.up'
  | 'list.pageDown'
  | 'list.pageUp'
  | 'list.first'
  | 'list.last'
  | 'list.toggle'
  | 'list.open'
  | 'list.close'
  | 'list.search'
  | 'list.code'
  | 'reimbursements.new'
  | 'approvals.approve'
  | 'approvals.reject'
  | 'cards.lock'
  | 'cards.unlock';

export interface Shortcut {
  id: ShortcutId;
  /** `KeyboardEvent.key` values that trigger it (letters compare case-insensitively). */
  keys: readonly string[];
  /** Ctrl (or ⌘ on a Mac) must be held. Without it, Ctrl, ⌘ and Alt must not be. */
  mod?: boolean;
  /** true: Shift must be held; false: must not be; absent: either (e.g. '?' is Shift+/). */
  shift?: boolean;
  /** Also answers while typing in a field (Escape leaves it; ⌘K opens the palette). */
  inField?: boolean;
  label: string;
  group: ShortcutGroup;
  scope: ShortcutScope;
  /** A word for the table's footer hint ("j/k move"), when the shortcut is worth one. */
  hint?: string;
}

/** Order matters: the first match wins, so a Shift variant comes before its plain twin. */
export const SHORTCUTS: readonly Shortcut[] = [
  { id: 'help', keys: ['?'], label: 'Show keyboard shortcuts', group: 'Global', scope: 'global', hint: 'shortcuts' },
  { id: 'palette', keys: ['k'], mod: true, inField: true, label: 'Open the command palette', group: 'Global', scope: 'global' },
  { id: 'list.extendDown', keys: ['j', 'ArrowDown'], shift: true, label: 'Extend the selection down', group: 'Transactions list', scope: 'list' },
  { id: 'list.extendUp', keys: ['k', 'ArrowUp'], shift: true, label: 'Extend the selection up', group: 'Transactions list', scope: 'list' },
  { id: 'list.down', keys: ['j', 'ArrowDown'], shift: false, label: 'Next row', group: 'Transactions list', scope: 'list', hint: 'move' },
  { id: 'list.up', keys: ['k', 'ArrowUp'], shift: false, label: 'Previous row', group: 'Transactions list', scope: 'list', hint: 'move' },
  { id: 'list.pageDown', keys: ['PageDown'], label: 'Down a page', group: 'Transactions list', scope: 'list' },
  { id: 'list.pageUp', keys: ['PageUp'], label: 'Up a page', group: 'Transactions list', scope: 'list' },
  { id: 'list.first', keys: ['Home'], label: 'First row', group: 'Transactions list', scope: 'list' },
  { id: 'list.last', keys: ['End'], label: 'Last row', group: 'Transactions list', scope: 'list' },
  { id: 'list.toggle', keys: ['x', ' '], label: 'Select or deselect the row', group: 'Transactions list', scope: 'list', hint: 'select' },
  { id: 'list.open', keys: ['Enter'], label: 'Open the row’s details', group: 'Transactions list', scope: 'list', hint: 'open' },
  { id: 'list.close', keys: ['Escape'], inField: true, label: 'Close the details, else clear the selection', group: 'Transactions list', scope: 'list' },
  { id: 'list.search', keys: ['/'], label: 'Search transactions', group: 'Transactions list', scope: 'list', hint: 'search' },
  { id: 'list.code', keys: ['c'], shift: false, label: 'Code the selected transactions', group: 'Transactions list', scope: 'list', hint: 'code' },
  { id: 'reimbursements.new', keys: ['n'], shift: false, label: 'New reimbursement', group: 'Reimbursements', scope: 'reimbursements', hint: 'new' },
  { id: 'approvals.approve', keys: ['a'], shift: false, label: 'Approve the selected claims (else the current one)', group: 'Approvals', scope: 'approvals', hint: 'approve' },
  { id: 'approvals.reject', keys: ['r'], shift: false, label: 'Reject the selected claims (else the current one)', group: 'Approvals', scope: 'approvals', hint: 'reject' },
  { id: 'cards.lock', keys: ['l'], shift: false, label: 'Lock the selected cards (else the current one)', group: 'Cards', scope: 'cards', hint: 'lock' },
  { id: 'cards.unlock', keys: ['u'], shift: false, label: 'Unlock the selected cards (else the current one)', group: 'Cards', scope: 'cards', hint: 'unlock' },
];

export const SHORTCUT_GROUPS: readonly ShortcutGroup[] = ['Global', 'Transactions list', 'Reimbursements', 'Approvals', 'Cards'];

/** What a handler knows about a key event. */
export interface KeyInfo {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  /** The event target is a text field, select or editable element. */
  inField: boolean;
}

const sameKey = (a: string, b: string) => a === b || (a.length === 1 && b.length === 1 && a.toLowerCase() === b.toLowerCase());

export function matchesShortcut(s: Shortcut, k: KeyInfo): boolean {
  if (!s.keys.some((key) => sameKey(key, k.key))) return false;
  if (k.inField && !s.inField) return false;
  if (s.keys.includes('Escape')) return true; // Escape leaves whatever it is in, modifiers or not
  if (s.mod ? !(k.ctrlKey || k.metaKey) || k.altKey : k.ctrlKey || k.metaKey || k.altKey) return false;
  return s.shift === undefined || s.shift === k.shiftKey;
}

/** The first shortcut of one of `scopes` that the key event triggers, or null. */
export function matchShortcut(k: KeyInfo, scopes: readonly ShortcutScope[]): Shortcut | null {
  return SHORTCUTS.find((s) => scopes.includes(s.scope) && matchesShortcut(s, k)) ?? null;
}

export const shortcutById = (id: ShortcutId): Shortcut => {
  const found = SHORTCUTS.find((s) => s.id === id);
  if (!found) throw new Error(`Unknown shortcut ${id}`);
  return found;
};

const KEY_NAMES: Record<string, string> = {
  ArrowDown: '↓',
  ArrowUp: '↑',
  ' ': 'Space',
  Escape: 'Esc',
  PageDown: 'Page Down',
  PageUp: 'Page Up',
};

/** How a shortcut is written: one entry per alternative key, each a list of keys pressed together. */
export function shortcutKeys(s: Shortcut, mac: boolean): string[][] {
  return s.keys.map((key) => {
    const name = KEY_NAMES[key] ?? (key.length === 1 && s.mod ? key.toUpperCase() : key);
    return [...(s.mod ? [mac ? '⌘' : 'Ctrl'] : []), ...(s.shift ? ['Shift'] : []), name];
  });
}

/** The registry by group, in the dialog's order (empty groups left out). */
export function shortcutsByGroup(list: readonly Shortcut[] = SHORTCUTS): { group: ShortcutGroup; shortcuts: Shortcut[] }[] {
  return SHORTCUT_GROUPS.map((group) => ({ group, shortcuts: list.filter((s) => s.group === group) })).filter((g) => g.shortcuts.length > 0);
}

/**
 * The one-line hint under a table ("j/k move · x select · … · ? shortcuts"): the first key of
 * each hinted shortcut, shortcuts sharing a word joined by "/".
 */
export function footerHint(scopes: readonly ShortcutScope[], list: readonly Shortcut[] = SHORTCUTS): string {
  const words = new Map<string, string[]>();
  const ordered = [...list.filter((s) => s.scope !== 'global'), ...list.filter((s) => s.scope === 'global')];
  for (const s of ordered) {
    if (!s.hint || !scopes.includes(s.scope)) continue;
    words.set(s.hint, [...(words.get(s.hint) ?? []), KEY_NAMES[s.keys[0]!] ?? s.keys[0]!]);
  }
  return [...words].map(([word, keys]) => `${keys.join('/')} ${word}`).join(' · ');
}

/** Whether this is a Mac-like platform (⌘ rather than Ctrl). */
export const isMacPlatform = (platform: string): boolean => /mac|iphone|ipad|ipod/i.test(platform);
