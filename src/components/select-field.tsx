export interface SelectOption {
  value: string;
  label: string;
}

export interface SelectFieldProps {
  label: string;
  value: string;
  options: readonly SelectOption[];
  /** Choices listed before the options ("All", "No change", "None"…). */
  leading?: readonly SelectOption[];
  onChange(value: string): void;
  /** 'filter' is the compact look of the filter bar. */
  variant?: 'field' | 'filter';
}

/** A labelled native select: the label wraps it, so its text is the select's accessible name. */
export function SelectField({ label, value, options, leading = [], onChange, variant = 'field' }: SelectFieldProps) {
  return (
    <label className={variant}>
      <span className={`${variant}-label`}>{label}</span>
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        {[...leading, ...options].map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}
