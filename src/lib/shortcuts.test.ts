import { describe, expect, it } from 'vitest';
import { key } from './test-keys.ts';
import { SHORTCUTS, footerHint, isMacPlatform, matchShortcut, shortcutKeys, shortcutById, shortcutsByGroup } from './shortcuts.ts';

describe('matchShortcut', () => {
  it.each([
    [key('?', { shiftKey: true }), ['global'], 'help'],
    [key('?', { shiftKey: true, inField: true }), ['global'], null],
    [key('k', { ctrlKey: true }), ['global'], 'palette'],
    [key('k', { metaKey: true }), ['global'], 'palette'],
    [key('K', { metaKey: true, shiftKey: true }), ['global'], 'palette'],
    [key('k', { ctrlKey: true, inField: true }), ['global'], 'palette'],
    [key('k', { ctrlKey: true, altKey: true }), ['global'], null],
    [key('k'), ['global'], null],
    [key('k'), ['list'], 'list.up'],
    [key('k', { metaKey: true }), ['list'], null],
    [key('J', { shiftKey: true }), ['list'], 'list.extendDown'],
    [key('ArrowUp', { shiftKey: true }), ['list'], 'list.extendUp'],
    [key('c'), ['list'], 'list.code'],
    [key('C', { shiftKey: true }), ['list'], null],
    [key('c', { inField: true }), ['list'], null],
    [key('c', { ctrlKey: true }), ['list'], null],
    [key('c'), ['global'], null],
    [key('Escape', { inField: true }), ['list'], 'list.close'],
    [key('/'), ['list', 'global'], 'list.search'],
    [key('n'), ['reimbursements'], 'reimbursements.new'],
    [key('n'), ['list', 'global'], null],
    [key('n', { inField: true }), ['reimbursements'], null],
    [key('N', { shiftKey: true }), ['reimbursements'], null],
  ] as const)('%j in %j → %s', (info, scopes, expected) => {
    expect(matchShortcut(info, scopes)?.id ?? null).toBe(expected);
  });
});

describe('the registry', () => {
  it('has unique ids, and every shortcut belongs to a listed group', () => {
    expect(new Set(SHORTCUTS.map((s) => s.id)).size).toBe(SHORTCUTS.length);
    const grouped = shortcutsByGroup().flatMap((g) => g.shortcuts);
    expect(grouped).toHaveLength(SHORTCUTS.length);
    expect(shortcutsByGroup().map((g) => g.group)).toEqual(['Global', 'Transactions list', 'Reimbursements', 'Approvals', 'Cards']);
  });

  it('writes keys for the platform', () => {
    expect(shortcutKeys(shortcutById('palette'), true)).toEqual([['⌘', 'K']]);
    expect(shortcutKeys(shortcutById('palette'), false)).toEqual([['Ctrl', 'K']]);
    expect(shortcutKeys(shortcutById('list.extendDown'), false)).toEqual([['Shift', 'j'], ['Shift', '↓']]);
    expect(shortcutKeys(shortcutById('list.toggle'), false)).toEqual([['x'], ['Space']]);
    expect(isMacPlatform('MacIntel')).toBe(true);
    expect(isMacPlatform('Linux x86_64')).toBe(false);
  });

  it('builds the table footer hint from the hinted shortcuts', () => {
    expect(footerHint(['list', 'global'])).toBe('j/k move · x select · Enter open · / search · c code · ? shortcuts');
    expect(footerHint(['global'])).toBe('? shortcuts');
    expect(footerHint(['reimbursements', 'global'])).toBe('n new · ? shortcuts');
    expect(footerHint(['approvals', 'global'])).toBe('a approve · r reject · ? shortcuts');
    expect(footerHint(['cards', 'global'])).toBe('l lock · u unlock · ? shortcuts');
  });

  it('a and r answer only in the approvals inbox, never while typing', () => {
    const key = (k: string, inField = false) => ({ key: k, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, inField });
    expect(matchShortcut(key('a'), ['approvals', 'list', 'global'])?.id).toBe('approvals.approve');
    expect(matchShortcut(key('r'), ['approvals', 'list', 'global'])?.id).toBe('approvals.reject');
    expect(matchShortcut(key('a'), ['list', 'global'])).toBeNull();
    expect(matchShortcut(key('r', true), ['approvals'])).toBeNull();
  });

  it('l and u answer only in the managed cards grid, never while typing', () => {
    const key = (k: string, inField = false) => ({ key: k, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, inField });
    expect(matchShortcut(key('l'), ['cards', 'list', 'global'])?.id).toBe('cards.lock');
    expect(matchShortcut(key('u'), ['cards', 'list', 'global'])?.id).toBe('cards.unlock');
    expect(matchShortcut(key('l'), ['list', 'global'])).toBeNull();
    expect(matchShortcut(key('u', true), ['cards'])).toBeNull();
  });
});
