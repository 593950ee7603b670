import type { KeyInfo } from './shortcuts.ts';

/** For tests: a key press with no modifier and focus outside a field, unless `extra` says otherwise. */
export const key = (k: string, extra: Partial<KeyInfo> = {}): KeyInfo => ({
  key: k,
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  inField: false,
  ...extra,
});
