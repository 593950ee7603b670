import { useId } from 'react';
import type { DistanceUnit } from './claim-amounts.ts';

/**
 * The claim forms' inputs the design system has no component for (a distance with its unit, a
 * memo; dates and amounts are `DateField` and `MoneyField`), in the same `.field` markup as `TextField`:
 * a visible label naming the input, the error under it and marking it invalid.
 */
function FieldError({ id, error }: { id: string; error: string | undefined }) {
  return error ? (
    <span id={id} className="field-error">
      {error}
    </span>
  ) : null;
}

export function DistanceField(props: { value: string; unit: DistanceUnit; error?: string; onChange(v: string): void; onUnit(u: DistanceUnit): void }) {
  const errorId = useId();
  const name = useId();
  return (
    <div className="field claim-amount-field">
      <div className="claim-amount-inputs">
        <label className="field">
          <span className="field-label">Distance</span>
          <input
            type="text"
            inputMode="decimal"
            autoComplete="off"
            className="input-amount"
            value={props.value}
            aria-invalid={props.error ? true : undefined}
            aria-describedby={props.error ? errorId : undefined}
            onChange={(e) => props.onChange(e.target.value)}
          />
        </label>
        <fieldset className="segmented claim-unit">
          <legend className="sr-only">Distance unit</legend>
          {(['mi', 'km'] as const).map((u) => (
            <label key={u}>
              <input type="radio" name={name} value={u} checked={props.unit === u} onChange={() => props.onUnit(u)} />
              <span>{u === 'mi' ? 'Miles' : 'Kilometres'}</span>
            </label>
          ))}
        </fieldset>
      </div>
      <FieldError id={errorId} error={props.error} />
    </div>
  );
}

export function MemoField(props: { value: string; error?: string; onChange(v: string): void }) {
  const errorId = useId();
  return (
    <label className="field claim-wide">
      <span className="field-label">Memo</span>
      <textarea
        rows={2}
        maxLength={2000}
        value={props.value}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? errorId : undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
      <FieldError id={errorId} error={props.error} />
    </label>
  );
}
