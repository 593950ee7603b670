import { useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../../components/button.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { FieldNote } from '../../../components/field-note.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { useAppState, useDataClient } from '../../../data-access/data-context.tsx';
import type { NetworkDocument, NetworkDocumentKind } from '../../../../workers/api.ts';
import { errorText } from '../../../lib/error-text.ts';
import { formatDay } from '../../../lib/format.ts';
import { saveFile } from '../../../lib/save-file.ts';
import { formatBytes } from '../../../lib/storage.ts';
import { useSensitiveAction } from '../../../lib/use-sensitive-action.ts';
import { EmailCodeDialog } from './email-code-dialog.tsx';
import { DOCUMENT_ACCEPT, DOCUMENT_KIND_LABELS, documentFileError, documentFileName } from './portal-rules.ts';

const KIND_OPTIONS = (Object.keys(DOCUMENT_KIND_LABELS) as NetworkDocumentKind[]).map((value) => ({ value, label: DOCUMENT_KIND_LABELS[value] }));
const OFFLINE_REASON = 'Uploads and downloads need a connection';
const typeName = (d: NetworkDocument) => (d.content_type === 'application/pdf' ? 'PDF' : d.content_type === 'image/png' ? 'PNG' : 'JPEG');

/**
 * Profile → Documents (issue 31 §2.4): the vendor's W-9 (or W-8, or another file) shared with
 * every payer. Upload (PDF, PNG or JPEG ≤ 10 MB, a kind chosen first), download, delete (asked
 * first: payers keep no copy). Each action needs the mailed-code step-up and a connection.
 */
export function DocumentsSection({ documents, email, onChange }: {
  documents: readonly NetworkDocument[]; email: string; onChange: (documents: NetworkDocument[]) => void;
}) {
  const client = useDataClient();
  const online = useAppState((s) => s.online);
  const sensitive = useSensitiveAction();
  const input = useRef<HTMLInputElement>(null);
  const noteId = useId();
  const [kind, setKind] = useState<NetworkDocumentKind>('W9');
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState<NetworkDocument | null>(null);

  async function upload(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setDone(null);
    const problem = file ? documentFileError(file) : 'Choose the file to upload.';
    setFileError(problem);
    if (!file || problem) return;
    setBusy(true);
    await sensitive.run(() => client.uploadPortalDocument(kind, file), (r) => {
      setBusy(false);
      if (!r.ok) return setError(errorText(r.error));
      const { document } = r as typeof r & { document: NetworkDocument };
      onChange([document, ...documents.filter((d) => d.id !== document.id)]);
      setDone(`${DOCUMENT_KIND_LABELS[document.kind]} uploaded. Your payers can see it now.`);
      setFile(null);
      if (input.current) input.current.value = '';
    });
    setBusy(false);
  }

  async function download(d: NetworkDocument) {
    setError(null);
    await sensitive.run(() => client.portalDocumentFile(d.id), (r) => {
      if (!r.ok) return setError(errorText(r.error));
      saveFile((r as typeof r & { file: Blob }).file, documentFileName(d));
    });
  }

  return (
    <section className="card portal-section" aria-labelledby="profile-documents">
      <h2 id="profile-documents">Documents</h2>
      <p className="muted">Tax forms and other documents your payers ask for. Every payer you work with can see and download them.</p>
      {documents.length === 0 ? (
        <p className="muted">No documents yet. Upload your W-9 so payers don’t have to ask for it.</p>
      ) : (
        <ul className="portal-list" aria-label="Your documents">
          {documents.map((d) => (
            <li key={d.id} className="portal-row">
              <div className="portal-row-main">
                <strong>{DOCUMENT_KIND_LABELS[d.kind]}</strong>
                <span className="muted">{`${typeName(d)} · ${formatBytes(d.size)} · uploaded ${formatDay(d.uploaded_at)}`}</span>
              </div>
              <div className="portal-row-side portal-row-actions">
                <Button size="sm" disabled={!online} onClick={() => void download(d)}>
                  Download<span className="sr-only">{` ${DOCUMENT_KIND_LABELS[d.kind]}`}</span>
                </Button>
                <Button size="sm" variant="danger" disabled={!online} onClick={() => setDeleting(d)}>
                  Delete<span className="sr-only">{` ${DOCUMENT_KIND_LABELS[d.kind]}`}</span>
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={(e) => void upload(e)} noValidate className="portal-form" aria-label="Upload a document">
        <SelectField label="Document type" value={kind} onChange={(v) => setKind(v as NetworkDocumentKind)} options={KIND_OPTIONS} />
        <label className="field">
          <span className="field-label">File (PDF, PNG or JPEG, up to 10 MB)</span>
          <input ref={input} type="file" className="portal-file" accept={DOCUMENT_ACCEPT} disabled={!online} aria-invalid={fileError ? true : undefined} aria-describedby={fileError ? noteId : undefined}
            onChange={(e) => {
              const chosen = e.target.files?.[0] ?? null;
              setFile(chosen);
              setFileError(chosen ? documentFileError(chosen) : null);
            }} />
          <FieldNote id={noteId} error={fileError} />
        </label>
        <FormError message={error} />
        {done && <p className="notice" role="status">{done}</p>}
        <div className="portal-form-actions">
          <Button type="submit" variant="primary" loading={busy} disabled={!online}>{online ? 'Upload document' : OFFLINE_REASON}</Button>
        </div>
        <p className="muted small">{online ? 'We’ll email you a code to confirm it’s you first.' : 'You’re offline: the list above is as last read.'}</p>
      </form>
      {deleting && (
        <ConfirmDialog title={`Delete your ${DOCUMENT_KIND_LABELS[deleting.kind]}?`} confirmLabel="Delete document" tone="danger"
          description="It’s removed from Ledgerline: your payers can no longer see or download it, and they keep no copy."
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            let ok = false;
            const gone = deleting;
            await sensitive.run(() => client.deletePortalDocument(gone.id), (r) => {
              if (!r.ok) return setError(errorText(r.error));
              ok = true;
              onChange(documents.filter((d) => d.id !== gone.id));
              setDone(`${DOCUMENT_KIND_LABELS[gone.kind]} deleted.`);
              setDeleting(null);
            });
            return ok;
          }}>
          <FormError message={error} />
        </ConfirmDialog>
      )}
      {sensitive.prompting && <EmailCodeDialog email={email} onDone={sensitive.confirmed} onCancel={() => {
        sensitive.cancelled();
        setBusy(false);
      }} />}
    </section>
  );
}
