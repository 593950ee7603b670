import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { billSchema, type Bill } from '../../../schema/entities/bill.ts';
import { testVendor } from '../../lib/test-vendor.ts';
import type { RowView } from '../../../workers/api.ts';
import { createAppStore } from '../../data-access/app-state.ts';
import { DataProvider } from '../../data-access/data-context.tsx';
import type { DataClient, ReferenceData } from '../../data-access/types.ts';
import { buildReferenceView } from '../../lib/reference-data.ts';
import { BillFormDialog, DuplicateQuestionDialog } from './bill-form-dialog.tsx';
import { duplicateMarkText } from '../../components/bill-duplicate-mark.tsx';

/**
 * The dialog's first render on the server renderer (no DOM here: effects, focus and the worker
 * calls are not run): which fields show, which are editable for the bill's status, the actions.
 */
const BIZ = '40000000-0000-4000-8000-0000000000b1';
const ID = '0b7e3f36-5c1d-4a53-9d55-7a2f6c1e0a11';
const acme = testVendor({ name: 'Acme Supply' });
const data: ReferenceData = { departments: [], locations: [], gl_accounts: [], tracking_categories: [], users: [], reimbursement_rates: [], vendors: [acme], provisional_bills: [], saved_reports: [], dashboards: [], mapping_rules: [], entities: [], purchase_orders: [], spend_allocations: [], expense_policies: [], wallet_accounts: [], wallet_transfers: [], bank_accounts: [] };
const bill = (over: Partial<Bill>): RowView<'bills'> => ({
  ...billSchema.parse({
    id: ID, vendor_id: acme.id, invoice_number: 'INV-7', invoice_date: '2026-11-01', due_date: '2026-12-01', currency: 'USD', amount: 15_000,
    status: 'DRAFT', created_by: ID, created_at: '2026-11-01T10:00:00.000Z', business_id: BIZ, change_seq: 1, updated_at: '2026-11-01T10:00:00.000Z',
    line_items: [{ id: '0b7e3f36-5c1d-4a53-9d55-000000000001', description: 'Paper', amount: 15_000 }], ...over,
  }),
  pending: null,
  failure: null,
});

function render(b?: RowView<'bills'>) {
  const client = {} as DataClient;
  return renderToStaticMarkup(
    <DataProvider client={client} store={createAppStore(true)}>
      <BillFormDialog bill={b} client={client} reference={buildReferenceView(data)} currency="USD" onClose={() => {}} onSaved={() => {}} />
    </DataProvider>,
  );
}

const disabledInput = (html: string, label: string) => new RegExp(`${label}</span><input[^>]*disabled`).test(html);

describe('BillFormDialog', () => {
  it('opens a new bill with every field, one line, the total and both actions', () => {
    const html = render();
    for (const text of ['New bill', 'Vendor', 'Invoice number', 'Invoice date', 'Due date', 'Currency', 'Lines', 'Add line', 'Total', 'Memo', 'Attach invoice', 'Save draft', 'Submit for approval']) {
      expect(html).toContain(text);
    }
    expect(html).toContain('Due in 30 days');
    expect(html.match(/class="bill-line"/g)).toHaveLength(1);
    expect(disabledInput(html, 'Invoice number')).toBe(false);
  });

  it('edits a rejected bill with everything open and "Resubmit for approval"', () => {
    const html = render(bill({ status: 'REJECTED' }));
    expect(html).toContain('Edit bill INV-7');
    expect(html).toContain('Resubmit for approval');
    expect(html).toContain('value="150.00"');
    expect(disabledInput(html, 'Invoice number')).toBe(false);
  });

  it('edits an approved bill: vendor, number and lines locked, dates and memo open, no submit', () => {
    const html = render(bill({ status: 'APPROVED' }));
    expect(html).toContain('(status APPROVED) and cannot have its vendor');
    expect(disabledInput(html, 'Invoice number')).toBe(true);
    expect(disabledInput(html, 'Invoice date')).toBe(false);
    expect(html).not.toContain('Add line');
    expect(html).not.toContain('Submit for approval');
    expect(html).toContain('>Save<');
  });
});

describe('duplicate invoices (issue 25)', () => {
  const other = bill({ id: '0b7e3f36-5c1d-4a53-9d55-7a2f6c1e0a12', invoice_number: 'INV-123', amount: 125_000, status: 'PENDING_APPROVAL' });
  const ask = (creating: boolean, submit: boolean, bills = [other]) => renderToStaticMarkup(
    <DataProvider client={{} as DataClient} store={createAppStore(true)}>
      <DuplicateQuestionDialog question={{ submit, bills }} vendor="Acme Supply" creating={creating} onBack={() => {}} onConfirm={() => {}} />
    </DataProvider>,
  );

  it('asks before saving, naming the other bill by number, vendor, amount and status, with "Create anyway" and "Go back"', () => {
    const html = ask(true, true);
    expect(html).toContain('Possible duplicate invoice');
    expect(html).toContain('Invoice INV-123 from Acme Supply is already on a bill for $1,250.00 (awaiting approval).');
    expect(html).toContain('Go back');
    expect(html).toContain('>Create anyway<');
    expect(html).not.toContain('and on 1 more bill');
  });

  it('says how many more bills repeat it, and words an edit’s confirm as its save', () => {
    const html = ask(false, true, [other, bill({ id: '0b7e3f36-5c1d-4a53-9d55-7a2f6c1e0a13' })]);
    expect(html).toContain('(awaiting approval), and on 1 more bill.');
    expect(html).toContain('>Submit anyway<');
    expect(ask(false, false)).toContain('>Save anyway<');
  });

  it('marks a confirmed duplicate for approvers with who confirmed it, and one saved before the check as unconfirmed', () => {
    const names = { vendor: (id: string) => (id === acme.id ? 'Acme Supply' : ''), user: (id: string) => (id === ID ? 'Alex Kim' : '') };
    const dup = { id: other.id, invoice_number: 'INV-123', vendor_id: acme.id, amount: 125_000, currency: 'USD', status: 'APPROVED' as const, confirmed_by: ID, confirmed_at: '2026-11-20T12:00:00.000Z' };
    expect(duplicateMarkText(dup, names)).toMatch(/^Possible duplicate of INV-123 \(Acme Supply, \$1,250\.00, Approved\) — confirmed by Alex Kim on Nov 20, 2026$/);
    expect(duplicateMarkText({ ...dup, confirmed_by: null, confirmed_at: null }, names)).toMatch(/nobody confirmed it$/);
  });
});
