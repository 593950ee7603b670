import { useId, useRef, useState, type DragEvent } from 'react';
import { buttonClass } from './button.tsx';

/** What the file picker offers: photos and PDFs (the server's own check is by type and bytes). */
export const RECEIPT_ACCEPT = 'image/*,application/pdf';

export interface ReceiptCaptureProps {
  /** Files picked or dropped, several at once. */
  onFiles(files: File[]): void;
  disabled?: boolean;
  label?: string;
  /** Focus the file button on mount (the palette's "Upload receipts"). */
  autoFocus?: boolean;
  /** Another kind of file (e.g. a vendors CSV): its types, one file or several, the drop zone's words. */
  accept?: string;
  multiple?: boolean;
  /** Offer the back camera on phones (receipts only). */
  camera?: boolean;
  hint?: string;
}

/**
 * Capture receipts: a file button (`capture="environment"` opens the back camera on phones,
 * `multiple`) and, on desktop, a drop zone around it. Files go to `onFiles` as they are; the
 * worker checks type and size before keeping anything.
 */
export function ReceiptCapture({
  onFiles, disabled = false, label = 'Add receipt', autoFocus = false, accept = RECEIPT_ACCEPT, multiple = true, camera = true,
  hint = 'or drop photos or PDFs here',
}: ReceiptCaptureProps) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);

  const take = (list: FileList | null) => {
    const files = list ? [...list] : [];
    if (files.length > 0 && !disabled) onFiles(files);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    take(e.dataTransfer.files);
  };

  return (
    <div
      className={over ? 'receipt-drop receipt-drop-over' : 'receipt-drop'}
      onDragOver={(e) => {
        if (disabled) return;
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <input
        ref={input}
        id={inputId}
        className="sr-only"
        type="file"
        accept={accept}
        capture={camera ? 'environment' : undefined}
        multiple={multiple}
        disabled={disabled}
        autoFocus={autoFocus}
        onChange={(e) => {
          take(e.currentTarget.files);
          // The same file picked again must fire change again.
          e.currentTarget.value = '';
        }}
      />
      <label htmlFor={inputId} className={[buttonClass({ size: 'sm' }), disabled && 'receipt-drop-disabled'].filter(Boolean).join(' ')}>
        {label}
      </label>
      <span className="receipt-drop-hint">{hint}</span>
    </div>
  );
}
