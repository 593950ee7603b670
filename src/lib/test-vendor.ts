import { vendorSchema, type Vendor } from '../../schema/entities/vendor.ts';

/** The business the tests' vendors belong to. */
export const TEST_VENDOR_BUSINESS = '40000000-0000-4000-8000-0000000000b1';

let made = 0;

/**
 * A vendor as the schema parses it (tests only): each call in a test file the next id
 * (`…000000000001`, `…2`, …) and change_seq, active, with no contact details unless `over` says.
 */
export function testVendor(over: Partial<Vendor> = {}): Vendor {
  made += 1;
  return vendorSchema.parse({
    id: `40000000-0000-4000-8000-${String(made).padStart(12, '0')}`, business_id: TEST_VENDOR_BUSINESS, change_seq: made,
    updated_at: '2026-11-20T10:00:00.000Z', name: 'V', email: null, phone: null, address: null, default_gl_account_id: null,
    default_department_id: null, bank_account: null, status: 'ACTIVE', contacts: [], ...over,
  });
}
