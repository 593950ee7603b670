import { useId } from 'react';

export interface MoneyFieldProps {
  /** The amount as typed ("6.25"). */
  amount: string;
  currency: string;
  /** The currencies offered (ISO codes). */
  currencies: readonly string[];
  error?: string | null;
  onAmount(value: string): void;
  onCurrency(value: string): void;
  amountLabel?: string;
}

/** An amount with its currency: two labelled inputs side by side, one error under both. */
export function MoneyField({ amount, currency, currencies, error, onAmount, onCurrency, amountLabel = 'Amount' }: MoneyFieldProps) {
  const errorId = useId();
  return (
    <div className="field money-field">
      <div className="money-field-inputs">
        <label className="field">
          <span className="field-label">{amountLabel}</span>
          <input
            type="text"
            inputMode="decimal"
            autoComplete="off"
            className="input-amount"
            value={amount}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            onChange={(e) => onAmount(e.target.value)}
          />
        </label>
        <label className="field">
          <span className="field-label">Currency</span>
          <select value={currency} onChange={(e) => onCurrency(e.target.value)}>
            {currencies.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
      </div>
      {error && <span id={errorId} className="field-error">{error}</span>}
    </div>
  );
}
