import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { Button, buttonClass } from '../../components/button.tsx';
import { DateField } from '../../components/date-field.tsx';
import { MoneyField } from '../../components/money-field.tsx';
import { ReceiptThumbnail } from '../../components/receipt-thumbnail.tsx';
import { TextField } from '../../components/text-field.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { receiptStateText, receiptStateTone } from '../../lib/receipts.ts';
import { toastError, toastInfo } from '../../lib/toast-store.ts';
import {
  claimLine, currencyChoices, fieldsFromForm, formValuesOf, matchStatusText, outOfPocketHref, transactionLine,
  type ClaimUse, type ReceiptFormErrors, type ReceiptFormValues,
} from './receipt-form.ts';
import type { InboxItem } from './use-inbox.ts';

export interface InboxCardProps {
  receipt: InboxItem;
  /** The claim that uses this receipt (it is matched: no fields, no other claim offered). */
  claim?: ClaimUse | null;
  client: DataClient;
  /** The business currency: the form's default. */
  currency: string;
  onChanged(): void;
}

/** Today on this device's calendar (a receipt's date cannot be later). */
export const localToday = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/** One receipt of the inbox: thumbnail and upload state, its fields, its match or suggestions. */
export function InboxCard({ receipt: r, claim = null, client, currency, onChanged }: InboxCardProps) {
  const navigate = useNavigate();
  const statusId = useId();
  const [busy, setBusy] = useState(false);
  const attached = r.attached_to;

  const act = async (run: () => Promise<{ ok: true } | { ok: false; error: { message: string } }>, done?: string) => {
    setBusy(true);
    try {
      const result = await run();
      if (!result.ok) toastError(result.error.message);
      else if (done) toastInfo(done);
    } finally {
      setBusy(false);
      onChanged();
    }
  };
  const [best, ...others] = r.suggestions;

  return (
    <li className="inbox-card">
      <article className="inbox-card-inner" aria-label={`Receipt ${r.name}`} aria-describedby={statusId}>
        <ul className="receipt-list inbox-card-thumb">
          <ReceiptThumbnail
            name={r.name} url={r.url} contentType={r.content_type} stateText={receiptStateText(r)} tone={receiptStateTone(r.state)}
            onRemove={attached || claim ? undefined : () => void act(() => client.deleteLocalReceipt(r.id), 'Receipt removed from this device.')}
          />
        </ul>
        <div className="inbox-card-body">
          {claim && (
            <p id={statusId} className="inbox-match inbox-match-done" data-testid="receipt-claim">
              {claimLine(claim)}
            </p>
          )}
          {!attached && !claim && (
            <FieldsForm
              // A new reading (OCR, another tab) resets the form to it.
              key={JSON.stringify(r.extracted)}
              receipt={r}
              currency={currency}
              busy={busy}
              onSave={(fields) =>
                void act(async () => {
                  const result = await client.setReceiptFields(r.id, fields);
                  if (result.ok && result.receipt.attached_to && result.receipt.match?.auto) {
                    toastInfo(`Attached automatically to ${transactionLine(result.receipt.attached_to)}.`);
                  }
                  return result;
                })
              }
            />
          )}
          {!claim && (
            <p id={statusId} className={attached ? 'inbox-match inbox-match-done' : 'inbox-match'}>
              {matchStatusText(r)}
            </p>
          )}
          {claim ? null : attached ? (
            <div className="inbox-actions">
              <Button size="sm" loading={busy} onClick={() => void act(() => client.undoReceiptMatch(r.id), 'Receipt detached; it is back in the inbox.')}>
                {r.match?.auto ? 'Undo' : 'Detach'}
              </Button>
            </div>
          ) : best ? (
            <>
              <div className="inbox-actions">
                <Button size="sm" variant="primary" loading={busy} onClick={() => void act(() => client.matchReceipt(r.id, best.transaction_id))}>
                  Attach <span className="sr-only">to {transactionLine(best.transaction)}</span>
                </Button>
              </div>
              {others.length > 0 && (
                <div className="inbox-others">
                  <h3 className="inbox-others-heading">Other candidates</h3>
                  <ul>
                    {others.map((c) => (
                      <li key={c.transaction_id}>
                        <span>{transactionLine(c.transaction)}</span>
                        <Button size="sm" variant="ghost" disabled={busy} onClick={() => void act(() => client.matchReceipt(r.id, c.transaction_id))}>
                          Attach <span className="sr-only">to {transactionLine(c.transaction)}</span>
                        </Button>
                      </li>
                    ))}
                  </ul>
                </div>
              )}
            </>
          ) : r.extracted?.amount && r.extracted.date ? (
            <div className="inbox-actions">
              <a
                className={buttonClass({ size: 'sm' })}
                href={outOfPocketHref(r.id)}
                onClick={(e) => {
                  e.preventDefault();
                  void navigate({ href: outOfPocketHref(r.id) });
                }}
              >
                Create out-of-pocket claim
              </a>
            </div>
          ) : null}
        </div>
      </article>
    </li>
  );
}

function FieldsForm({ receipt, currency, busy, onSave }: {
  receipt: InboxItem;
  currency: string;
  busy: boolean;
  onSave(fields: Extract<ReturnType<typeof fieldsFromForm>, { ok: true }>['fields']): void;
}) {
  const [values, setValues] = useState<ReceiptFormValues>(() => formValuesOf(receipt.extracted, currency));
  const [errors, setErrors] = useState<ReceiptFormErrors>({});
  const set = (patch: Partial<ReceiptFormValues>) => setValues((v) => ({ ...v, ...patch }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = fieldsFromForm(values, localToday());
    if (!parsed.ok) return setErrors(parsed.errors);
    setErrors({});
    onSave(parsed.fields);
  };
  return (
    <form className="inbox-fields" onSubmit={submit} aria-label={`Details of ${receipt.name}`}>
      {receipt.extracted?.source === 'ocr' && (
        <p className="muted inbox-ocr-note" data-testid="receipt-ocr-note">
          Read from the receipt on this device: check and correct, then save.
        </p>
      )}
      <MoneyField
        amount={values.amount} currency={values.currency} currencies={currencyChoices(values.currency, currency)} error={errors.amount}
        onAmount={(amount) => set({ amount })} onCurrency={(c) => set({ currency: c })}
      />
      <DateField label="Date" value={values.date} max={localToday()} error={errors.date} onChange={(date) => set({ date })} />
      <TextField label="Merchant" value={values.merchant} onChange={(merchant) => set({ merchant })} autoComplete="off" />
      <div className="inbox-fields-actions">
        <Button type="submit" size="sm" loading={busy}>
          Save and match
        </Button>
      </div>
    </form>
  );
}
