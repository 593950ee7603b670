import { useId, useState, type FormEvent } from 'react';
import type { PurchaseOrder } from '../../../schema/entities/purchase-order.ts';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import { ModalActions } from '../../components/modal-actions.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { leftToReceive, localDateTimeValue, receiptLines, receivedAtIso, receiveDefaults, type ReceiveValues } from './po-view.ts';

export interface ReceiveDialogProps {
  po: PurchaseOrder;
  client: DataClient;
  online: boolean;
  onClose(): void;
  returnFocus?: () => HTMLElement | null | undefined;
}

/**
 * "Receive items": per line how many arrived (each starts at what is left, never more), and when.
 * Saved as the `itemReceipt.create` command with a client id: it works offline, the PO shows the
 * receipt at once (waiting to sync) and the server records it once.
 */
export function ReceiveDialog({ po, client, online, onClose, returnFocus }: ReceiveDialogProps) {
  const [values, setValues] = useState<ReceiveValues>(() => receiveDefaults(po));
  const [receivedAt, setReceivedAt] = useState(() => localDateTimeValue(new Date()));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const whenId = useId();
  const open = po.lines.filter((l) => leftToReceive(l) > 0);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const now = new Date();
    const checked = receiptLines(po, values);
    const at = receivedAtIso(receivedAt, now);
    const fieldErrors = checked.ok ? {} : { ...checked.errors };
    if (!at) fieldErrors.received_at = 'Choose when the items arrived (not in the future).';
    if (!checked.ok || !at) {
      setErrors(fieldErrors);
      setFormError(checked.ok ? 'Check the date marked below.' : checked.message);
      return;
    }
    setBusy(true);
    try {
      const r = await client.run('itemReceipt.create', { id: crypto.randomUUID(), purchase_order_id: po.id, lines: checked.lines, received_at: at });
      if (!r.ok) return setFormError(errorText(r.error));
      const units = checked.lines.reduce((n, l) => n + l.quantity, 0);
      const what = `${units} ${units === 1 ? 'item' : 'items'} received on ${po.po_number}`;
      toastInfo(online ? `${what}. It syncs in the background.` : `${what}, saved on this device: it syncs once, when you’re back online.`);
      onClose();
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal title={`Receive items on ${po.po_number}`} description="How many of each line arrived. Each starts at what is still to arrive." onClose={onClose} onSubmit={submit} returnFocus={returnFocus} size="lg">
      <FormError message={formError} />
      {!online && <p className="notice">You’re offline: the receipt is saved on this device and sent once when you’re back online.</p>}
      <div className="modal-fields po-receive">
        <table className="po-receive-lines">
          <thead>
            <tr>
              <th scope="col">Line</th>
              <th scope="col" className="num">Ordered</th>
              <th scope="col" className="num">Left</th>
              <th scope="col" className="num">Received now</th>
            </tr>
          </thead>
          <tbody>
            {open.map((line) => (
              <ReceiveRow key={line.id} description={line.description} ordered={line.quantity} left={leftToReceive(line)} value={values[line.id] ?? ''}
                error={errors[line.id]} onChange={(v) => {
                  setValues((x) => ({ ...x, [line.id]: v }));
                  setErrors((x) => ({ ...x, [line.id]: '' }));
                }} />
            ))}
          </tbody>
        </table>
        <label className="field" data-field="received_at">
          <span className="field-label">Received at</span>
          <input type="datetime-local" value={receivedAt} max={localDateTimeValue(new Date())} aria-invalid={errors.received_at ? true : undefined}
            aria-describedby={errors.received_at ? whenId : undefined} onChange={(e) => setReceivedAt(e.target.value)} />
          {errors.received_at && <span id={whenId} className="field-error">{errors.received_at}</span>}
        </label>
      </div>
      <ModalActions submitLabel="Record receipt" busy={busy} onCancel={onClose} />
    </Modal>
  );
}

function ReceiveRow({ description, ordered, left, value, error, onChange }: {
  description: string; ordered: number; left: number; value: string; error?: string | undefined; onChange(v: string): void;
}) {
  const errorId = useId();
  return (
    <tr>
      <th scope="row">{description}</th>
      <td className="num">{ordered}</td>
      <td className="num">{left}</td>
      <td className="num">
        <input
          type="number"
          inputMode="numeric"
          min={0}
          max={left}
          step={1}
          className="po-qty-input"
          aria-label={`${description}: received now`}
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => onChange(e.target.value)}
        />
        {error && <span id={errorId} className="field-error">{error}</span>}
      </td>
    </tr>
  );
}
