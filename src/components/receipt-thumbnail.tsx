import { Button } from './button.tsx';
import { StatusPill, type PillTone } from './status-pill.tsx';

export interface ReceiptThumbnailProps {
  /** The file's name (the image's alternative text). */
  name: string;
  /** An object URL of the ≤ 320 px thumbnail, or null: PDFs and undecodable images show an icon. */
  url: string | null;
  contentType: string | null;
  /** What its upload stands at ("Waiting to upload", "Upload failed: …"). */
  stateText: string;
  tone: PillTone;
  /** Shown as "Remove <name>" when given. */
  onRemove?: () => void;
  removeLabel?: string;
}

/** One receipt: its thumbnail from the device (or a document icon), its upload state, Remove. */
export function ReceiptThumbnail({ name, url, contentType, stateText, tone, onRemove, removeLabel = 'Remove' }: ReceiptThumbnailProps) {
  const isPdf = contentType === 'application/pdf';
  return (
    <li className="receipt-thumb">
      {url ? (
        <img className="receipt-thumb-image" src={url} alt={name} />
      ) : (
        // No first-page render for PDFs (nor a thumbnail for a file not on this device): an icon.
        <span className="receipt-thumb-icon" role="img" aria-label={isPdf ? `PDF ${name}` : name}>
          {isPdf ? 'PDF' : '🧾'}
        </span>
      )}
      <span className="receipt-thumb-name">{name}</span>
      <StatusPill tone={tone} title={stateText}>
        {stateText}
      </StatusPill>
      {onRemove && (
        <Button size="sm" variant="ghost" onClick={onRemove}>
          {removeLabel} <span className="sr-only">{name}</span>
        </Button>
      )}
    </li>
  );
}
