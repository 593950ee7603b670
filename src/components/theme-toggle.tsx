import { useState } from 'react';
import { THEME_CHOICES, applyTheme, readTheme, storeTheme, type ThemeChoice } from '../lib/theme.ts';

const LABELS: Record<ThemeChoice, string> = { system: 'System', light: 'Light', dark: 'Dark' };

/** System / Light / Dark as a radio group (a segmented control); the choice is kept on this device. */
export function ThemeToggle() {
  const [choice, setChoice] = useState<ThemeChoice>(() => readTheme(window.localStorage));
  function choose(next: ThemeChoice) {
    setChoice(next);
    storeTheme(window.localStorage, next);
    applyTheme(next, document);
  }
  return (
    <fieldset className="segmented">
      <legend className="sr-only">Theme</legend>
      {THEME_CHOICES.map((c) => (
        <label key={c}>
          <input type="radio" name="theme" value={c} checked={choice === c} onChange={() => choose(c)} />
          <span>{LABELS[c]}</span>
        </label>
      ))}
    </fieldset>
  );
}
