import { useId } from 'react';

export interface DateFieldProps {
  label: string;
  /** YYYY-MM-DD or ''. */
  value: string;
  max?: string;
  error?: string | null;
  onChange(value: string): void;
}

/** A labelled native date input in the `.field` markup of `TextField` (error under it, marked invalid). */
export function DateField({ label, value, max, error, onChange }: DateFieldProps) {
  const errorId = useId();
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <input
        type="date"
        value={value}
        max={max}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {error && <span id={errorId} className="field-error">{error}</span>}
    </label>
  );
}
