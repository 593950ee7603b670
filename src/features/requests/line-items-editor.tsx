import { useId } from 'react';
import { MAX_REQUEST_LINES } from '../../../schema/entities/spend-request.ts';
import { Button } from '../../components/button.tsx';
import { formatMoney } from '../../lib/format.ts';
import { emptyLine, lineNumbers, type LineValues, type RequestErrors } from './request-form.ts';

export interface LineItemsEditorProps {
  lines: readonly LineValues[];
  currency: string;
  errors: RequestErrors;
  onChange(lines: LineValues[]): void;
}

/**
 * A purchase's lines: what, how many, at what unit price, each line's amount and the live total
 * (quantity × unit price). One fieldset; every input is labelled with its line ("Quantity, line 2").
 */
export function LineItemsEditor({ lines, currency, errors, onChange }: LineItemsEditorProps) {
  const base = useId();
  const numbers = lineNumbers(lines, currency);
  const total = numbers.reduce((sum, l) => sum + l.quantity * l.unit_price, 0);
  const set = (i: number, patch: Partial<LineValues>) => onChange(lines.map((l, j) => (j === i ? { ...l, ...patch } : l)));
  const add = () => onChange([...lines, emptyLine(crypto.randomUUID())]);
  const remove = (i: number) => onChange(lines.filter((_, j) => j !== i));
  const listError = errors.line_items;
  return (
    <fieldset className="line-items" aria-describedby={listError ? `${base}-error` : undefined}>
      <legend className="field-label">Line items</legend>
      {lines.length > 0 && (
        <div className="line-items-head" aria-hidden="true">
          <span>Description</span>
          <span>Qty</span>
          <span>Unit price</span>
          <span className="line-amount">Amount</span>
          <span />
        </div>
      )}
      <ol className="line-items-list">
        {lines.map((l, i) => {
          const n = i + 1;
          const err = (f: string) => errors[`lines.${i}.${f}`];
          const errId = `${base}-${l.key}-error`;
          const lineError = err('description') ?? err('quantity') ?? err('unit_price');
          return (
            <li key={l.key} className="line-item">
              <label className="field line-description">
                <span className="sr-only">Description, line {n}</span>
                <input type="text" maxLength={500} placeholder="What you are buying" value={l.description}
                  aria-invalid={err('description') ? true : undefined} aria-describedby={lineError ? errId : undefined}
                  onChange={(e) => set(i, { description: e.target.value })} />
              </label>
              <label className="field line-quantity">
                <span className="sr-only">Quantity, line {n}</span>
                <input type="text" inputMode="numeric" autoComplete="off" placeholder="Qty" value={l.quantity}
                  aria-invalid={err('quantity') ? true : undefined} aria-describedby={lineError ? errId : undefined}
                  onChange={(e) => set(i, { quantity: e.target.value })} />
              </label>
              <label className="field line-price">
                <span className="sr-only">Unit price, line {n}</span>
                <input type="text" inputMode="decimal" autoComplete="off" placeholder="0.00" value={l.unit_price}
                  aria-invalid={err('unit_price') ? true : undefined} aria-describedby={lineError ? errId : undefined}
                  onChange={(e) => set(i, { unit_price: e.target.value })} />
              </label>
              <span className="line-amount">
                <span className="sr-only">Amount, line {n}: </span>
                {formatMoney(numbers[i]!.quantity * numbers[i]!.unit_price, currency)}
              </span>
              <Button variant="ghost" size="sm" onClick={() => remove(i)}>
                Remove<span className="sr-only"> line {n}</span>
              </Button>
              {lineError && <span id={errId} className="field-error line-error">{lineError}</span>}
            </li>
          );
        })}
      </ol>
      <div className="line-items-foot">
        <Button variant="secondary" size="sm" onClick={add} disabled={lines.length >= MAX_REQUEST_LINES}>
          Add line
        </Button>
        <span className="line-total" aria-live="polite">
          Total <strong>{formatMoney(total, currency)}</strong>
        </span>
      </div>
      {listError && <span id={`${base}-error`} className="field-error">{listError}</span>}
    </fieldset>
  );
}
