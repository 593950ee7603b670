import { useId, useMemo } from 'react';
import { FieldNote } from '../../components/field-note.tsx';
import { formatMoney } from '../../lib/format.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';
import type { BillLineValues } from './bill-form.ts';
import { billablePurchaseOrders, linesFromPurchaseOrder } from './bill-po-lines.ts';
import type { BillForm } from './use-bill-form.ts';

const blank = (lines: readonly BillLineValues[]) => lines.every((l) => !l.description.trim() && !l.amount.trim());

/**
 * Issue 28: the bill's purchase order, a choice among the vendor's open POs. Choosing one on a
 * bill whose lines are still blank fills them from the PO (what was received and not yet billed,
 * at the PO's prices) in its currency; each line then names its PO line, quantity and unit price.
 */
export function PurchaseOrderField({ form, reference }: { form: BillForm; reference: ReferenceView }) {
  const { values, errors, parts, linesLocked } = form;
  const id = useId();
  const current = values.purchase_order_id ?? '';
  const options = useMemo(
    () => billablePurchaseOrders(reference.data.purchase_orders, values.vendor_id, current),
    [reference.data.purchase_orders, values.vendor_id, current],
  );
  if (!values.vendor_id || (options.length === 0 && !current)) return null;
  const error = errors.purchase_order_id;
  function choose(poId: string) {
    form.set('purchase_order_id', poId);
    // No PO: no line names a PO line (their quantities and prices stay).
    if (!poId) form.setLines((ls) => ls.map((l) => ({ ...l, po_line_id: '' })), []);
    const po = options.find((p) => p.id === poId);
    if (!po || linesLocked || !blank(values.lines)) return;
    if (values.currency !== po.currency) form.set('currency', po.currency);
    form.setLines(() => linesFromPurchaseOrder(po, form.nextKey), []);
  }
  return (
    <label className="field" data-field="purchase_order_id">
      <span className="field-label">Purchase order</span>
      <select value={current} disabled={!parts.payable || linesLocked} aria-invalid={error ? true : undefined} aria-describedby={id} onChange={(e) => choose(e.target.value)}>
        <option value="">None</option>
        {options.map((p) => (
          <option key={p.id} value={p.id}>{`${p.po_number} · ${formatMoney(p.amount, p.currency)}`}</option>
        ))}
      </select>
      <FieldNote id={id} error={error} hint="A bill naming its PO is matched with what was ordered and received before it can be paid." />
    </label>
  );
}
