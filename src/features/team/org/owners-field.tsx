import { useId, useMemo } from 'react';
import type { UserRow } from '../../../../schema/entities/spend-user.ts';
import { Combobox } from '../../../components/combobox.tsx';
import { ownerChoices } from './org-view.ts';

export interface OwnersFieldProps {
  /** Chosen user ids, in order. */
  value: readonly string[];
  onChange(next: string[]): void;
  users: readonly UserRow[];
  /** id → name of every live member (former members read as such). */
  names: ReadonlyMap<string, string>;
  disabled?: boolean;
}

/**
 * The people picker: the owners chosen so far, each with its own Remove button, and a type-ahead
 * (the design system's combobox) listing the members not yet chosen. Choosing one adds it.
 */
export function OwnersField({ value, onChange, users, names, disabled }: OwnersFieldProps) {
  const options = useMemo(() => ownerChoices(users, value), [users, value]);
  const labelId = useId();
  return (
    <div className="org-owners-field">
      <span className="field-label" id={labelId}>Owners</span>
      {value.length === 0 ? (
        <p className="muted org-owners-none">No owners yet.</p>
      ) : (
        <ul className="org-owner-chips" aria-labelledby={labelId}>
          {value.map((id) => {
            const name = names.get(id) ?? 'Former member';
            return (
              <li key={id} className="org-owner-chip">
                <span>{name}</span>
                <button type="button" className="org-owner-remove" disabled={disabled} onClick={() => onChange(value.filter((v) => v !== id))}>
                  <span aria-hidden="true">×</span>
                  <span className="sr-only">Remove {name}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <Combobox
        label="Add an owner"
        value=""
        options={options}
        disabled={disabled || options.length === 0}
        onChange={(id) => {
          if (id && !value.includes(id)) onChange([...value, id]);
        }}
      />
    </div>
  );
}
