import { Button } from './button.tsx';

export interface ToastProps {
  tone: 'error' | 'info';
  message: string;
  onDismiss(): void;
}

/** One toast: an error is an alert (read out at once, stays until dismissed), info is a polite status. */
export function Toast({ tone, message, onDismiss }: ToastProps) {
  return (
    <div className={`toast toast-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      <span className="toast-message">{message}</span>
      <Button variant="ghost" size="sm" icon aria-label="Dismiss" onClick={onDismiss}>
        ×
      </Button>
    </div>
  );
}
