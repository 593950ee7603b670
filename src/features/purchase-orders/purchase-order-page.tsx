import { useMemo, useRef, useState } from 'react';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { mayManageBills } from '../../../schema/bill-rules.ts';
import type { PurchaseOrder } from '../../../schema/entities/purchase-order.ts';
import { Button, buttonClass } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { Facts, type Fact } from '../../components/facts.tsx';
import { PageSkeleton } from '../../components/page-skeleton.tsx';
import { RefusedChange } from '../../components/refused-change.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { SyncMark } from '../../components/sync-mark.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { formatLocalDateTime, formatMoney } from '../../lib/format.ts';
import { buildReferenceView, EMPTY_REFERENCE, useReferenceAnswer } from '../../lib/reference-data.ts';
import { saveFile } from '../../lib/save-file.ts';
import { toastError, toastInfo } from '../../lib/toast-store.ts';
import { PoBills, PoLines } from './po-lines.tsx';
import { PoReceipts } from './po-receipts.tsx';
import { canReceive, PO_STATUS_LABELS, PO_STATUS_TONES, receivedText } from './po-view.ts';
import { poMarks } from './purchase-orders-list.tsx';
import { ReceiveDialog } from './receive-dialog.tsx';

const routeApi = getRouteApi('/_app/purchase-orders/$poId');

/**
 * Issue 28: /purchase-orders/$poId, from the mirror (offline too): the header (number, vendor,
 * status, amount, who requested it and the request it came from), the lines with ordered,
 * received and billed quantities, the receipts, the bills naming it, and the actions: Receive
 * items (a command: offline too), Download PDF and Close PO (online; Close for bill managers).
 */
export function PurchaseOrderPage() {
  const { poId } = routeApi.useParams();
  const client = useDataClient();
  const user = useAppState((s) => s.session?.user ?? null);
  const online = useAppState((s) => s.online);
  const mirrored = useAppState((s) => s.status?.mirrored ?? true);
  const dataVersion = useAppState((s) => s.dataVersion);
  const referenceVersion = useAppState((s) => s.referenceVersion);
  const data = useReferenceAnswer(client, referenceVersion);
  const reference = useMemo(() => buildReferenceView(data ?? EMPTY_REFERENCE), [data]);
  const po = reference.data.purchase_orders.find((p) => p.id === poId);

  if (!po && data === null) return <PageSkeleton title="Purchase order" className="page po-page" />;
  if (!po) {
    return (
      <div className="page po-page">
        <EmptyState title="Purchase order not found" level={1} action={<Link to="/purchase-orders" className={buttonClass({ variant: 'primary' })}>Go to purchase orders</Link>}>
          {mirrored ? 'It may have been deleted, or it is not one you can see.' : 'This device is still downloading your data: it may not have arrived yet.'}
        </EmptyState>
      </div>
    );
  }
  const vendor = reference.data.vendors.find((v) => v.id === po.vendor_id)?.name;
  const manager = user ? mayManageBills(user) : false;
  return (
    <div className="page po-page">
      <div className="po-layout">
        <nav aria-label="Breadcrumb" className="trip-crumbs">
          <Link to="/purchase-orders">Purchase orders</Link> <span aria-hidden="true">/</span> <span aria-current="page">{po.po_number}</span>
        </nav>
        <header className="po-header">
          <div className="po-heading">
            <h1>{po.po_number}</h1>
            <span className="marks">
              <StatusPill tone={PO_STATUS_TONES[po.status]}>{PO_STATUS_LABELS[po.status]}</StatusPill>
              <SyncMark row={poMarks(po)} />
            </span>
          </div>
          <p className="po-meta">
            <span>{vendor ?? 'Vendor not on this device'}</span> · <strong>{formatMoney(po.amount, po.currency)}</strong> · <span>{receivedText(po)}</span>
          </p>
          <RefusedChange row={{ failure: po.failure ?? null }} client={client} />
          <PoFacts po={po} userName={reference.names.user} />
          <PoActions po={po} client={client} online={online} manager={manager} />
        </header>
        <PoLines po={po} />
        <PoReceipts po={po} client={client} online={online} waiting={po.pending != null} userName={reference.names.user} />
        <PoBills po={po} client={client} version={dataVersion} manager={manager} />
      </div>
    </div>
  );
}

function PoFacts({ po, userName }: { po: PurchaseOrder; userName(id: string): string }) {
  const navigate = useNavigate();
  const href = `/requests?open=${po.spend_request_id}`;
  const rows: Fact[] = [
    ['Requested by', userName(po.created_by) || 'Someone not on this device'],
    ['From request', (
      <a key="r" href={href} onClick={(e) => {
        if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        void navigate({ href });
      }}>Open the request</a>
    )],
    ['Created', <time key="c" dateTime={po.created_at}>{formatLocalDateTime(po.created_at)}</time>],
  ];
  if (po.closed_at) rows.push(['Closed', <time key="x" dateTime={po.closed_at}>{formatLocalDateTime(po.closed_at)}</time>]);
  return <Facts rows={rows} />;
}

/** Receive items (offline too), Download PDF and Close PO (online; Close for bill managers, confirmed first). */
function PoActions({ po, client, online, manager }: { po: PurchaseOrder; client: DataClient; online: boolean; manager: boolean }) {
  const [receiving, setReceiving] = useState(false);
  const [closing, setClosing] = useState(false);
  const [pdfBusy, setPdfBusy] = useState(false);
  const receiveButton = useRef<HTMLButtonElement>(null);
  const receivable = canReceive(po);
  const closable = manager && po.status !== 'CLOSED';

  async function downloadPdf() {
    setPdfBusy(true);
    try {
      const r = await client.purchaseOrderPdf(po.id);
      if (!r.ok) return toastError(errorText(r.error));
      saveFile(r.file, `${po.po_number}.pdf`);
    } finally {
      setPdfBusy(false);
    }
  }

  return (
    <div className="po-actions">
      <div className="trip-actions" role="group" aria-label="Purchase order actions">
        {receivable && (
          <Button ref={receiveButton} variant="primary" onClick={() => setReceiving(true)}>Receive items</Button>
        )}
        <Button disabled={!online} loading={pdfBusy} onClick={() => void downloadPdf()}>Download PDF</Button>
        {closable && <Button variant="danger" disabled={!online} onClick={() => setClosing(true)}>Close PO</Button>}
      </div>
      {!online && (
        <p className="muted po-offline-note">
          You’re offline: {receivable ? 'receiving items is saved here and syncs later; ' : ''}the PDF{closable ? ' and closing the PO' : ''} need a connection.
        </p>
      )}
      {po.status === 'CLOSED' && <p className="muted">This purchase order is closed: nothing more can be received or billed against it.</p>}
      {receiving && <ReceiveDialog po={po} client={client} online={online} onClose={() => setReceiving(false)} returnFocus={() => receiveButton.current} />}
      {closing && (
        <ConfirmDialog
          title={`Close ${po.po_number}?`}
          description={`Nothing more can be received or billed against it (${receivedText(po)}). This cannot be undone.`}
          confirmLabel="Close PO"
          tone="danger"
          onClose={() => setClosing(false)}
          onConfirm={async () => {
            const r = await client.closePurchaseOrder(po.id);
            if (!r.ok) {
              toastError(errorText(r.error));
              return false;
            }
            toastInfo(`${po.po_number} closed.`);
            return true;
          }}
        />
      )}
    </div>
  );
}
