import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { spendRequestSchema } from '../../../schema/entities/spend-request.ts';
import { spendUserSchema } from '../../../schema/entities/spend-user.ts';
import { createAppStore } from '../../data-access/app-state.ts';
import { DataProvider } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { EMPTY_REFERENCE } from '../../lib/reference-data.ts';
import { NewRequestDialog } from './new-request-dialog.tsx';

/** "Edit draft" on the server renderer: the request form, prefilled from the draft, its type fixed, Save draft / Submit. */
const ID = '3f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b';
const ME = '1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d';
const OTHER = '2c3d4e5f-6071-4b8c-9d0e-1f2a3b4c5d6e';
const VENDOR = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const AT = '2026-11-28T10:00:00.000Z';

const viewer = spendUserSchema.parse({
  id: ME, role: 'BUSINESS_USER', business_id: ID, external_firm: null, has_finished_onboarding: true, is_business_locked: false, is_manager: true,
  user_permissions: [], payroll_currency: null, has_accepted_cardholder_agreement: true, impersonator: null, acting_user_is_in_reporting_chain: false,
  first_name: 'Mia', last_name: 'Manager', external_firm_role: null, email: 'mia@example.com', manager_id: null, department_id: null, location_id: null, status: 'ACTIVE',
});

const draft = spendRequestSchema.parse({
  id: ID, user_id: OTHER, requested_by: ME, type: 'PRODUCT_OR_SERVICE', status: 'DRAFT', amount: { amount: 36_000, currency: 'USD' },
  interval: 'TOTAL', description: 'Standing desks', vendor_id: VENDOR, needed_by: null, spend_allocation_id: null,
  line_items: [{ id: 'a0000000-0000-4000-8000-000000000001', description: 'Desk frame', quantity: 3, unit_price: 12_000 }],
  document_ids: [], approval_id: null, rejection_reason: null, card_id: null, purchase_order_id: null, submitted_at: null,
  decided_at: null, fulfilled_at: null, canceled_at: null, created_at: AT, business_id: ID, change_seq: 3, updated_at: AT, deleted: false,
});

function render(editing?: typeof draft) {
  const client = {} as DataClient;
  const reference = {
    ...EMPTY_REFERENCE,
    users: [{ id: OTHER, first_name: 'Eli', last_name: 'Employee', manager_id: ME, status: 'ACTIVE' }] as never,
  };
  return renderToStaticMarkup(
    <DataProvider client={client} store={createAppStore(true)}>
      <NewRequestDialog client={client} viewer={viewer} currency="USD" reference={reference} editing={editing} onClose={() => {}} onCreated={() => {}} />
    </DataProvider>,
  );
}

describe('NewRequestDialog editing a draft', () => {
  it('is "Edit draft", prefilled (description, lines, prices), its type and person fixed, Save draft / Submit', () => {
    const html = render(draft);
    expect(html).toContain('Edit draft');
    expect(html).not.toContain('New request');
    expect(html).toContain('Standing desks');
    expect(html).toMatch(/value="Desk frame"/);
    expect(html).toMatch(/value="120.00"/);
    expect(html).toMatch(/value="3"/);
    // The type is shown, not chosen; whom it is for is said, not asked.
    expect(html).not.toContain('type="radio"');
    expect(html).toContain('Product or service · for Eli Employee');
    expect(html).not.toContain('Request for');
    expect(html).toContain('Save draft');
    expect(html).toContain('Submit for approval');
  });

  it('a new request still offers the three types and whom it is for', () => {
    const html = render();
    expect(html).toContain('New request');
    expect(html.match(/type="radio"/g)).toHaveLength(3);
    expect(html).toContain('Request for');
    expect(html).toContain('Save as draft');
  });
});
