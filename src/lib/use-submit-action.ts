import { useState, type FormEvent } from 'react';
import { errorText } from './error-text.ts';

type ErrorLike = { error_code?: string; message?: string };

/**
 * Busy and error state of a form that submits one async action. The action returns the
 * failure to show (its §8 text via errorText) or nothing on success.
 */
export function useSubmitAction() {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = (action: () => Promise<ErrorLike | null | undefined | void>) => async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const failure = await action();
      if (failure) setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, submit };
}
