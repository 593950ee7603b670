import { useId, type ReactNode } from 'react';
import { MAX_BILL_LINES } from '../../../schema/entities/bill.ts';
import { Button } from '../../components/button.tsx';
import { Combobox } from '../../components/combobox.tsx';
import type { SelectOption } from '../../components/select-field.tsx';
import { formatMoney } from '../../lib/format.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';
import type { PurchaseOrder } from '../../../schema/entities/purchase-order.ts';
import { amountText, emptyLine, linesTotal, poLineAmount, type BillFieldErrors, type BillLineValues } from './bill-form.ts';

export interface BillLinesEditorProps {
  lines: readonly BillLineValues[];
  currency: string;
  glAccounts: readonly SelectOption[];
  departments: readonly SelectOption[];
  /** By API path: `line_items`, `line_items.<i>.<field>`, `amount` (the total). */
  errors: BillFieldErrors;
  disabled?: boolean;
  /** Vendor credits applied: what they take off the total (`complete` false: one cannot be read), and their rows under the lines. */
  credits?: { minor: number; complete: boolean; rows: ReactNode } | undefined;
  onChange(index: number, line: BillLineValues): void;
  onAdd(): void;
  onRemove(index: number): void;
  /** Issue 28: the bill names this purchase order: each line picks its PO line, quantity and unit price. */
  po?: Pick<PurchaseOrder, 'lines' | 'currency'> | null | undefined;
}

const NONE: SelectOption = { value: '', label: 'None' };

/**
 * The bill's lines: description, amount, GL account and department each, Add line / Remove,
 * the vendor credits applied (their rows, the caller's), and the total (the lines' sum less the
 * credits, as the server computes the bill's amount) live under them.
 * A line's fields are named "Line 2 amount" etc. for assistive technology; an error sits under
 * its field and marks it invalid (the form focuses the first).
 */
export function BillLinesEditor(props: BillLinesEditorProps) {
  const { lines, currency, errors, disabled } = props;
  const lineSum = linesTotal(lines, currency);
  const credited = props.credits && props.credits.minor !== 0 ? props.credits : null;
  const total = { minor: lineSum.minor - (credited?.minor ?? 0), complete: lineSum.complete && (props.credits?.complete ?? true) };
  const totalError = errors.amount;
  const totalId = useId();
  return (
    <fieldset className="bill-lines" data-field="line_items" data-invalid={errors.line_items ? 'true' : undefined}>
      <legend className="field-label">Lines</legend>
      <ol className="bill-lines-list">
        {lines.map((line, i) => (
          <BillLineRow
            key={line.key}
            index={i}
            line={line}
            errors={errors}
            glAccounts={props.glAccounts}
            departments={props.departments}
            disabled={disabled}
            currency={currency}
            po={props.po ?? null}
            removable={lines.length > 1}
            onChange={(next) => props.onChange(i, next)}
            onRemove={() => props.onRemove(i)}
          />
        ))}
      </ol>
      {errors.line_items && <span className="field-error">{errors.line_items}</span>}
      {props.credits?.rows}
      <div className="bill-lines-foot">
        {!disabled && (
          <Button size="sm" onClick={props.onAdd} disabled={lines.length >= MAX_BILL_LINES}>
            Add line
          </Button>
        )}
        <p
          id={totalId}
          className="bill-total"
          aria-live="polite"
          data-testid="bill-total"
          data-field="amount"
          data-invalid={totalError ? 'true' : undefined}
          tabIndex={totalError ? -1 : undefined}
        >
          {credited && lineSum.complete && (
            <span className="bill-subtotal">
              {formatMoney(lineSum.minor, currency)} less credits {formatMoney(credited.minor, currency)} ·{' '}
            </span>
          )}
          <span className="field-label">Total</span>{' '}
          <strong>{total.complete ? formatMoney(total.minor, currency) : '—'}</strong>
          {!total.complete && <span className="muted"> (check the amounts)</span>}
        </p>
      </div>
      {totalError && <span className="field-error bill-total-error">{totalError}</span>}
    </fieldset>
  );
}

export interface BillLinesFieldProps extends Pick<BillLinesEditorProps, 'errors' | 'disabled' | 'credits' | 'po'> {
  values: { lines: readonly BillLineValues[]; currency: string; vendor_id: string };
  reference: ReferenceView;
  /** A new line's key. */
  nextKey(): string;
  /** The lines changed; `cleared`: the lines' messages the change answers. */
  setLines(update: (lines: BillLineValues[]) => BillLineValues[], cleared: string[]): void;
  /** A line's fields whose messages a change of the line clears. */
  lineFields?: readonly string[];
}

/**
 * The lines editor over a form's values: a new line takes the vendor's default coding, a change of
 * a line clears its fields' messages, a line removed clears every line's.
 */
export function BillLinesField({ values, reference, nextKey, setLines, lineFields = ['description', 'amount'], ...rest }: BillLinesFieldProps) {
  const vendor = reference.data.vendors.find((v) => v.id === values.vendor_id) ?? null;
  const { glAccounts, departments } = reference.options;
  return (
    <BillLinesEditor {...rest} lines={values.lines} currency={values.currency} glAccounts={glAccounts} departments={departments}
      onChange={(i, line) => setLines((ls) => ls.map((l, j) => (j === i ? line : l)), lineFields.map((f) => `line_items.${i}.${f}`))}
      onAdd={() => setLines((ls) => [...ls, emptyLine(nextKey(), vendor)], [])}
      onRemove={(i) => setLines((ls) => ls.filter((_, j) => j !== i), Object.keys(rest.errors).filter((k) => k.startsWith('line_items.')))} />
  );
}

interface BillLineRowProps {
  index: number;
  line: BillLineValues;
  errors: BillFieldErrors;
  glAccounts: readonly SelectOption[];
  departments: readonly SelectOption[];
  disabled?: boolean;
  removable: boolean;
  currency: string;
  po: Pick<PurchaseOrder, 'lines' | 'currency'> | null;
  onChange(line: BillLineValues): void;
  onRemove(): void;
}

function BillLineRow({ index, line, errors, glAccounts, departments, disabled, removable, currency, po, onChange, onRemove }: BillLineRowProps) {
  const n = index + 1;
  const err = (field: string) => errors[`line_items.${index}.${field}`];
  const set = <K extends keyof BillLineValues>(key: K, value: BillLineValues[K]) => {
    const next = { ...line, [key]: value };
    // A PO line's amount is its quantity × unit price: typed figures keep it in step.
    if (key === 'quantity' || key === 'unit_price') {
      const amount = poLineAmount(next.quantity ?? '', next.unit_price ?? '', currency);
      if (amount !== null) next.amount = amount;
    }
    if (key === 'po_line_id' && po) {
      const chosen = po.lines.find((l) => l.id === value);
      if (chosen) {
        if (!next.description.trim()) next.description = chosen.description;
        if (!next.unit_price?.trim()) next.unit_price = amountText(chosen.unit_price, currency);
        if (!next.quantity?.trim()) next.quantity = String(Math.max(1, chosen.received_quantity - chosen.billed_quantity));
        next.amount = poLineAmount(next.quantity ?? '', next.unit_price ?? '', currency) ?? next.amount;
      }
    }
    onChange(next);
  };
  return (
    <li className={po ? 'bill-line bill-line-po' : 'bill-line'} aria-label={`Line ${n}`}>
      {po && (
        <>
          <LineCoding area="bill-line-poline" label="PO line" n={n} value={line.po_line_id ?? ''} error={err('po_line_id')} disabled={disabled} field={`line_items.${index}.po_line_id`}
            options={po.lines.map((l) => ({ value: l.id, label: `${l.description} (${l.received_quantity} of ${l.quantity} received)` }))} onChange={(v) => set('po_line_id', v)} />
          <LineInput field={`line_items.${index}.quantity`} label="Quantity" n={n} value={line.quantity ?? ''} error={err('quantity')} disabled={disabled} amount onChange={(v) => set('quantity', v)} />
          <LineInput field={`line_items.${index}.unit_price`} label="Unit price" n={n} value={line.unit_price ?? ''} error={err('unit_price')} disabled={disabled} amount onChange={(v) => set('unit_price', v)} />
        </>
      )}
      <LineInput field={`line_items.${index}.description`} label="Description" n={n} value={line.description} error={err('description')} disabled={disabled} onChange={(v) => set('description', v)} />
      <LineInput field={`line_items.${index}.amount`} label="Amount" n={n} value={line.amount} error={err('amount')} disabled={disabled} amount onChange={(v) => set('amount', v)} />
      <LineCoding area="bill-line-gl" label="GL account" n={n} value={line.gl_account_id} options={glAccounts} error={err('gl_account_id')} disabled={disabled} field={`line_items.${index}.gl_account_id`} onChange={(v) => set('gl_account_id', v)} />
      <LineCoding area="bill-line-dept" label="Department" n={n} value={line.department_id} options={departments} error={err('department_id')} disabled={disabled} field={`line_items.${index}.department_id`} onChange={(v) => set('department_id', v)} />
      {removable && !disabled && (
        <Button size="sm" variant="ghost" className="bill-line-remove" onClick={onRemove}>
          Remove <span className="sr-only">line {n}</span>
        </Button>
      )}
    </li>
  );
}

/** The grid area of a figure input by its label. */
const AREAS: Record<string, string> = { Amount: 'amount', Quantity: 'qty', 'Unit price': 'price' };

function LineInput(props: { field: string; label: string; n: number; value: string; error?: string | undefined; disabled?: boolean | undefined; amount?: boolean; onChange(v: string): void }) {
  const errorId = useId();
  return (
    <label className={props.amount ? `field bill-line-${AREAS[props.label] ?? 'amount'}` : 'field bill-line-description'} data-field={props.field}>
      <span className="field-label">
        <span className="sr-only">Line {props.n} </span>
        {props.label}
      </span>
      <input
        type="text"
        inputMode={props.amount ? 'decimal' : undefined}
        autoComplete="off"
        className={props.amount ? 'input-amount' : undefined}
        value={props.value}
        disabled={props.disabled}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? errorId : undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {props.error && <span id={errorId} className="field-error">{props.error}</span>}
    </label>
  );
}

function LineCoding(props: {
  area: string; label: string; n: number; value: string; options: readonly SelectOption[]; error?: string | undefined; disabled?: boolean | undefined; field: string; onChange(v: string): void;
}) {
  return (
    <div className={`bill-line-coding ${props.area}`} data-field={props.field} data-invalid={props.error ? 'true' : undefined}>
      <Combobox label={`Line ${props.n} ${props.label}`} value={props.value} options={props.options} leading={[NONE]} disabled={props.disabled} onChange={props.onChange} />
      {props.error && <span className="field-error">{props.error}</span>}
    </div>
  );
}
