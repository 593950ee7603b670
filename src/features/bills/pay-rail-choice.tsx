import type { PaymentRail } from '../../../schema/payment-rails.ts';
import type { RailOption } from './pay-rails.ts';
import './bill-rails.css';

export interface PayRailChoiceProps {
  options: readonly RailOption[];
  value: PaymentRail;
  onChange(rail: PaymentRail): void;
}

/**
 * Issue 30: "Pay by" in the pay confirmation, shown when the vendor can be paid on more than one
 * rail: a radio group, each choice saying when it arrives and what it costs.
 */
export function PayRailChoice({ options, value, onChange }: PayRailChoiceProps) {
  if (options.length < 2) return null;
  return (
    <fieldset className="pay-rails">
      <legend>Pay by</legend>
      {options.map((o) => (
        <label key={o.rail} className="pay-rail">
          <input type="radio" name="pay-rail" value={o.rail} checked={value === o.rail} onChange={() => onChange(o.rail)} />
          <span>{o.label}</span>
        </label>
      ))}
    </fieldset>
  );
}
