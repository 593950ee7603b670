import { useState } from 'react';
import { Button } from '../../components/button.tsx';
import { ReceiptCapture } from '../../components/receipt-capture.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { formatCount } from '../../lib/format.ts';
import { saveFile } from '../../lib/save-file.ts';
import { toastError, toastInfo } from '../../lib/toast-store.ts';
import type { RequestRow } from './requests-list.tsx';

/** A worker answer that is a file: the Blob itself, or `{ ok: true, file | blob }`; else the refusal's words. */
export function fileOf(answer: unknown): { blob: Blob } | { error: string } {
  if (answer instanceof Blob) return { blob: answer };
  if (answer && typeof answer === 'object') {
    const a = answer as { ok?: boolean; file?: unknown; blob?: unknown; error?: { error_code?: string; message?: string } };
    const file = a.file ?? a.blob;
    if (a.ok !== false && file instanceof Blob) return { blob: file };
    if (a.ok === false) return { error: errorText(a.error) };
  }
  return { error: 'The file could not be read.' };
}

const EXTENSIONS: Record<string, string> = { 'application/pdf': 'pdf', 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'image/heic': 'heic' };

/**
 * A request's documents (quotes, contracts): each one downloadable, and while it is a draft or
 * pending, "Add document" for the requester. Files go straight to the server
 * (`uploadSpendRequestDocument`, `spendRequestDocument`), so offline the section says so and
 * offers nothing that would fail.
 */
export function RequestDocuments({ request, client, online, mayAttach }: { request: RequestRow; client: DataClient; online: boolean; mayAttach: boolean }) {
  const [uploading, setUploading] = useState(0);
  const [fetching, setFetching] = useState<string | null>(null);
  const ids = request.document_ids;
  const waitingToSync = request.pending !== null;

  async function upload(files: File[]) {
    setUploading(files.length);
    try {
      for (const file of files) {
        const result = await client.uploadSpendRequestDocument(request.id, file);
        if (!result.ok) {
          toastError(`${file.name}: ${errorText(result.error)}`);
          return;
        }
      }
      toastInfo(files.length === 1 ? 'Document added.' : `${formatCount(files.length)} documents added.`);
    } finally {
      setUploading(0);
    }
  }

  async function download(docId: string, n: number) {
    setFetching(docId);
    try {
      const file = fileOf(await client.spendRequestDocument(request.id, docId));
      if ('error' in file) toastError(file.error);
      else saveFile(file.blob, `request-document-${n}.${EXTENSIONS[file.blob.type] ?? 'bin'}`);
    } finally {
      setFetching(null);
    }
  }

  return (
    <section aria-labelledby={`${request.id}-docs`} className="request-documents">
      <h3 id={`${request.id}-docs`} className="claim-section-title">Documents</h3>
      {ids.length === 0 ? (
        <p className="muted">No documents attached.</p>
      ) : (
        <ul className="request-doc-list">
          {ids.map((docId, i) => (
            <li key={docId}>
              <span>Document {i + 1}</span>
              <Button size="sm" variant="ghost" disabled={!online} loading={fetching === docId} onClick={() => void download(docId, i + 1)}>
                Download<span className="sr-only"> document {i + 1}</span>
              </Button>
            </li>
          ))}
        </ul>
      )}
      {!online && <p className="muted" role="note">You’re offline. Documents are added and downloaded with a connection.</p>}
      {online && mayAttach && waitingToSync && <p className="muted" role="note">Documents can be added once this request has synced.</p>}
      {online && mayAttach && !waitingToSync && (
        <ReceiptCapture label={uploading > 0 ? 'Uploading…' : 'Add document'} disabled={uploading > 0} camera={false} hint="or drop a quote or contract (PDF or photo) here" onFiles={(files) => void upload(files)} />
      )}
    </section>
  );
}
