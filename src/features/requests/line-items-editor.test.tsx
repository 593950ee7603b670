import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LineItemsTable } from '../../components/request-line-items.tsx';
import { LineItemsEditor } from './line-items-editor.tsx';

const lines = [
  { key: 'a', description: 'Chairs', quantity: '3', unit_price: '120.00' },
  { key: 'b', description: 'Desk', quantity: 'x', unit_price: '400' },
];

describe('the line items', () => {
  it('editor: every input labelled by its line, each line amount and the live total (what is not a number counts 0)', () => {
    const html = renderToStaticMarkup(<LineItemsEditor lines={lines} currency="USD" errors={{ 'lines.1.quantity': 'Quantity must be a whole number' }} onChange={() => {}} />);
    for (const label of ['Description, line 1', 'Quantity, line 2', 'Unit price, line 2']) expect(html).toContain(label);
    expect(html).toMatch(/Remove.*line .*2/);
    expect(html).toContain('$360.00');
    expect(html).toMatch(/Total <strong>\$360\.00<\/strong>/);
    expect(html).toContain('Quantity must be a whole number');
    expect(html).toMatch(/aria-invalid="true"/);
  });
  it('table: a caption, header cells and the total', () => {
    const html = renderToStaticMarkup(<LineItemsTable caption="Line items" currency="USD" lines={[{ id: '1', description: 'Chairs', quantity: 3, unit_price: 12000 }]} />);
    expect(html).toContain('<caption class="claim-section-title">Line items</caption>');
    expect(html).toContain('<th scope="row">Chairs</th>');
    expect(html).toContain('<strong>$360.00</strong>');
  });
});
