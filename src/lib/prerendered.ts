/**
 * A page the build prerendered into its HTML (build/prerender.ts, issue 33: the sign-in page of a
 * first visit paints from the HTML on a slow phone, not after the first-load JavaScript and the
 * data worker's start) sits in `#prerendered`, before the `#root` the app mounts into; base.css
 * hides `#root` while the copy is there, so the boot screen never shows over it. The app's own page
 * takes over in one commit: its layout effect takes what the person typed into the copy
 * (`prerenderedFields`), removes the copy and puts focus back (`dropPrerendered`) before the
 * browser paints: no frame without the page, no layout shift, and
 * the largest paint stays the copy's (the app's elements are the same size, never larger).
 */
export const PRERENDERED_ID = 'prerendered';

export interface PrerenderedFields {
  /** What was typed into the copy's fields, by field name (empty fields left out). */
  values: Record<string, string>;
  /** The name of the copy's field that had focus, if one did. */
  focused: string | null;
}

/** The copy's typed values and focus; null when there is no copy (a later visit, the service worker's HTML). */
export function prerenderedFields(doc: Document | undefined): PrerenderedFields | null {
  const copy = doc?.getElementById(PRERENDERED_ID);
  if (!doc || !copy) return null;
  const values: Record<string, string> = {};
  for (const field of copy.querySelectorAll<HTMLInputElement>('input[name]')) {
    if (field.value) values[field.name] = field.value;
  }
  const active = doc.activeElement;
  const focused = active && copy.contains(active) ? active.getAttribute('name') : null;
  return { values, focused };
}

/**
 * Removes the copy. `focusName`: the app's field to focus then (the one the copy had focused, or
 * the page's autofocus field: React's `autoFocus` ran while `#root` was hidden, so it took none).
 */
export function dropPrerendered(doc: Document | undefined, focusName?: string | null): void {
  const copy = doc?.getElementById(PRERENDERED_ID);
  if (!doc || !copy) return;
  copy.remove();
  if (!focusName) return;
  const field = [...(doc.getElementById('root')?.querySelectorAll<HTMLElement>('[name]') ?? [])].find((el) => el.getAttribute('name') === focusName);
  field?.focus();
}
