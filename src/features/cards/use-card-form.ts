import { useMemo, useState } from 'react';
import { currencyChoices } from '../../lib/currency-choices.ts';
import type { FieldErrors } from './card-form.ts';

/**
 * A card dialog's form (issue, request, limit): the values, each field's error (cleared when the
 * field changes), the form's own line, busy while the command is saved, and the currency choices
 * (the default `currency` first, and the one chosen).
 */
export function useCardForm<V extends { currency: string }>(initial: () => V, currency: string) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FieldErrors<V>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const currencies = useMemo(() => currencyChoices(currency, values.currency), [currency, values.currency]);
  const set = <K extends keyof V>(key: K, value: V[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };
  /** What the form built, or null once the fields it refused are marked and the form says so. */
  const checked = <B extends { ok: true }>(built: B | { ok: false; errors: FieldErrors<V> }): B | null => {
    if (built.ok) return built as B;
    setErrors(built.errors);
    setFormError('Check the fields marked below.');
    return null;
  };
  /** Saves with the submit button busy meanwhile. */
  const run = async (save: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await save();
    } finally {
      setBusy(false);
    }
  };
  return { values, errors, formError, setFormError, busy, currencies, set, checked, run };
}
