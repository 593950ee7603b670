import { useNavigate } from '@tanstack/react-router';
import { useAppStore, useAppState, useDataClient } from '../data-access/data-context.tsx';
import { errorText } from '../lib/error-text.ts';
import { toastError } from '../lib/toast-store.ts';
import { unsyncedQuestion } from './sign-out-text.ts';

/** Sign-out (this device, or every device); asks first when edits have not synced. */
export function useSignOut() {
  const client = useDataClient();
  const store = useAppStore();
  const navigate = useNavigate();
  const pending = useAppState((s) => (s.status?.pending ?? 0) + (s.status?.failed ?? 0) + (s.status?.needsStepUp ?? 0));
  return async (everywhere: boolean) => {
    if (pending > 0 && !window.confirm(unsyncedQuestion(pending))) return;
    if (everywhere) {
      const result = await client.signOutAllSessions();
      if (!result.ok) {
        toastError(errorText(result.error));
        return;
      }
    } else {
      await client.signOut();
    }
    store.set({ session: null, status: null });
    await navigate({ to: '/sign-in', search: {} });
  };
}

