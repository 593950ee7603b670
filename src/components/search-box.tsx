import type { Ref } from 'react';

export interface SearchBoxProps {
  /** The input's id (a page focuses it with '/'). */
  id: string;
  /** Its accessible name, e.g. "Search transactions". */
  label: string;
  placeholder: string;
  ref: Ref<HTMLInputElement>;
  value: string;
  onChange(q: string): void;
  /** ArrowDown, Enter or Escape: hand focus to the table. */
  onLeave(): void;
}

/** A list's instant search box, with the '/' hint while it is empty. */
export function SearchBox({ id, label, placeholder, ref, value, onChange, onLeave }: SearchBoxProps) {
  return (
    <div className="search">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        ref={ref}
        type="search"
        placeholder={placeholder}
        autoComplete="off"
        spellCheck={false}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'Enter') {
            e.preventDefault();
            onLeave();
          } else if (e.key === 'Escape') {
            onLeave();
          }
        }}
      />
      {!value && (
        <kbd className="search-hint" aria-hidden="true">
          /
        </kbd>
      )}
    </div>
  );
}
