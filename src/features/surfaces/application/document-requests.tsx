import { useCallback, useEffect, useState, type ChangeEvent } from 'react';
import { useDataClient } from '../../../data-access/data-context.tsx';
import { errorText } from '../../../lib/error-text.ts';
import type { FinancingApplication } from '../../../../schema/entities/financing-application.ts';
import type { ApplicationDocumentRequest } from '../../../../workers/handlers/application.ts';
import type { ApplicationModel } from './use-application.ts';

/**
 * Issue 31, the decision page of an application in review: what operations asked for
 * (`application.documentRequests.list`) and, for an open request, one upload per person named on
 * the application (a KYC document of the asked type, then its page; server/domain/applications/
 * document-requests.ts). The request shows as received once everyone uploaded. Online only.
 */
const DOC_WORDS: Record<string, string> = { GOVERNMENT_ID: 'Government-issued photo ID' };
const docWords = (t: string) => DOC_WORDS[t] ?? t.charAt(0) + t.slice(1).toLowerCase().replace(/_/g, ' ');
const ACCEPT = 'application/pdf,image/png,image/jpeg';

type Person = { id: string; name: string };
const peopleOf = (app: FinancingApplication): Person[] =>
  app.kyc_individuals.map((k, i) => ({ id: k.id, name: [k.first_name, k.last_name].filter(Boolean).join(' ') || `Person ${i + 1}` }));
const uploadedPages = (app: FinancingApplication, personId: string, docType: string) =>
  app.documents.filter((d) => d.kind === 'KYC' && d.kyc_individual_id === personId && d.doc_type === docType).reduce((n, d) => n + d.pages.length, 0);

export function DocumentRequests({ model }: { model: ApplicationModel }) {
  const client = useDataClient();
  const [requests, setRequests] = useState<ApplicationDocumentRequest[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const load = useCallback(async () => {
    const r = await client.applicationDocumentRequests(model.appId);
    if (r.ok) {
      setRequests(r.requests);
      setLoadError(null);
    } else setLoadError(errorText(r.error));
  }, [client, model.appId]);
  useEffect(() => {
    if (model.online) void Promise.resolve().then(load);
  }, [load, model.online]);

  return (
    <section className="application-docs" aria-labelledby="requests-title">
      <h2 id="requests-title">Documents we asked for</h2>
      {!model.online && <p className="notice notice-warn" role="status">You’re offline. The requests and uploading them need a connection.</p>}
      {model.online && loadError && <p className="form-error" role="alert">{loadError}</p>}
      {model.online && !loadError && requests === null && <p className="muted" role="status">Loading the documents we asked for…</p>}
      {requests?.length === 0 && <p className="muted">Nothing for now. If we need a document, it shows here and we email you.</p>}
      {requests?.map((q) => <RequestItem key={q.id} model={model} request={q} onChanged={load} />)}
    </section>
  );
}

function RequestItem({ model, request, onChanged }: { model: ApplicationModel; request: ApplicationDocumentRequest; onChanged(): Promise<void> }) {
  const client = useDataClient();
  const app = model.application!;
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const open = request.status === 'OPEN';

  async function upload(person: Person, e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    setBusy(person.id);
    setError(null);
    try {
      let doc = app.documents.find((d) => d.kind === 'KYC' && d.kyc_individual_id === person.id && d.doc_type === request.doc_type);
      if (!doc) {
        const added = await client.addApplicationDocument(model.appId, request.doc_type, person.id);
        if (!added.ok) return setError(errorText(added.error));
        doc = added.application.documents.find((d) => d.kind === 'KYC' && d.kyc_individual_id === person.id && d.doc_type === request.doc_type);
        model.take(added.application);
      }
      if (!doc) return;
      const r = await client.uploadApplicationPage(model.appId, 'KYC', doc.id, file);
      if (!r.ok) return setError(errorText(r.error));
      model.take(r.application);
      await onChanged();
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="application-doc">
      <h3>
        {`${docWords(request.doc_type)} `}
        <span className={`application-state ${open ? 'state-saved-on-this-device' : 'state-saved'}`}>{open ? 'Open' : 'Received'}</span>
      </h3>
      <p>{request.note}</p>
      <ul className="application-pages">
        {peopleOf(app).map((p) => {
          const pages = uploadedPages(app, p.id, request.doc_type);
          return (
            <li key={p.id}>
              <span>{`${p.name}: ${pages > 0 ? `uploaded (${pages} ${pages === 1 ? 'file' : 'files'})` : 'not uploaded yet'}`}</span>
              {open && (
                <label className="field">
                  <span className="field-label">{`Upload ${docWords(request.doc_type).toLowerCase()} of ${p.name}`}</span>
                  <input type="file" accept={ACCEPT} disabled={!model.online || busy !== null} onChange={(e) => void upload(p, e)} />
                </label>
              )}
            </li>
          );
        })}
      </ul>
      {busy && <p className="muted" role="status">Uploading…</p>}
      {error && <p className="form-error" role="alert">{error}</p>}
      {!open && <p className="muted">Thanks — we have what we asked for and will email you the decision.</p>}
    </div>
  );
}
