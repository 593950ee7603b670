import { useEffect, useState } from 'react';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { FormError } from '../../components/form-error.tsx';
import type { DataClient } from '../../data-access/types.ts';
import type { NetworkDocument } from '../../../workers/api.ts';
import { errorText } from '../../lib/error-text.ts';
import { formatDay } from '../../lib/format.ts';
import { saveFile } from '../../lib/save-file.ts';
import { formatBytes } from '../../lib/storage.ts';
import { NETWORK_DOCUMENT_NAMES, networkDocumentExtension } from '../../../schema/entities/network-vendor.ts';

const kindName = (d: Pick<NetworkDocument, 'kind'>) => NETWORK_DOCUMENT_NAMES[d.kind].short;

type Docs = { kind: 'loading' } | { kind: 'offline' } | { kind: 'failed'; message: string } | { kind: 'read'; documents: NetworkDocument[] };

/**
 * The documents a network vendor shares with this payer (W-9…), in the vendor drawer's "Vendor
 * network" section: read online, downloaded as files; "Stop sharing" (asked first) hides one
 * from this business only — the vendor keeps it and other payers still see it.
 */
export function VendorNetworkDocuments({ vendorId, vendorName, client, online }: { vendorId: string; vendorName: string; client: DataClient; online: boolean }) {
  const [docs, setDocs] = useState<Docs>({ kind: 'loading' });
  const [error, setError] = useState<string | null>(null);
  const [hiding, setHiding] = useState<NetworkDocument | null>(null);
  useEffect(() => {
    if (!online) return;
    let live = true;
    void client.vendorDocuments(vendorId).then((r) => {
      if (!live) return;
      if (r.ok) setDocs({ kind: 'read', documents: r.documents });
      else setDocs('offline' in r && r.offline ? { kind: 'offline' } : { kind: 'failed', message: errorText(r.error) });
    });
    return () => {
      live = false;
    };
  }, [client, vendorId, online]);

  async function download(d: NetworkDocument) {
    setError(null);
    const r = await client.vendorDocumentFile(vendorId, d.id);
    if (!r.ok) return setError(errorText(r.error));
    saveFile(r.file, `${vendorName} ${kindName(d)} ${d.uploaded_at.slice(0, 10)}.${networkDocumentExtension(d.content_type)}`);
  }

  const shown: Docs = online ? docs : { kind: 'offline' };
  return (
    <div className="request-documents">
      <h4 className="claim-section-title">Documents from the vendor</h4>
      {shown.kind === 'loading' && <p className="muted" role="status">Loading the vendor’s documents…</p>}
      {shown.kind === 'offline' && <p className="muted">The vendor’s documents load when you’re back online.</p>}
      {shown.kind === 'failed' && <p className="notice notice-error" role="alert">{shown.message}</p>}
      {shown.kind === 'read' && shown.documents.length === 0 && <p className="muted">{vendorName} hasn’t shared any documents yet. They upload their W-9 from the vendor portal.</p>}
      {shown.kind === 'read' && shown.documents.length > 0 && (
        <ul className="request-doc-list" aria-label="Documents from the vendor">
          {shown.documents.map((d) => (
            <li key={d.id}>
              <span><strong>{kindName(d)}</strong>{` · ${formatBytes(d.size)} · uploaded ${formatDay(d.uploaded_at)}`}</span>
              <span className="row-actions">
                <Button size="sm" onClick={() => void download(d)}>Download<span className="sr-only">{` ${kindName(d)}`}</span></Button>
                <Button size="sm" variant="ghost" onClick={() => setHiding(d)}>Stop sharing<span className="sr-only">{` ${kindName(d)}`}</span></Button>
              </span>
            </li>
          ))}
        </ul>
      )}
      <FormError message={error} />
      {hiding && (
        <ConfirmDialog title={`Stop sharing this ${kindName(hiding)}?`} confirmLabel="Stop sharing" tone="danger" onClose={() => setHiding(null)}
          description={`Your business stops seeing ${vendorName}’s ${kindName(hiding)} uploaded ${formatDay(hiding.uploaded_at)}. ${vendorName} keeps it, and other businesses they work with still see it.`}
          onConfirm={async () => {
            const gone = hiding;
            const r = await client.stopSharingVendorDocument(vendorId, gone.id);
            if (!r.ok) {
              setError(errorText(r.error));
              return false;
            }
            setDocs((s) => (s.kind === 'read' ? { kind: 'read', documents: s.documents.filter((d) => d.id !== gone.id) } : s));
            return true;
          }}>
          <FormError message={error} />
        </ConfirmDialog>
      )}
    </div>
  );
}
