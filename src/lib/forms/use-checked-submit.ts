import { useState, type FormEvent } from 'react';
import { errorText } from '../error-text.ts';

/** A refusal from the server: its words, and its field messages. */
export interface FormRefusal {
  error_code?: string;
  message?: string;
  errors?: Record<string, string> | undefined;
}

/** What a form's check answers: the body to send, or the fields' messages. */
export type Checked<B, E> = { ok: true; body: B } | { ok: false; errors: E };

/**
 * A form dialog's submit: checked as the server checks (`build`) before anything is sent ("Check
 * the fields marked below." over the fields' messages), then `send`, busy meanwhile. `send`
 * answers null once saved; else the server's refusal (its words over the form, its field
 * messages put on the fields through `fieldErrors`), or the refusal already in words (shown over
 * the form, the fields left as they are).
 */
export function useCheckedSubmit<B, E extends Record<string, string | undefined>>(
  build: () => Checked<B, E>,
  send: (body: B) => Promise<FormRefusal | string | null>,
  fieldErrors: (errors: Record<string, string>) => E = (e) => e as E,
) {
  const [errors, setErrors] = useState<E>({} as E);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setFormError(null);
    const built = build();
    if (!built.ok) {
      setErrors(built.errors);
      setFormError('Check the fields marked below.');
      return;
    }
    setBusy(true);
    try {
      const refusal = await send(built.body);
      if (refusal === null) return;
      if (typeof refusal === 'string') return setFormError(refusal);
      setErrors(refusal.errors ? fieldErrors(refusal.errors) : ({} as E));
      setFormError(errorText(refusal));
    } finally {
      setBusy(false);
    }
  }
  return { errors, setErrors, formError, busy, submit };
}

/** A change to some fields: their messages go (the same object when none was there). */
export function withoutErrors<E extends Record<string, unknown>>(errors: E, keys: readonly string[]): E {
  return keys.some((k) => errors[k]) ? (Object.fromEntries(Object.entries(errors).filter(([k]) => !keys.includes(k))) as E) : errors;
}
