import { useStore } from '../data-access/store.ts';
import { dismissToast, toastStore } from '../lib/toast-store.ts';

/** Toasts: destructive ones are alerts (read out at once), the others polite status messages. */
export function Toasts() {
  const toasts = useStore(toastStore, (s) => s.toasts);
  return (
    <div className="toasts">
      {toasts.map((t) => (
        <div key={t.id} className={`toast toast-${t.tone}`} role={t.tone === 'error' ? 'alert' : 'status'}>
          <span className="toast-message">{t.message}</span>
          <button type="button" className="btn-ghost btn-sm" aria-label="Dismiss" onClick={() => dismissToast(t.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
