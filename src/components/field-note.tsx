import type { ReactNode } from 'react';

/**
 * What stands under a `.field`: its error, else its hint, with the id the input's
 * `aria-describedby` names (TextField, DateField and the forms' own fields share it).
 */
export function FieldNote({ id, error, hint }: { id: string; error?: string | null | undefined; hint?: ReactNode }) {
  if (error) return <span id={id} className="field-error">{error}</span>;
  if (hint) return <span id={id} className="field-hint muted">{hint}</span>;
  return null;
}
