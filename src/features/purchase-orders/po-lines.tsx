import { useEffect, useState } from 'react';
import { Link } from '@tanstack/react-router';
import type { PurchaseOrder } from '../../../schema/entities/purchase-order.ts';
import { StatusPill } from '../../components/status-pill.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { collectionReads } from '../../lib/list/collection-reads.ts';
import type { RowView } from '../../../workers/api.ts';
import { BILL_STATUS_LABELS, BILL_STATUS_TONES } from '../../lib/bill-labels.ts';
import { formatDay, formatMoney } from '../../lib/format.ts';
import { lineTotal } from './po-view.ts';

/** What was ordered, line by line: ordered, received and billed quantities, unit price and line total. */
export function PoLines({ po }: { po: PurchaseOrder }) {
  return (
    <section className="po-section" aria-labelledby="po-lines">
      <h2 id="po-lines">Lines</h2>
      <div className="po-table-wrap">
        <table className="po-lines">
          <thead>
            <tr>
              <th scope="col">Description</th>
              <th scope="col" className="num">Ordered</th>
              <th scope="col" className="num">Received</th>
              <th scope="col" className="num">Billed</th>
              <th scope="col" className="num">Unit price</th>
              <th scope="col" className="num">Line total</th>
            </tr>
          </thead>
          <tbody>
            {po.lines.map((l) => (
              <tr key={l.id}>
                <th scope="row">{l.description}</th>
                <td className="num" data-label="Ordered">{l.quantity}</td>
                <td className={l.received_quantity >= l.quantity ? 'num po-done' : 'num'} data-label="Received">{l.received_quantity}</td>
                <td className={l.billed_quantity > l.received_quantity ? 'num po-over' : 'num'} data-label="Billed">{l.billed_quantity}</td>
                <td className="num" data-label="Unit price">{formatMoney(l.unit_price, po.currency)}</td>
                <td className="num" data-label="Line total">{formatMoney(lineTotal(l), po.currency)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={5}>Total</th>
              <td className="num">{formatMoney(po.amount, po.currency)}</td>
            </tr>
          </tfoot>
        </table>
      </div>
    </section>
  );
}

/**
 * The bills naming this PO, read from the mirror (a bill manager holds every bill; anyone else
 * only theirs): invoice, amount, status, each opening in Bills for those who manage bills.
 */
export function PoBills({ po, client, version, manager }: { po: PurchaseOrder; client: DataClient; version: number; manager: boolean }) {
  const [bills, setBills] = useState<(RowView<'bills'> | null)[] | null>(null);
  const ids = po.bill_ids.join(',');
  useEffect(() => {
    let live = true;
    void Promise.all(po.bill_ids.map((id) => collectionReads(client).get('bills', id))).then((rows) => live && setBills(rows));
    return () => {
      live = false;
    };
    // `ids` stands for po.bill_ids.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, ids, version]);
  const shown = (bills ?? []).filter((b): b is RowView<'bills'> => b !== null);
  const hidden = po.bill_ids.length - shown.length;
  return (
    <section className="po-section" aria-labelledby="po-bills">
      <h2 id="po-bills">Bills</h2>
      {po.bill_ids.length === 0 && <p className="muted">No bill names this purchase order yet.</p>}
      {shown.length > 0 && (
        <ul className="po-bills">
          {shown.map((b) => (
            <li key={b.id} className="po-bill">
              {manager ? (
                <Link to="/bills" search={{ open: b.id }} className="po-bill-link">Invoice {b.invoice_number}</Link>
              ) : (
                <span>Invoice {b.invoice_number}</span>
              )}
              <span className="num">{formatMoney(b.amount, b.currency)}</span>
              <span className="muted">due {formatDay(b.due_date)}</span>
              <StatusPill tone={BILL_STATUS_TONES[b.status]}>{BILL_STATUS_LABELS[b.status]}</StatusPill>
            </li>
          ))}
        </ul>
      )}
      {bills !== null && hidden > 0 && (
        <p className="muted">{hidden} {hidden === 1 ? 'bill is' : 'bills are'} not on this device{manager ? ' yet' : ': bills are shown to those who manage bill pay'}.</p>
      )}
    </section>
  );
}
