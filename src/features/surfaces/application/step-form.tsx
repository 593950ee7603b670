import { useId, type ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { Button } from '../../../components/button.tsx';
import { FieldNote } from '../../../components/field-note.tsx';
import { removeRow, rowCount, type FieldSpec, type FormValues, type ListSpec } from './step-fields.ts';

/**
 * Issue 31: one step's form from its field specs (step-fields.ts) — every field labelled, its
 * error (the server's rule, checked here first) under it in words; a list step's rows can be added
 * and removed.
 */
export interface StepFieldsProps {
  fields: readonly FieldSpec[];
  list?: ListSpec | undefined;
  values: FormValues;
  errors: Record<string, string>;
  onChange(values: FormValues): void;
  /** Hints shown for a field by name (e.g. a saved SSN's last four). */
  saved?: Record<string, string>;
  disabled?: boolean;
  /** A list row the server holds (its `id` set) is removed by the server, confirmed first (saved-row-removal.tsx). */
  removeSaved?: SavedRowRemoval | undefined;
}

export interface SavedRowRemoval {
  onRemove(index: number, id: string): void;
  /** Why removing a saved row is not possible now (offline, submitted), or null. */
  blocked: string | null;
}

export function StepFields({ fields, list, values, errors, onChange, saved = {}, disabled, removeSaved }: StepFieldsProps) {
  const set = (name: string, value: string) => onChange({ ...values, [name]: value });
  return (
    <>
      {fields.map((f) => (
        <Field key={f.name} spec={f} name={f.name} value={values[f.name] ?? ''} error={errors[f.name]} saved={saved[f.name]} disabled={disabled} onChange={(v) => set(f.name, v)} />
      ))}
      {list && <ListRows list={list} values={values} errors={errors} onChange={onChange} saved={saved} disabled={disabled} removeSaved={removeSaved} />}
    </>
  );
}

function ListRows({ list, values, errors, onChange, saved, disabled, removeSaved }: Omit<StepFieldsProps, 'fields' | 'list'> & { list: ListSpec; saved: Record<string, string> }) {
  const n = rowCount(values, list);
  const item = list.item.toLowerCase();
  return (
    <>
      {errors[list.name] && <p className="form-error" role="alert">{errors[list.name]}</p>}
      {Array.from({ length: n }, (_, i) => (
        <fieldset key={i} className="application-row">
          <legend>{`${list.item} ${i + 1}`}</legend>
          {list.fields.map((f) => {
            const name = `${list.name}.${i}.${f.name}`;
            return <Field key={name} spec={f} name={name} value={values[name] ?? ''} error={errors[name]} saved={saved[name]} disabled={disabled} onChange={(v) => onChange({ ...values, [name]: v })} />;
          })}
          <RemoveRow
            label={`Remove ${item} ${i + 1}`}
            id={values[`${list.name}.${i}.id`] ?? ''}
            canDrop={n > list.min}
            disabled={disabled}
            removeSaved={removeSaved}
            onDrop={() => onChange(removeRow(values, list, i))}
            onRemoveSaved={(id) => removeSaved?.onRemove(i, id)}
          />
        </fieldset>
      ))}
      {n < list.max && (
        <Button size="sm" variant="secondary" disabled={disabled} onClick={() => onChange({ ...values, [`${list.name}.${n}.${list.fields[1]!.name}`]: '' })}>
          {`Add ${list.item.toLowerCase()}`}
        </Button>
      )}
    </>
  );
}

interface RemoveRowProps {
  label: string;
  id: string;
  canDrop: boolean;
  disabled: boolean | undefined;
  removeSaved: SavedRowRemoval | undefined;
  onDrop(): void;
  onRemoveSaved(id: string): void;
}

/** A row typed here only is dropped at once; a saved one asks the server (confirmed), or says why it can't now. */
function RemoveRow({ label, id, canDrop, disabled, removeSaved, onDrop, onRemoveSaved }: RemoveRowProps) {
  if (id && removeSaved) {
    return (
      <div className="application-actions">
        <Button size="sm" variant="ghost" disabled={disabled || removeSaved.blocked !== null} onClick={() => onRemoveSaved(id)}>
          {label}
        </Button>
        {removeSaved.blocked && <span className="muted">{removeSaved.blocked}</span>}
      </div>
    );
  }
  if (!canDrop) return null;
  return (
    <Button size="sm" variant="ghost" disabled={disabled} onClick={onDrop}>
      {label}
    </Button>
  );
}

interface FieldProps {
  spec: FieldSpec;
  name: string;
  value: string;
  error: string | undefined;
  saved: string | undefined;
  disabled: boolean | undefined;
  onChange(value: string): void;
}

const INPUT_TYPES: Partial<Record<FieldSpec['kind'], string>> = {
  email: 'email', tel: 'tel', url: 'url', date: 'date', secret: 'password', number: 'text', money: 'text', percent: 'text',
};

function Field({ spec, name, value, error, saved, disabled, onChange }: FieldProps) {
  const noteId = useId();
  if (spec.kind === 'hidden') return null;
  const hint = saved ?? spec.hint;
  const described = error || hint ? noteId : undefined;
  if (spec.kind === 'check') {
    return (
      <div className="field field-check" data-field={name}>
        <label>
          <input type="checkbox" name={name} checked={value === 'true'} disabled={disabled} aria-invalid={error ? true : undefined} aria-describedby={described} onChange={(e) => onChange(String(e.target.checked))} />
          {` ${spec.label}`}
        </label>
        <FieldNote id={noteId} error={error} hint={hint} />
      </div>
    );
  }
  if (spec.kind === 'multi') {
    const chosen = new Set(value ? value.split(',') : []);
    const toggle = (v: string, on: boolean) => {
      const next = new Set(chosen);
      if (on) next.add(v);
      else next.delete(v);
      onChange((spec.options ?? []).map((o) => o.value).filter((o) => next.has(o)).join(','));
    };
    return (
      <fieldset className="field" data-field={name} aria-describedby={described}>
        <legend className="field-label">{spec.label}</legend>
        {(spec.options ?? []).map((o) => (
          <label key={o.value} className="field-check">
            <input type="checkbox" checked={chosen.has(o.value)} disabled={disabled} onChange={(e) => toggle(o.value, e.target.checked)} />
            {` ${o.label}`}
          </label>
        ))}
        <FieldNote id={noteId} error={error} hint={hint} />
      </fieldset>
    );
  }
  const common = {
    name, value, disabled, 'aria-invalid': error ? true : undefined, 'aria-describedby': described,
  } as const;
  return (
    <label className="field" data-field={name}>
      <span className="field-label">{spec.optional ? `${spec.label} (optional)` : spec.label}</span>
      {spec.kind === 'select' ? (
        <select {...common} onChange={(e) => onChange(e.target.value)}>
          <option value="">Choose…</option>
          {(spec.options ?? []).map((o) => (
            <option key={o.value} value={o.value}>{o.label}</option>
          ))}
        </select>
      ) : spec.kind === 'textarea' ? (
        <textarea {...common} rows={3} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input
          {...common}
          type={INPUT_TYPES[spec.kind] ?? 'text'}
          inputMode={spec.kind === 'money' || spec.kind === 'percent' ? 'decimal' : spec.kind === 'number' ? 'numeric' : undefined}
          autoComplete={spec.kind === 'secret' ? 'off' : spec.autoComplete}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
      <FieldNote id={noteId} error={error} hint={hint} />
    </label>
  );
}

/** A link to a step of the application (`''` is the step list). */
export function StepLink({ slug, className, children }: { slug: string; className?: string; children: ReactNode }) {
  return (
    <Link to="/application/$" params={{ _splat: slug }} className={className}>
      {children}
    </Link>
  );
}
