import { useId, type ReactNode } from 'react';
import { MAX_BILL_MEMO_LENGTH } from '../../../schema/entities/bill.ts';
import { Combobox } from '../../components/combobox.tsx';
import { FieldNote } from '../../components/field-note.tsx';
import type { SelectOption } from '../../components/select-field.tsx';

/**
 * The bill form's fields the design system has no twin of (a currency select, the memo's
 * textarea, the vendor type-ahead), in the `.field` markup of TextField/DateField: `disabled` (a
 * field the bill's status does not let change), a note under the field, and `data-field` = the
 * API path, by which the form focuses the first field with an error.
 */
interface FieldProps {
  field: string;
  label: string;
  value: string;
  error?: string | undefined;
  hint?: ReactNode;
  disabled?: boolean | undefined;
  onChange(value: string): void;
}


export function CurrencyField(props: FieldProps & { currencies: readonly string[] }) {
  const id = useId();
  return (
    <label className="field" data-field={props.field}>
      <span className="field-label">{props.label}</span>
      <select
        value={props.value}
        disabled={props.disabled}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error || props.hint ? id : undefined}
        onChange={(e) => props.onChange(e.target.value)}
      >
        {props.currencies.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
      <FieldNote id={id} error={props.error} hint={props.hint} />
    </label>
  );
}

export function BillMemoField(props: FieldProps) {
  const id = useId();
  return (
    <label className="field bill-wide" data-field={props.field}>
      <span className="field-label">{props.label}</span>
      <textarea
        rows={2}
        maxLength={MAX_BILL_MEMO_LENGTH}
        value={props.value}
        disabled={props.disabled}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error || props.hint ? id : undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
      <FieldNote id={id} error={props.error} hint={props.hint} />
    </label>
  );
}

/** The vendor: a type-ahead over the business's vendors by name (Combobox filters as you type). */
export function VendorField(props: FieldProps & { options: readonly SelectOption[] }) {
  return (
    <div className="bill-vendor" data-field={props.field} data-invalid={props.error ? 'true' : undefined}>
      <Combobox label={props.label} value={props.value} options={props.options} disabled={props.disabled} onChange={props.onChange} />
      {props.hint && !props.error && <span className="field-hint muted">{props.hint}</span>}
      {props.error && <span className="field-error">{props.error}</span>}
    </div>
  );
}
