import { memo, useId, useState, type ReactNode } from 'react';
import type { TransactionFilter } from '../../../schema/transaction-query.ts';
import type { TransactionState } from '../../../schema/entities/transaction.ts';
import { formatAmountInput, parseAmountInput } from './money-input.ts';
import { SelectField, type SelectOption } from '../../components/select-field.tsx';
import { Button } from '../../components/button.tsx';
import type { ReferenceView } from './use-reference-data.ts';
import { useLayout } from '../../lib/media-query.ts';

export interface FilterBarProps {
  filter: TransactionFilter;
  /** The name of the card the list is narrowed to (`card_ids`, from a card's "View all"), if any. */
  cardLabel?: string;
  /** The business currency: amounts typed without a Currency filter are read in it. */
  currency: string;
  /** The currencies the list holds (the Currency filter's options, issue 25). */
  currencies: readonly string[];
  reference: ReferenceView;
  /** Merges a change into the URL filter (undefined removes a key). */
  onChange(patch: Partial<TransactionFilter>): void;
  onClear(): void;
}

/** Structured filters. Each control writes the URL; the table re-queries from it. */
export const FilterBar = memo(function FilterBar({ filter, cardLabel, currency: businessCurrency, currencies, reference, onChange, onClear }: FilterBarProps) {
  const { options } = reference;
  // Amounts are typed in the filtered currency's units (¥ has none after the point).
  const currency = filter.currency ?? businessCurrency;
  const count = Object.entries(filter).filter(([k, v]) => k !== 'q' && v !== undefined).length;
  const active = count > 0;
  // On a phone the controls fold under a "Filters" button and wrap in two columns when shown:
  // a sideways strip cut "Location" off and hid the rest (issue 25).
  const phone = useLayout() === 'phone';
  const [shown, setShown] = useState(false);
  // Folded controls are not rendered until first shown (issue 33: the selects with every
  // cardholder's, department's and location's option were a phone's first render's largest part);
  // once shown they stay mounted, so a half-typed amount survives folding.
  const [unfolded, setUnfolded] = useState(false);
  const controlsId = useId();
  const folded = phone && !shown;
  const toggle = () => {
    setShown((v) => !v);
    setUnfolded(true);
  };

  return (
    <div className={phone ? 'filters filters-phone' : 'filters'} role="group" aria-label="Filters">
      {phone && (
        <Button size="sm" className="filters-toggle" aria-expanded={shown} aria-controls={controlsId} onClick={toggle}>
          {active ? `Filters (${count})` : 'Filters'}
        </Button>
      )}
      {filter.card_ids && filter.card_ids.length > 0 && (
        <span className="filter-chip">
          Card: {cardLabel || (filter.card_ids.length === 1 ? 'one card' : `${filter.card_ids.length} cards`)}
          <Button variant="ghost" size="sm" icon aria-label="Show every card" onClick={() => onChange({ card_ids: undefined })}>
            ×
          </Button>
        </span>
      )}
      {filter.gl_account_ids && filter.gl_account_ids.length > 0 && (
        <FilterChip clear="Show every GL account" onClear={() => onChange({ gl_account_ids: undefined })}>
          GL account: {filter.gl_account_ids.map((id) => reference.names.glAccount(id) || 'unknown').join(', ')}
        </FilterChip>
      )}
      {filter.merchant && (
        <FilterChip clear="Show every merchant" onClear={() => onChange({ merchant: undefined })}>
          Merchant: {filter.merchant}
        </FilterChip>
      )}
      {filter.states && filter.states.length > 0 && (
        <FilterChip clear="Show every status" onClear={() => onChange({ states: undefined })}>
          Status: {filter.states.map((st) => STATE_WORDS[st]).join(', ')}
        </FilterChip>
      )}
      <div className="filter-controls" id={controlsId} hidden={folded}>
        {(!phone || unfolded) && (
          <FilterControls filter={filter} options={options} currencies={currencies} currency={currency} onChange={onChange} />
        )}
      </div>
      {active && (
        <Button variant="ghost" size="sm" onClick={onClear}>
          Clear filters
        </Button>
      )}
    </div>
  );
});

interface FilterControlsProps {
  filter: TransactionFilter;
  options: ReferenceView['options'];
  currencies: readonly string[];
  /** The currency amounts are typed in. */
  currency: string;
  onChange(patch: Partial<TransactionFilter>): void;
}

/** The filter controls themselves: cardholder, department, location, currency, amounts, dates, missing items. */
function FilterControls({ filter, options, currencies, currency, onChange }: FilterControlsProps) {
  const single = (ids: string[] | undefined) => ids?.[0] ?? '';
  return (
    <>
      <SelectFilter
        label="Cardholder"
        value={single(filter.user_ids)}
        options={options.users}
        onChange={(v) => onChange({ user_ids: v ? [v] : undefined })}
      />
      <SelectFilter
        label="Department"
        value={single(filter.department_ids)}
        options={options.departments}
        onChange={(v) => onChange({ department_ids: v ? [v] : undefined })}
      />
      <SelectFilter
        label="Location"
        value={single(filter.location_ids)}
        options={options.locations}
        onChange={(v) => onChange({ location_ids: v ? [v] : undefined })}
      />
      <SelectFilter
        label="Currency"
        value={filter.currency ?? ''}
        options={currencies.map((c) => ({ value: c, label: c }))}
        onChange={(v) => onChange({ currency: v || undefined })}
      />
      <AmountFilter
        label="Min amount"
        minor={filter.amount_min}
        currency={currency}
        onChange={(minor) => onChange({ amount_min: minor })}
      />
      <AmountFilter
        label="Max amount"
        minor={filter.amount_max}
        currency={currency}
        onChange={(minor) => onChange({ amount_max: minor })}
      />
      <FilterField label="From">
        <input type="date" value={filter.from ?? ''} onChange={(e) => onChange({ from: e.target.value || undefined })} />
      </FilterField>
      <FilterField label="To">
        <input type="date" value={filter.to ?? ''} onChange={(e) => onChange({ to: e.target.value || undefined })} />
      </FilterField>
      <label className="filter-check">
        <input
          type="checkbox"
          checked={filter.missing_coding === true}
          onChange={(e) => onChange({ missing_coding: e.target.checked ? true : undefined })}
        />
        Missing coding
      </label>
      <label className="filter-check">
        <input
          type="checkbox"
          checked={filter.missing_receipt === true}
          onChange={(e) => onChange({ missing_receipt: e.target.checked ? true : undefined })}
        />
        Missing receipt
      </label>
    </>
  );
}

const STATE_WORDS: Record<TransactionState, string> = { PENDING: 'Pending', CLEARED: 'Cleared', DECLINED: 'Declined', REVERSED: 'Reversed' };

/** A filter set from elsewhere (a card's "View all", a report's click-through) that has no control of its own. */
function FilterChip({ clear, onClear, children }: { clear: string; onClear(): void; children: ReactNode }) {
  return (
    <span className="filter-chip">
      {children}
      <Button variant="ghost" size="sm" icon aria-label={clear} onClick={onClear}>
        ×
      </Button>
    </span>
  );
}

function FilterField({ label, children, error }: { label: string; children: ReactNode; error?: ReactNode }) {
  return (
    <label className="filter">
      <span className="filter-label">{label}</span>
      {children}
      {error}
    </label>
  );
}

const ALL: readonly SelectOption[] = [{ value: '', label: 'All' }];

function SelectFilter(props: { label: string; value: string; options: readonly SelectOption[]; onChange(v: string): void }) {
  return <SelectField {...props} leading={ALL} variant="filter" />;
}

/**
 * Typed in major units, stored in the URL in minor units. The text stays as typed while it is
 * not money yet ("12."), and the field says why instead of silently dropping it.
 */
function AmountFilter(props: { label: string; minor: number | undefined; currency: string; onChange(minor: number | undefined): void }) {
  const { label, minor, currency, onChange } = props;
  const [text, setText] = useState(() => formatAmountInput(minor, currency));
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();

  // The URL changed from elsewhere (clear filters, back button): show its value, unless the
  // text already means it ("12.5" and "12.50" are the same filter).
  const [seen, setSeen] = useState(minor);
  if (seen !== minor) {
    setSeen(minor);
    const parsed = parseAmountInput(text, currency, label);
    if (!parsed.ok || parsed.minor !== minor) {
      setText(formatAmountInput(minor, currency));
      setError(null);
    }
  }

  return (
    <FilterField
      label={label}
      error={
        error && (
          <span id={errorId} className="filter-error">
            {error}
          </span>
        )
      }
    >
      <input
        type="text"
        inputMode="decimal"
        className="input-amount"
        placeholder="0.00"
        value={text}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(e) => {
          setText(e.target.value);
          const parsed = parseAmountInput(e.target.value, currency, label);
          if (!parsed.ok) return setError(parsed.message);
          setError(null);
          if (parsed.minor !== minor) onChange(parsed.minor);
        }}
      />
    </FilterField>
  );
}
