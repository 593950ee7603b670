import { Button } from './button.tsx';
import { Skeleton } from './skeleton.tsx';
import { StatusPill, type PillTone } from './status-pill.tsx';

export interface ReceiptThumbnailProps {
  /** The file's name (the image's alternative text). */
  name: string;
  /** An object URL of the ≤ 320 px thumbnail, or null: PDFs and undecodable images show an icon. */
  url: string | null;
  contentType: string | null;
  /** What its upload stands at ("Waiting to upload", "Upload failed: …", "Not available offline"). */
  stateText: string;
  tone: PillTone;
  /** The file is being fetched from the server (stored there, not yet on this device). */
  loading?: boolean;
  /** Opens the full image or PDF; the thumbnail becomes a button "Open <name>". */
  onOpen?: () => void;
  /** Shown as "Remove <name>" when given. */
  onRemove?: () => void;
  removeLabel?: string;
}

/** One receipt: its thumbnail (or a document icon, or a placeholder while it loads), its state, Open, Remove. */
export function ReceiptThumbnail({ name, url, contentType, stateText, tone, loading, onOpen, onRemove, removeLabel = 'Remove' }: ReceiptThumbnailProps) {
  const isPdf = contentType === 'application/pdf';
  const picture = loading ? (
    <span className="receipt-thumb-icon" role="img" aria-label={`Loading ${name}`} aria-busy="true">
      <Skeleton width="100%" height="100%" />
    </span>
  ) : url ? (
    <img className="receipt-thumb-image" src={url} alt={name} />
  ) : (
    // No first-page render for PDFs (nor a thumbnail for a file not on this device): an icon.
    <span className="receipt-thumb-icon" role="img" aria-label={isPdf ? `PDF ${name}` : name}>
      {isPdf ? 'PDF' : '🧾'}
    </span>
  );
  return (
    <li className="receipt-thumb">
      {onOpen && !loading ? (
        <button type="button" className="receipt-thumb-open" onClick={onOpen} aria-label={`Open ${name}`}>
          {picture}
        </button>
      ) : (
        picture
      )}
      <span className="receipt-thumb-name">{name}</span>
      <StatusPill tone={tone} title={loading ? 'Loading…' : stateText}>
        {loading ? 'Loading…' : stateText}
      </StatusPill>
      {onRemove && (
        <Button size="sm" variant="ghost" onClick={onRemove}>
          {removeLabel} <span className="sr-only">{name}</span>
        </Button>
      )}
    </li>
  );
}
