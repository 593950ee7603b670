import { useStore } from '../data-access/store.ts';
import { Toast } from '../components/toast.tsx';
import { dismissToast, toastStore } from '../lib/toast-store.ts';

/** Toasts: destructive ones are alerts (read out at once), the others polite status messages. */
export function Toasts() {
  const toasts = useStore(toastStore, (s) => s.toasts);
  return (
    <div className="toasts">
      {toasts.map((t) => (
        <Toast key={t.id} tone={t.tone} message={t.message} onDismiss={() => dismissToast(t.id)} />
      ))}
    </div>
  );
}
