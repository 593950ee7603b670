import type { z } from 'zod';

/**
 * Issue 31, the financing application's forms as data: each step's fields (flat names, dotted for
 * nesting, an index for a list's row: `owners.0.name`), the form's values as strings (what a draft
 * keeps), and the body the server's own zod schema checks (`toBody` then `schema.safeParse`).
 */
export type FieldKind = 'text' | 'email' | 'tel' | 'url' | 'date' | 'select' | 'money' | 'number' | 'percent' | 'check' | 'multi' | 'hidden' | 'secret' | 'textarea';

export interface FieldSpec {
  /** Dotted name relative to the row for a list's field. */
  name: string;
  label: string;
  kind: FieldKind;
  options?: readonly { value: string; label: string }[];
  optional?: boolean;
  hint?: string;
  autoComplete?: string;
}

export interface ListSpec {
  /** The body's array (`owners`, `accounts`). */
  name: string;
  /** What one row is called ("Owner", "Bank account"). */
  item: string;
  min: number;
  max: number;
  fields: readonly FieldSpec[];
}

export type FormValues = Record<string, string>;

/** A secret (SSN) is never written to this device: drafts drop it. */
export function persistable(values: FormValues, fields: readonly FieldSpec[], list?: ListSpec): FormValues {
  const secret = new Set([...fields, ...(list?.fields ?? [])].filter((f) => f.kind === 'secret').map((f) => f.name));
  return Object.fromEntries(Object.entries(values).filter(([k]) => !secret.has(list ? k.replace(/^[^.]+\.\d+\./, '') : k)));
}

/** How many rows a list form has (the highest index seen + 1, at least `min`). */
export function rowCount(values: FormValues, list: ListSpec): number {
  let n = 0;
  const re = new RegExp(`^${list.name}\\.(\\d+)\\.`);
  for (const k of Object.keys(values)) {
    const m = re.exec(k);
    if (m) n = Math.max(n, Number(m[1]) + 1);
  }
  return Math.max(n, list.min);
}

/** Removes row `index`, renumbering the rows after it. */
export function removeRow(values: FormValues, list: ListSpec, index: number): FormValues {
  const re = new RegExp(`^${list.name}\\.(\\d+)\\.(.+)$`);
  const out: FormValues = {};
  for (const [k, v] of Object.entries(values)) {
    const m = re.exec(k);
    if (!m) out[k] = v;
    else if (Number(m[1]) < index) out[k] = v;
    else if (Number(m[1]) > index) out[`${list.name}.${Number(m[1]) - 1}.${m[2]}`] = v;
  }
  return out;
}

function fieldValue(kind: FieldKind, raw: string | undefined, optional: boolean): unknown {
  const v = (raw ?? '').trim();
  switch (kind) {
    case 'check':
      return raw === 'true';
    case 'multi':
      return v === '' ? [] : v.split(',');
    case 'money': {
      if (v === '') return undefined;
      const n = Number(v.replace(/[,$\s]/g, ''));
      return { amount: Number.isFinite(n) ? Math.round(n * 100) : Number.NaN, currency: 'USD' };
    }
    case 'number':
      return v === '' ? undefined : Number(v);
    case 'percent':
      return v === '' ? undefined : Math.round(Number(v) * 100);
    default:
      if (v === '') return optional ? null : undefined;
      return kind === 'secret' || kind === 'text' || kind === 'textarea' ? raw : v;
  }
}

function setPath(target: Record<string, unknown>, path: string[], value: unknown) {
  let node: Record<string, unknown> = target;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i]!;
    node[key] ??= /^\d+$/.test(path[i + 1]!) ? [] : {};
    node = node[key] as Record<string, unknown>;
  }
  const last = path[path.length - 1]!;
  if (value !== undefined) node[last] = value;
}

/** The body the step's call takes, built from the form's strings (empty optional text → null, hidden ids dropped when empty). */
export function toBody(values: FormValues, fields: readonly FieldSpec[], list?: ListSpec): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const put = (prefix: string, f: FieldSpec) => {
    const raw = values[prefix + f.name];
    if (f.kind === 'hidden' && !raw) return;
    setPath(body, (prefix + f.name).split('.'), fieldValue(f.kind, raw, f.optional ?? false));
  };
  for (const f of fields) put('', f);
  if (list) {
    body[list.name] = [];
    const n = rowCount(values, list);
    for (let i = 0; i < n; i++) for (const f of list.fields) put(`${list.name}.${i}.`, f);
  }
  return body;
}

/** The server's rule broken per field, in words ("EIN must be a valid EIN"), keyed by the form's names. */
export function fieldErrors(result: z.ZodSafeParseResult<unknown>, labels: Record<string, string>): Record<string, string> {
  if (result.success) return {};
  const out: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join('.');
    if (out[key]) continue;
    const generic = labels[key.replace(/\.\d+\./, '.#.')] ?? labels[key] ?? 'This field';
    out[key] = issue.code === 'invalid_type' && issue.input === undefined ? `${generic} is required.` : `${generic} ${wordsOf(issue)}`;
  }
  return out;
}

function wordsOf(issue: z.core.$ZodIssue): string {
  if (issue.message.startsWith('must ')) return `${issue.message}.`;
  switch (issue.code) {
    case 'too_small':
      return issue.origin === 'string' ? 'is required.' : issue.origin === 'array' ? `needs at least ${String(issue.minimum)}.` : `must be at least ${String(issue.minimum)}.`;
    case 'too_big':
      return issue.origin === 'string' ? `must be at most ${String(issue.maximum)} characters.` : `must be at most ${String(issue.maximum)}.`;
    case 'invalid_format':
      return issue.format === 'email' ? 'must be an email address.' : issue.format === 'url' ? 'must be a web address (https://…).' : 'is not in the expected format.';
    case 'invalid_value':
      return 'must be checked.';
    default:
      return 'is not valid.';
  }
}

/** The form's labels by name (a list's field as `list.#.name`), what `fieldErrors` says. */
export function labelsOf(fields: readonly FieldSpec[], list?: ListSpec): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of fields) out[f.name.replace(/\.(amount|currency)$/, '')] = f.label;
  for (const f of fields) if (f.kind === 'money') out[`${f.name}.amount`] = f.label;
  if (list) for (const f of list.fields) out[`${list.name}.#.${f.name}`] = f.label;
  return out;
}
