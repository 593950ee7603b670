import { THEME_CHOICES, type ThemeChoice } from '../lib/theme.ts';
import { setTheme, useThemeChoice } from '../lib/theme-store.ts';

const LABELS: Record<ThemeChoice, string> = { system: 'System', light: 'Light', dark: 'Dark' };

/** System / Light / Dark as a radio group (a segmented control); the choice is kept on this device. */
export function ThemeToggle() {
  const choice = useThemeChoice();
  return (
    <fieldset className="segmented">
      <legend className="sr-only">Theme</legend>
      {THEME_CHOICES.map((c) => (
        <label key={c}>
          <input type="radio" name="theme" value={c} checked={choice === c} onChange={() => setTheme(c)} />
          <span>{LABELS[c]}</span>
        </label>
      ))}
    </fieldset>
  );
}
