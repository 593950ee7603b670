import { useNavigate } from '@tanstack/react-router';
import { useAppStore, useAppState, useDataClient } from '../data-access/data-context.tsx';
import { errorText } from './error-text.ts';
import { toastError } from './toast-store.ts';
import { unsyncedQuestion } from './sign-out-text.ts';

/**
 * Sign-out (this device, or every device); asks first when edits have not synced. Then to the
 * sign-in page, or (`stay`) nowhere: a page that works signed out (an invite or sign-in link)
 * carries on where it is. Answers whether the person was signed out.
 */
export function useSignOut({ stay = false }: { stay?: boolean } = {}) {
  const client = useDataClient();
  const store = useAppStore();
  const navigate = useNavigate();
  const pending = useAppState((s) => (s.status?.pending ?? 0) + (s.status?.failed ?? 0) + (s.status?.needsStepUp ?? 0));
  return async (everywhere: boolean): Promise<boolean> => {
    if (pending > 0 && !window.confirm(unsyncedQuestion(pending))) return false;
    if (everywhere) {
      const result = await client.signOutAllSessions();
      if (!result.ok) {
        toastError(errorText(result.error));
        return false;
      }
    } else {
      await client.signOut();
    }
    store.set({ session: null, surfaceSession: null, status: null });
    if (!stay) await navigate({ to: '/sign-in', search: {} });
    return true;
  };
}

