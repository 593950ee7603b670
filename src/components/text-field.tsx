import { useId, type ReactNode } from 'react';
import { FieldNote } from './field-note.tsx';

export interface TextFieldProps {
  label: string;
  value: string;
  onChange(value: string): void;
  type?: 'text' | 'email' | 'password' | 'tel' | 'url';
  name?: string;
  autoComplete?: string;
  autoFocus?: boolean;
  required?: boolean;
  maxLength?: number;
  disabled?: boolean | undefined;
  /** A message under the field; also marks the input invalid for assistive technology. */
  error?: string | null | undefined;
  /** A note under the field when there is no error. */
  hint?: ReactNode;
  /** `data-field` on the field: the API path a form focuses the first invalid field by. */
  field?: string;
}

/** A labelled text input (email, password, name...), the one markup every form uses. */
export function TextField(props: TextFieldProps) {
  const { label, value, onChange, type = 'text', error, hint } = props;
  const noteId = useId();
  return (
    <label className="field" data-field={props.field}>
      <span className="field-label">{label}</span>
      <input
        type={type}
        name={props.name}
        autoComplete={props.autoComplete}
        required={props.required}
        maxLength={props.maxLength}
        disabled={props.disabled}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || hint ? noteId : undefined}
        onChange={(e) => onChange(e.target.value)}
        autoFocus={props.autoFocus}
      />
      <FieldNote id={noteId} error={error} hint={hint} />
    </label>
  );
}
