import { useId, type ReactNode } from 'react';
import { MAX_BILL_MEMO_LENGTH, MAX_INVOICE_NUMBER_LENGTH } from '../../../schema/entities/bill.ts';
import { Combobox } from '../../components/combobox.tsx';
import type { SelectOption } from '../../components/select-field.tsx';

/**
 * The bill form's fields in the `.field` markup of the design system's TextField/DateField, plus
 * what the bill form needs and they lack: `disabled` (a field the bill's status does not let
 * change), a hint under the field, and `data-field` = the API path, by which the form focuses
 * the first field with an error.
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

function Described({ id, error, hint }: { id: string; error?: string | undefined; hint?: ReactNode }) {
  return (
    <>
      {hint && !error && <span id={id} className="field-hint muted">{hint}</span>}
      {error && <span id={id} className="field-error">{error}</span>}
    </>
  );
}

export function BillTextField(props: FieldProps & { autoFocus?: boolean }) {
  const id = useId();
  const described = props.error || props.hint ? id : undefined;
  return (
    <label className="field" data-field={props.field}>
      <span className="field-label">{props.label}</span>
      <input
        type="text"
        autoComplete="off"
        maxLength={MAX_INVOICE_NUMBER_LENGTH}
        value={props.value}
        disabled={props.disabled}
        autoFocus={props.autoFocus}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={described}
        onChange={(e) => props.onChange(e.target.value)}
      />
      <Described id={id} error={props.error} hint={props.hint} />
    </label>
  );
}

export function BillDateField(props: FieldProps & { min?: string | undefined }) {
  const id = useId();
  const described = props.error || props.hint ? id : undefined;
  return (
    <label className="field" data-field={props.field}>
      <span className="field-label">{props.label}</span>
      <input
        type="date"
        value={props.value}
        min={props.min}
        disabled={props.disabled}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={described}
        onChange={(e) => props.onChange(e.target.value)}
      />
      <Described id={id} error={props.error} hint={props.hint} />
    </label>
  );
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
      <Described id={id} error={props.error} hint={props.hint} />
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
      <Described id={id} error={props.error} hint={props.hint} />
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
