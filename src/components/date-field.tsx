import { useId, type ReactNode } from 'react';
import { FieldNote } from './field-note.tsx';

export interface DateFieldProps {
  label: string;
  /** YYYY-MM-DD or ''. */
  value: string;
  min?: string | undefined;
  max?: string | undefined;
  disabled?: boolean | undefined;
  error?: string | null | undefined;
  /** A note under the field when there is no error. */
  hint?: ReactNode;
  /** `data-field` on the field: the API path a form focuses the first invalid field by. */
  field?: string;
  onChange(value: string): void;
}

/** A labelled native date input in the `.field` markup of `TextField` (error or hint under it). */
export function DateField({ label, value, min, max, disabled, error, hint, field, onChange }: DateFieldProps) {
  const noteId = useId();
  return (
    <label className="field" data-field={field}>
      <span className="field-label">{label}</span>
      <input
        type="date"
        value={value}
        min={min}
        max={max}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || hint ? noteId : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      <FieldNote id={noteId} error={error} hint={hint} />
    </label>
  );
}
