export interface TextFieldProps {
  label: string;
  value: string;
  onChange(value: string): void;
  type?: 'text' | 'email' | 'password' | 'tel' | 'url';
  name?: string;
  autoComplete?: string;
  autoFocus?: boolean;
  required?: boolean;
  /** A message under the field; also marks the input invalid for assistive technology. */
  error?: string | null;
}

/** A labelled text input (email, password, name...), the one markup every form uses. */
export function TextField({ label, value, onChange, type = 'text', name, autoComplete, autoFocus, required, error }: TextFieldProps) {
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <input
        type={type}
        name={name}
        autoComplete={autoComplete}
        required={required}
        value={value}
        aria-invalid={error ? true : undefined}
        onChange={(e) => onChange(e.target.value)}
        autoFocus={autoFocus}
      />
      {error && <span className="field-error">{error}</span>}
    </label>
  );
}
