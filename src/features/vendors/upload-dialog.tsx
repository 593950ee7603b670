import { useState } from 'react';
import { Button } from '../../components/button.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import { ReceiptCapture } from '../../components/receipt-capture.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { CSV_COLUMNS, MAX_VENDOR_CSV_CHARS, rowErrors, uploadOutcome, type RowError } from './vendor-upload.ts';

export interface UploadDialogProps {
  client: DataClient;
  online: boolean;
  onClose(): void;
  returnFocus(): HTMLElement | null | undefined;
}

type Outcome = { file: string; created: number; text: string; errors: RowError[] };

/**
 * Bulk upload from a CSV (picked or dropped): the file's text goes to the server, which parses
 * and checks every row; the answer is all or nothing, so the dialog shows how many were created
 * or each refused cell (row, column, message) to fix in the file before uploading it again.
 */
export function UploadDialog({ client, online, onClose, returnFocus }: UploadDialogProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  async function upload(file: File) {
    setError(null);
    setOutcome(null);
    if (file.size > MAX_VENDOR_CSV_CHARS) return setError(`${file.name} is too large: upload at most 500 vendors per file.`);
    setBusy(true);
    try {
      const csv = await file.text();
      if (csv.trim() === '') return setError(`${file.name} is empty.`);
      const r = await client.uploadVendors({ csv });
      if (!r.ok) return setError(errorText(r.error));
      setOutcome({ file: file.name, created: r.created, text: uploadOutcome(r.created, r.results), errors: rowErrors(r.results) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      title="Upload vendors"
      description="A CSV file with one vendor per row. If any row has an error, nothing is created, so the file can simply be fixed and uploaded again."
      size="lg"
      onClose={onClose}
      returnFocus={returnFocus}
    >
      <p className="muted vendor-columns">
        Columns: {CSV_COLUMNS.map((c, i) => <span key={c}>{i > 0 && ', '}<code>{c}</code></span>)}. Only <code>name</code> is required; a US address needs its <code>state</code>.
      </p>
      {!online && <p className="notice notice-warn" role="note">You’re offline. Uploading vendors needs a connection.</p>}
      <ReceiptCapture
        label={outcome ? 'Choose another CSV file' : 'Choose CSV file'}
        accept=".csv,text/csv"
        multiple={false}
        camera={false}
        hint="or drop it here"
        disabled={busy}
        autoFocus
        onFiles={(files) => void upload(files[0]!)}
      />
      {busy && <p className="muted" role="status">Uploading…</p>}
      <FormError message={error} />
      {outcome && (
        <div className="vendor-upload-result">
          <p role="status" className={outcome.errors.length ? 'notice notice-warn' : 'notice'} data-testid="upload-outcome">
            <strong>{outcome.file}:</strong> {outcome.text}
          </p>
          {outcome.errors.length > 0 && (
            <table className="vendor-upload-errors">
              <caption className="sr-only">Rows with errors</caption>
              <thead>
                <tr>
                  <th scope="col">Row</th>
                  <th scope="col">Column</th>
                  <th scope="col">Problem</th>
                </tr>
              </thead>
              <tbody>
                {outcome.errors.map((e) => (
                  <tr key={`${e.row}-${e.column}`}>
                    <td>{e.row}</td>
                    <td><code>{e.column}</code></td>
                    <td>{e.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      )}
      <div className="modal-actions">
        <Button variant={outcome && outcome.errors.length === 0 ? 'primary' : 'secondary'} onClick={onClose}>
          {outcome && outcome.errors.length === 0 ? 'Done' : 'Close'}
        </Button>
      </div>
    </Modal>
  );
}
