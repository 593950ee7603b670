/** Authenticator and mailed codes are six digits. */
export const CODE_LENGTH = 6;

export const isCompleteCode = (code: string) => code.length === CODE_LENGTH;

export interface CodeFieldProps {
  label: string;
  value: string;
  onChange(code: string): void;
  name?: string;
  /** 'one-time-code' lets the browser offer an authenticator's code; 'off' for a mailed one. */
  autoComplete?: string;
  autoFocus?: boolean;
}

/** A 6-digit code input: the numeric keypad on phones, and anything but digits is dropped as typed. */
export function CodeField({ label, value, onChange, name = 'code', autoComplete = 'one-time-code', autoFocus }: CodeFieldProps) {
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <input
        className="code-input"
        name={name}
        inputMode="numeric"
        autoComplete={autoComplete}
        pattern={`\\d{${CODE_LENGTH}}`}
        maxLength={CODE_LENGTH}
        required
        value={value}
        onChange={(e) => onChange(e.target.value.replace(/\D/g, ''))}
        autoFocus={autoFocus}
      />
    </label>
  );
}
