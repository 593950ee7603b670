/**
 * The colour theme: "system" follows prefers-color-scheme (the stylesheet's light-dark() pairs
 * do it with no script); "light" or "dark" pin it. Applied by the main module before React
 * renders (the CSP forbids an inline script in index.html): `data-theme` on <html> sets the
 * root's color-scheme, and the color-scheme meta tells the browser's own UI (scrollbars, form
 * controls) the same.
 */
export type ThemeChoice = 'system' | 'light' | 'dark';

export const THEME_CHOICES: readonly ThemeChoice[] = ['system', 'light', 'dark'];
export const THEME_KEY = 'ledgerline.theme';

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem' | 'removeItem'>;

export function parseTheme(raw: string | null | undefined): ThemeChoice {
  return raw === 'light' || raw === 'dark' ? raw : 'system';
}

export function readTheme(storage: Storage): ThemeChoice {
  try {
    return parseTheme(storage.getItem(THEME_KEY));
  } catch {
    return 'system'; // storage refused (privacy mode): follow the system
  }
}

export function storeTheme(storage: Storage, choice: ThemeChoice): void {
  try {
    if (choice === 'system') storage.removeItem(THEME_KEY);
    else storage.setItem(THEME_KEY, choice);
  } catch {
    // Not kept across reloads; the choice still applies to this page.
  }
}

/** What the color-scheme meta says for a choice. */
export const colorSchemeFor = (choice: ThemeChoice): string => (choice === 'system' ? 'light dark' : choice);

export function applyTheme(choice: ThemeChoice, doc: Document): void {
  const root = doc.documentElement;
  if (choice === 'system') delete root.dataset.theme;
  else root.dataset.theme = choice;
  doc.querySelector('meta[name="color-scheme"]')?.setAttribute('content', colorSchemeFor(choice));
}
