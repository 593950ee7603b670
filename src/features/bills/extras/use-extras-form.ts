import { useState, type FormEvent } from 'react';
import { errorText } from '../../../lib/error-text.ts';
import type { BillFieldErrors } from '../bill-form.ts';

/** A refusal from the server: its words, and its field messages. */
export interface FormRefusal {
  error_code?: string;
  message?: string;
  errors?: Record<string, string> | undefined;
}

/**
 * The extras forms' submit (recurring bill, template, vendor credit): checked as the server checks
 * (`build`) before anything is sent, then `send` (which answers null once saved, else the
 * server's refusal, its field messages put on the fields through `fieldErrors`); busy meanwhile.
 */
export function useExtrasForm<B>(
  build: () => { ok: true; body: B } | { ok: false; errors: BillFieldErrors },
  send: (body: B) => Promise<FormRefusal | null>,
  fieldErrors: (errors: Record<string, string>) => BillFieldErrors = (e) => e,
) {
  const [errors, setErrors] = useState<BillFieldErrors>({});
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
      if (!refusal) return;
      setErrors(refusal.errors ? fieldErrors(refusal.errors) : {});
      setFormError(errorText(refusal));
    } finally {
      setBusy(false);
    }
  }
  return { errors, setErrors, formError, busy, submit };
}
