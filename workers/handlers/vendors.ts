import {
  addVendorContact, bulkUploadVendors, createVendor, deleteVendorContacts, mergePayees, revealVendorBankAccount,
  setVendorBankAccount, updateVendor, updateVendorContact,
} from '../../schema/api/calls-vendors.ts';
import type { CallDef, CallResponse } from '../../schema/api/define-call.ts';
import type { Vendor } from '../../schema/entities/vendor.ts';
import type { CallOptions } from '../../sync/index.ts';
import type { VendorApi, VendorFailure } from '../api.ts';
import { actionFailure } from '../identity.ts';
import type { WorkerContext } from '../worker-context.ts';

/**
 * Refused before any request: vendors have no outbox command (a vendor is created with the
 * server's id, and a bank account change must never wait on a device), so they need a
 * connection. The UI keeps what the person typed.
 */
export const VENDOR_OFFLINE: VendorFailure = {
  ok: false,
  offline: true,
  error: { error_code: 'OFFLINE', message: 'You’re offline. Vendor changes need a connection: nothing was saved, and what you entered is still here.' },
};

/**
 * Vendors (issue 11): direct calls through the session's HTTP client. A failure is data (the
 * server's `error_v2` with its field messages, a step-up request, or offline); a 401 expires
 * the session like the sync engine's.
 */
export function vendorHandlers(ctx: WorkerContext): VendorApi {
  async function send<C extends CallDef>(def: C, opts: CallOptions<C>): Promise<{ ok: true; data: CallResponse<C> } | VendorFailure> {
    if (!ctx.hub.online) return VENDOR_OFFLINE;
    const res = ctx.watch401(await ctx.requireHttp().call(def, opts));
    if (res.ok) return { ok: true, data: res.data };
    // A request that never reached the server is the same as offline: nothing changed there.
    if ((res.kind === 'network' || res.kind === 'timeout') && !res.maybeSent) return VENDOR_OFFLINE;
    return actionFailure(res);
  }
  const asVendor = (r: { ok: true; data: Vendor } | VendorFailure) => (r.ok ? { ok: true as const, vendor: r.data } : r);
  const payee = (id: string) => ({ payee_uuid: id });
  return {
    createVendor: async (body) => asVendor(await send(createVendor, { body })),
    updateVendor: async (id, patch, baseSeq) =>
      asVendor(await send(updateVendor, { params: payee(id), body: patch, ...(baseSeq !== undefined ? { ifMatch: baseSeq } : {}) })),
    addVendorContact: async (id, contact) => asVendor(await send(addVendorContact, { params: payee(id), body: contact })),
    updateVendorContact: async (id, contactId, patch) =>
      asVendor(await send(updateVendorContact, { params: { payee_uuid: id, contact_uuid: contactId }, body: patch })),
    deleteVendorContacts: async (id, contactIds) =>
      asVendor(await send(deleteVendorContacts, { params: payee(id), body: { contact_ids: contactIds } })),
    setVendorBankAccount: async (id, bank) => asVendor(await send(setVendorBankAccount, { params: payee(id), body: bank })),
    async revealVendorBankAccount(id) {
      const r = await send(revealVendorBankAccount, { params: payee(id) });
      return r.ok ? { ok: true, bank: r.data } : r;
    },
    async mergeVendors(survivorId, mergedIds) {
      const r = await send(mergePayees, { body: { survivor_payee_id: survivorId, merged_payee_ids: mergedIds } });
      return r.ok ? { ok: true, vendor: r.data.vendor, merged_payee_ids: r.data.merged_payee_ids } : r;
    },
    async uploadVendors(input) {
      const r = await send(bulkUploadVendors, { body: input });
      return r.ok ? { ok: true, created: r.data.created, results: r.data.results } : r;
    },
  };
}
