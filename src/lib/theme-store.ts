import { useSyncExternalStore } from 'react';
import { createStore } from '../data-access/store.ts';
import { applyTheme, readTheme, storeTheme, type ThemeChoice } from './theme.ts';

/**
 * The theme choice as a store, so the Settings radio group and the palette's "Toggle theme"
 * stay in step.
 */
const themeStore = createStore<{ choice: ThemeChoice | null }>({ choice: null });

export function currentTheme(): ThemeChoice {
  return themeStore.get().choice ?? readTheme(window.localStorage);
}

export function setTheme(choice: ThemeChoice): void {
  themeStore.set({ choice });
  storeTheme(window.localStorage, choice);
  applyTheme(choice, document);
}

/** Light ⇄ dark from what is shown now (System resolves through prefers-color-scheme). */
export function toggleTheme(): void {
  const choice = currentTheme();
  const dark = choice === 'dark' || (choice === 'system' && window.matchMedia('(prefers-color-scheme: dark)').matches);
  setTheme(dark ? 'light' : 'dark');
}

export function useThemeChoice(): ThemeChoice {
  return useSyncExternalStore(themeStore.subscribe, currentTheme, () => 'system');
}
