import { useState, type ChangeEvent } from 'react';
import { Button } from '../../../components/button.tsx';
import { DeleteDialog } from '../../../components/confirm-dialog.tsx';
import { useDataClient } from '../../../data-access/data-context.tsx';
import { errorText } from '../../../lib/error-text.ts';
import type { FinancingApplication } from '../../../../schema/entities/financing-application.ts';
import { identityPeople } from './step-list-model.ts';
import type { ApplicationModel } from './use-application.ts';

/**
 * Issue 31: the application's documents — the business's (KYB) and each checked person's (KYC),
 * with their pages (PDF, PNG or JPEG; listed, and deleted once confirmed). Uploads need a connection.
 */
const KYB_TYPES = [
  { value: 'ARTICLES_OF_INCORPORATION', label: 'Articles of incorporation' },
  { value: 'EIN_LETTER', label: 'EIN confirmation letter' },
  { value: 'BANK_STATEMENT', label: 'Bank statement' },
];
const KYC_TYPES = [
  { value: 'DRIVERS_LICENSE', label: 'Driver’s license' },
  { value: 'PASSPORT', label: 'Passport' },
];
const typeLabel = (t: string) => [...KYB_TYPES, ...KYC_TYPES].find((o) => o.value === t)?.label ?? t;
const ACCEPT = 'application/pdf,image/png,image/jpeg';

export function DocumentsStep({ model }: { model: ApplicationModel }) {
  const app = model.application!;
  const people = identityPeople(app);
  return (
    <div className="application-form">
      <p className="muted">Upload each document’s pages as PDF, PNG or JPEG files (10 MB each at most).</p>
      {!model.online && <p className="notice notice-warn" role="status">Uploading needs a connection. Your other answers are saved on this device meanwhile.</p>}
      <DocumentGroup model={model} title="Business documents" types={KYB_TYPES} kind="KYB" individual={null} docs={app.documents.filter((d) => d.kind === 'KYB')} />
      {people.map((p) => (
        <DocumentGroup key={p.id} model={model} title={`Identity document: ${p.name}`} types={KYC_TYPES} kind="KYC" individual={p.id}
          docs={app.documents.filter((d) => d.kind === 'KYC' && d.kyc_individual_id === p.id)} />
      ))}
    </div>
  );
}

interface GroupProps {
  model: ApplicationModel;
  title: string;
  types: typeof KYB_TYPES;
  kind: 'KYB' | 'KYC';
  individual: string | null;
  docs: FinancingApplication['documents'];
}

function DocumentGroup({ model, title, types, kind, individual, docs }: GroupProps) {
  const client = useDataClient();
  const [docType, setDocType] = useState(types[0]!.value);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState<{ docId: string; page: number; what: string } | null>(null);
  async function act(call: () => Promise<{ ok: true; application: FinancingApplication } | { ok: false; error: { error_code?: string; message?: string } }>) {
    setBusy(true);
    setError(null);
    try {
      const r = await call();
      if (r.ok) model.take(r.application);
      else setError(errorText(r.error));
    } finally {
      setBusy(false);
    }
  }
  async function upload(docId: string, e: ChangeEvent<HTMLInputElement>) {
    const files = [...(e.target.files ?? [])];
    e.target.value = '';
    for (const f of files) await act(() => client.uploadApplicationPage(model.appId, kind, docId, f));
  }
  const offline = !model.online;
  return (
    <section className="application-docs" aria-label={title}>
      <h2>{title}</h2>
      {docs.length === 0 && <p className="muted">No document yet.</p>}
      {docs.map((d) => (
        <div key={d.id} className="application-doc">
          <h3>{typeLabel(d.doc_type)}</h3>
          {d.pages.length === 0 ? <p className="muted">No pages uploaded.</p> : (
            <ul className="application-pages">
              {d.pages.map((p) => (
                <li key={p}>
                  {`Page ${p}`}
                  <Button size="sm" variant="ghost" disabled={offline || busy} onClick={() => setDeleting({ docId: d.id, page: p, what: typeLabel(d.doc_type) })}>
                    {`Delete page ${p} of ${typeLabel(d.doc_type)}`}
                  </Button>
                </li>
              ))}
            </ul>
          )}
          <label className="field">
            <span className="field-label">{`Upload pages of ${typeLabel(d.doc_type)}`}</span>
            <input type="file" accept={ACCEPT} multiple disabled={offline || busy} onChange={(e) => void upload(d.id, e)} />
          </label>
        </div>
      ))}
      <div className="application-add-doc">
        <label className="field">
          <span className="field-label">Document type</span>
          <select value={docType} onChange={(e) => setDocType(e.target.value)}>
            {types.map((t) => <option key={t.value} value={t.value}>{t.label}</option>)}
          </select>
        </label>
        <Button size="sm" disabled={offline || busy} onClick={() => void act(() => client.addApplicationDocument(model.appId, docType, individual))}>
          Add document
        </Button>
      </div>
      {error && <p className="form-error" role="alert">{error}</p>}
      {deleting && (
        <DeleteDialog
          title={`Delete page ${deleting.page}?`}
          description={`Page ${deleting.page} of the ${deleting.what.toLowerCase()} (${title.toLowerCase()}) is removed from the application.`}
          confirmLabel="Delete page"
          onClose={() => setDeleting(null)}
          onDelete={async () => {
            const r = await client.deleteApplicationPage(model.appId, kind, deleting.docId, deleting.page);
            if (!r.ok) return r.error;
            model.take(r.application);
            return null;
          }}
        />
      )}
    </section>
  );
}
