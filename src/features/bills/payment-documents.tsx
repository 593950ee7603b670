import { useEffect, useState } from 'react';
import type { CheckImages } from '../../../schema/api/calls-bill-rails.ts';
import type { BillPaymentRow } from '../../../workers/api.ts';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { Modal } from '../../components/modal.tsx';
import { Skeleton } from '../../components/skeleton.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { formatDay, formatMoney } from '../../lib/format.ts';
import { saveFile } from '../../lib/save-file.ts';
import { toastError, toastInfo } from '../../lib/toast-store.ts';
import { failureText } from './run-bill-call.ts';
import './bill-rails.css';

export interface PaymentDocumentsProps {
  payment: BillPaymentRow;
  currency: string;
  vendor: string;
  client: DataClient;
  online: boolean;
}

/**
 * Issue 30: one payment attempt's documents in the bill drawer's payments section: a check's
 * images ("View check", a dialog with front and back) and, while it is mailed and not cleared,
 * "Void check" (asked first: the money comes back and the bill can be paid again); a wire's MT103
 * ("Download MT103"). Online only: the documents are drawn by the server.
 */
export function PaymentDocuments({ payment, currency, vendor, client, online }: PaymentDocumentsProps) {
  const [viewing, setViewing] = useState(false);
  const [voiding, setVoiding] = useState(false);
  const [busy, setBusy] = useState(false);
  if (payment.rail === 'ACH') return null;
  const offline = online ? undefined : 'This needs a connection.';

  async function downloadMt103() {
    setBusy(true);
    try {
      const r = await client.paymentMt103(payment.id);
      if (!r.ok) return toastError(failureText(r));
      saveFile(r.file, `MT103-attempt-${payment.attempt}.txt`);
    } finally {
      setBusy(false);
    }
  }

  async function voidIt(): Promise<boolean> {
    const r = await client.voidCheck(payment.id);
    if (!r.ok) {
      toastError(failureText(r));
      return false;
    }
    toastInfo(`Check #${payment.check_number} voided: ${formatMoney(payment.amount, currency)} is back in your operating account and the bill can be paid again.`);
    return true;
  }

  return (
    <span className="bill-payment-docs">
      {payment.rail === 'CHECK' && (
        <>
          <Button size="sm" variant="secondary" disabled={!online} title={offline} onClick={() => setViewing(true)}>
            View check<span className="sr-only"> #{payment.check_number}</span>
          </Button>
          {payment.status === 'PENDING' && (
            <Button size="sm" variant="danger" disabled={!online} title={offline} onClick={() => setVoiding(true)}>
              Void check<span className="sr-only"> #{payment.check_number}</span>
            </Button>
          )}
        </>
      )}
      {payment.rail === 'WIRE' && (
        <Button size="sm" variant="secondary" disabled={!online} title={offline} loading={busy} onClick={() => void downloadMt103()}>
          Download MT103
        </Button>
      )}
      {viewing && <CheckImagesDialog paymentId={payment.id} checkNumber={payment.check_number} client={client} onClose={() => setViewing(false)} />}
      {voiding && (
        <ConfirmDialog
          title={`Void check #${payment.check_number} to ${vendor}?`}
          description={`The check for ${formatMoney(payment.amount, currency)} is stopped before it clears: the money goes back to your operating account and the bill is approved again, to be paid anew. If ${vendor} deposits it anyway, the bank refuses it.`}
          confirmLabel="Void check"
          tone="danger"
          onClose={() => setVoiding(false)}
          onConfirm={voidIt}
        />
      )}
    </span>
  );
}

function CheckImagesDialog({ paymentId, checkNumber, client, onClose }: { paymentId: string; checkNumber: number | null; client: DataClient; onClose(): void }) {
  const [images, setImages] = useState<CheckImages | string | null>(null);
  useEffect(() => {
    let live = true;
    void client.checkImages(paymentId).then((r) => live && setImages(r.ok ? r.images : failureText(r)));
    return () => {
      live = false;
    };
  }, [client, paymentId]);
  const state = typeof images === 'object' && images
    ? images.voided_at ? `Voided ${formatDay(images.voided_at)}` : images.cleared_at ? `Cleared ${formatDay(images.cleared_at)}` : images.mailed_at ? `Mailed ${formatDay(images.mailed_at)}, not yet cleared` : ''
    : undefined;
  return (
    <Modal title={`Check #${checkNumber}`} description={state} onClose={onClose} closeOnBackdrop size="lg">
      {images === null && <div className="check-images" aria-busy="true"><Skeleton height={180} /><Skeleton height={180} /></div>}
      {typeof images === 'string' && <p className="notice notice-error" role="alert">{images}</p>}
      {typeof images === 'object' && images && (
        <div className="check-images">
          <figure>
            <img src={images.front} alt={`Front of check #${images.check_number}`} />
            <figcaption>Front</figcaption>
          </figure>
          <figure>
            <img src={images.back} alt={`Back of check #${images.check_number}${images.cleared_at ? ', endorsed for deposit' : ''}`} />
            <figcaption>Back</figcaption>
          </figure>
        </div>
      )}
      <div className="modal-actions">
        <Button variant="ghost" onClick={onClose}>Close</Button>
      </div>
    </Modal>
  );
}
