import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { SelectOption } from './select-field.tsx';
import { filterOptions, initialActive } from './combobox-filter.ts';
import { rovingTarget } from './roving.ts';
import { useLayer } from './use-layer.ts';
import { FieldNote } from './field-note.tsx';

export interface ComboboxProps {
  label: string;
  value: string;
  options: readonly SelectOption[];
  /** Choices listed before the options ("No change", "Clear", "None"), never filtered out. */
  leading?: readonly SelectOption[];
  onChange(value: string): void;
  disabled?: boolean;
  /** A message under the field; also marks the input invalid for assistive technology. */
  error?: string | null | undefined;
}

/**
 * A select with type-ahead (WAI-ARIA APG "editable combobox with list autocomplete"), for the
 * long coding lists (GL accounts, departments, locations, tracking): typing filters the list,
 * ArrowUp/Down move, Enter or a click chooses, Escape closes the list (and only the list, not
 * the dialog around it), leaving the field puts back the chosen option's name.
 */
export function Combobox({ label, value, options, leading = [], onChange, disabled, error }: ComboboxProps) {
  const id = useId();
  const noteId = `${id}-note`;
  const listId = `${id}-list`;
  const all = [...leading, ...options];
  const currentLabel = all.find((o) => o.value === value)?.label ?? '';
  const [text, setText] = useState<string | null>(null); // null: not editing, show the current label
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const shown = text ?? currentLabel;
  const list = open ? filterOptions(leading, options, shown, currentLabel) : [];

  function show(typed: string | null) {
    const next = filterOptions(leading, options, typed ?? currentLabel, currentLabel);
    setOpen(true);
    setActive(initialActive(next, leading.length, value, typed !== null && typed !== currentLabel));
  }
  function close() {
    setOpen(false);
    setText(null);
    setActive(-1);
  }
  function choose(option: SelectOption | undefined) {
    if (option && option.value !== value) onChange(option.value);
    close();
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (!open) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp' || (e.key === 'Enter' && e.altKey)) {
        e.preventDefault();
        show(text);
      }
      return;
    }
    if (e.key === 'Enter') {
      e.preventDefault(); // choosing must not submit the form around it
      choose(list[active]);
      return;
    }
    if (e.key === 'Tab') return close();
    const to = rovingTarget(e.key, active, list.length);
    if (to === null) return;
    e.preventDefault();
    setActive(to);
    document.getElementById(`${id}-opt-${to}`)?.scrollIntoView({ block: 'nearest' });
  }

  return (
    <div className="field combobox">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <div className="combobox-control">
        <input
          id={id}
          type="text"
          role="combobox"
          autoComplete="off"
          spellCheck={false}
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={open && active >= 0 ? `${id}-opt-${active}` : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? noteId : undefined}
          disabled={disabled}
          value={shown}
          onChange={(e) => {
            setText(e.target.value);
            show(e.target.value);
          }}
          onFocus={(e) => e.target.select()}
          onClick={() => (open ? undefined : show(text))}
          onBlur={close}
          onKeyDown={onKeyDown}
        />
        <span className="combobox-caret" aria-hidden="true">
          ▾
        </span>
        {open && (
          <ComboboxList id={listId} label={label} onEscape={close}>
            {list.length === 0 && (
              <li role="option" aria-selected={false} aria-disabled="true" className="combobox-empty">
                No matches
              </li>
            )}
            {list.map((o, i) => (
              <li
                key={o.value}
                id={`${id}-opt-${i}`}
                role="option"
                aria-selected={o.value === value}
                className={i === active ? 'combobox-option active' : 'combobox-option'}
                // Keep focus in the input: a click chooses without blurring it first.
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => choose(o)}
              >
                {o.label}
              </li>
            ))}
          </ComboboxList>
        )}
      </div>
      <FieldNote id={noteId} error={error} />
    </div>
  );
}

/** The open list is a layer of its own, so Escape closes it before the dialog it sits in. */
function ComboboxList({ id, label, onEscape, children }: { id: string; label: string; onEscape(): void; children: ReactNode }) {
  const box = useRef<HTMLUListElement>(null);
  useLayer({ ref: box, modal: false, autoFocus: false, onEscape });
  return (
    <ul ref={box} id={id} role="listbox" aria-label={label} className="combobox-list">
      {children}
    </ul>
  );
}
