import type { RequestLine } from '../../schema/entities/spend-request.ts';
import { linesTotal } from '../../schema/procurement-rules.ts';
import { formatCount, formatMoney } from '../lib/format.ts';

/**
 * Issue 28: a purchase request's lines as a table (description, quantity, unit price, amount)
 * with its total; the requester's drawer and the approver's read it alike.
 */
export function LineItemsTable({ lines, currency, caption }: { lines: readonly Pick<RequestLine, 'id' | 'description' | 'quantity' | 'unit_price'>[]; currency: string; caption: string }) {
  return (
    <div className="request-lines-wrap">
      <table className="request-lines">
        <caption className="claim-section-title">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Description</th>
            <th scope="col" className="num">Qty</th>
            <th scope="col" className="num">Unit price</th>
            <th scope="col" className="num">Amount</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((l) => (
            <tr key={l.id}>
              <th scope="row">{l.description}</th>
              <td className="num">{formatCount(l.quantity)}</td>
              <td className="num">{formatMoney(l.unit_price, currency)}</td>
              <td className="num">{formatMoney(l.quantity * l.unit_price, currency)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={3}>Total</th>
            <td className="num"><strong>{formatMoney(linesTotal(lines), currency)}</strong></td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
