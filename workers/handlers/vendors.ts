import {
  addVendorContact, bulkUploadVendors, createVendor, deleteVendorContacts, mergePayees, revealVendorBankAccount,
  setVendorBankAccount, updateVendor, updateVendorContact, type BankAccountBody, type BulkVendorRow, type VendorCreateBody,
  type VendorPatchBody, type bulkRowResultSchema, type revealedBankAccountSchema, type vendorContactBodySchema,
  type vendorContactPatchSchema,
} from '../../schema/api/calls-vendors.ts';
import type { Vendor } from '../../schema/entities/vendor.ts';
import type { z } from 'zod';
import type { OnlineFailure } from '../contracts/views.ts';
import { bindDomain, offlineFailure, onlineDomain, via, type OnlineApi, type OnlinePort } from '../online.ts';

/**
 * A vendor call's refusal. `offline`: nothing was sent (vendor changes have no outbox command:
 * they are direct calls, online only); `step_up`: earn the scope, then repeat the call. The
 * server's field messages (`error.errors`, e.g. `address.state` for PAYEE_1007) come as they are.
 */
export type VendorFailure = OnlineFailure;
export type VendorResult = { ok: true; vendor: Vendor } | VendorFailure;
export type RevealedBankAccount = z.output<typeof revealedBankAccountSchema>;
export type BulkRowResult = z.output<typeof bulkRowResultSchema>;
export type VendorContactInput = z.input<typeof vendorContactBodySchema>;
export type VendorContactPatch = z.input<typeof vendorContactPatchSchema>;

/**
 * Refused before any request: vendors have no outbox command (a vendor is created with the
 * server's id, and a bank account change must never wait on a device), so they need a
 * connection. The UI keeps what the person typed.
 */
export const VENDOR_OFFLINE = offlineFailure('You’re offline. Vendor changes need a connection: nothing was saved, and what you entered is still here.');

const payee = (id: string) => ({ payee_uuid: id });
const vendor = (v: Vendor) => ({ vendor: v });

/**
 * Vendors (payees, issue 11): direct calls to the server, online only. The list itself is
 * reference data (`referenceData().vendors`); every write comes back through the feed too, so
 * the answer's vendor is only what the UI shows until the mirror has it.
 */
export const VENDOR_CALLS = onlineDomain(VENDOR_OFFLINE, {
  createVendor: via(createVendor, (body: Partial<VendorCreateBody> & Pick<VendorCreateBody, 'name'>) => ({ body }), vendor),
  /**
   * `baseSeq` (issue 24): the vendor's `change_seq` as the form was made from, sent as If-Match;
   * a field someone else changed since answers 409 CONFLICT with the details (nothing applied).
   */
  updateVendor: via(updateVendor, (id: string, patch: VendorPatchBody, baseSeq?: number) =>
    ({ params: payee(id), body: patch, ...(baseSeq !== undefined ? { ifMatch: baseSeq } : {}) }), vendor),
  addVendorContact: via(addVendorContact, (id: string, contact: VendorContactInput) => ({ params: payee(id), body: contact }), vendor),
  updateVendorContact: via(updateVendorContact, (id: string, contactId: string, patch: VendorContactPatch) =>
    ({ params: { payee_uuid: id, contact_uuid: contactId }, body: patch }), vendor),
  deleteVendorContacts: via(deleteVendorContacts, (id: string, contactIds: string[]) =>
    ({ params: payee(id), body: { contact_ids: contactIds } }), vendor),
  /** Needs the `sensitive` scope (step-up). */
  setVendorBankAccount: via(setVendorBankAccount, (id: string, bank: BankAccountBody) => ({ params: payee(id), body: bank }), vendor),
  /** The full numbers; needs the `sensitive` scope (step-up). Never stored by the worker. */
  revealVendorBankAccount: via(revealVendorBankAccount, (id: string) => ({ params: payee(id) }), (bank) => ({ bank })),
  mergeVendors: via(mergePayees, (survivorId: string, mergedIds: string[]) =>
    ({ body: { survivor_payee_id: survivorId, merged_payee_ids: mergedIds } }),
  (d) => ({ vendor: d.vendor, merged_payee_ids: d.merged_payee_ids })),
  /** A CSV file's text (the server parses it) or parsed rows; all or nothing (`created: 0` when any row is refused). */
  uploadVendors: via(bulkUploadVendors, (input: { csv: string } | { rows: BulkVendorRow[] }) => ({ body: input }),
    (d) => ({ created: d.created, results: d.results })),
});

export type VendorApi = OnlineApi<typeof VENDOR_CALLS>;

export const vendorHandlers = (port: OnlinePort): VendorApi => bindDomain(port, VENDOR_CALLS);
