import { receiptStateText, receiptStateTone, type ReceiptDisplay } from '../lib/receipts.ts';
import { ReceiptThumbnail } from './receipt-thumbnail.tsx';

export interface ReceiptListProps {
  /** The list's accessible name ("Invoice document", "Receipts of this claim"). */
  label: string;
  items: readonly ReceiptDisplay[];
  /** Each receipt offers "Remove <name>" when given. */
  onRemove?: (receipt: ReceiptDisplay) => void;
}

/** A form's attached files: each one's thumbnail with its upload state (a form's invoice, a claim's receipts). */
export function ReceiptList({ label, items, onRemove }: ReceiptListProps) {
  return (
    <ul className="receipt-list" aria-label={label}>
      {items.map((r) => (
        <ReceiptThumbnail
          key={r.id}
          name={r.name}
          url={r.url}
          contentType={r.content_type}
          stateText={receiptStateText(r)}
          tone={receiptStateTone(r.state)}
          loading={r.loading}
          {...(onRemove ? { onRemove: () => onRemove(r) } : {})}
        />
      ))}
    </ul>
  );
}
