import { z } from 'zod';
import { networkDocumentSchema } from '../entities/network-vendor.ts';
import { vendorEditProposalSchema } from '../entities/vendor-edit-proposal.ts';
import { vendorSchema } from '../entities/vendor.ts';
import { vendorCreateBodySchema } from './calls-vendors.ts';
import { defineCall } from './define-call.ts';

/**
 * Issue 31, the paying business's side of the vendor network (surface BUSINESS; §6 "manage bill
 * pay accounting": admin, AP clerk, bookkeeper). Contract: docs/design/issue-31-surfaces.md §2.4.
 */
const scopes = { scopes: ['default'] } as const;
const sensitive = { scopes: ['sensitive'] } as const;
const BASE = '/v1/auth/vendors';
const payeeParams = z.object({ payee_uuid: z.uuid() });
const proposalParams = z.object({ proposal_id: z.uuid() });
/** Checked by `networkEmailRefusal` (BILL_PAY_7017), not by zod: its refusal names the reason. */
const networkEmail = z.string().trim().min(1).max(320);

/** The invite as the payer sees it; the link token travels only in the mail. */
export const networkInviteSchema = z.object({
  vendor_id: z.uuid(),
  invited_email: z.string(),
  status: z.enum(['INVITED', 'ACTIVE', 'DECLINED']),
  invited_at: z.iso.datetime({ offset: true }),
});

/** POST /vendors/new: a vendor, and (optionally) its invitation to the vendor network. */
export const createNetworkVendor = defineCall({
  id: 'vendors.new', method: 'POST', path: `${BASE}/new`, auth: scopes,
  body: vendorCreateBodySchema.extend({ network_invite_email: networkEmail.nullable().default(null) }),
  response: z.object({ vendor: vendorSchema, network_invite: networkInviteSchema.nullable() }),
});

/** Invites a payer's vendor (e.g. a bill's) to the network; again re-sends a fresh link while INVITED. */
export const inviteNetworkVendor = defineCall({
  id: 'vendors.network.invite', method: 'POST', path: `${BASE}/:payee_uuid/network-invite`, auth: scopes,
  params: payeeParams, body: z.object({ email: networkEmail }), response: networkInviteSchema,
});

/** After a failed payment: mails the network vendor to fix its bank details, once per failed payment. */
export const networkFailureReminder = defineCall({
  id: 'vendors.network.failureReminder', method: 'PUT', path: `${BASE}/:payee_uuid/network-failure-reminder`, auth: scopes,
  params: payeeParams, body: z.object({ bill_payment_id: z.uuid() }),
  response: z.object({ bill_payment_id: z.uuid(), reminded_at: z.iso.datetime({ offset: true }) }),
});

export const listPayerEditProposals = defineCall({
  id: 'vendors.editProposals.list', method: 'GET', path: `${BASE}/edit-proposals`, auth: scopes,
  query: z.object({ status: z.enum(['PENDING', 'ACCEPTED', 'REJECTED', 'WITHDRAWN']).optional() }),
  response: z.object({ data: z.array(vendorEditProposalSchema) }),
});

/** Copies the vendor's verified details onto the payer's vendor (and asks the payee policy). */
export const acceptEditProposal = defineCall({
  id: 'vendors.editProposals.accept', method: 'PUT', path: `${BASE}/edit-proposals/:proposal_id/accept`, auth: sensitive,
  params: proposalParams, response: vendorEditProposalSchema,
});
export const rejectEditProposal = defineCall({
  id: 'vendors.editProposals.reject', method: 'PUT', path: `${BASE}/edit-proposals/:proposal_id/reject`, auth: scopes,
  params: proposalParams, response: vendorEditProposalSchema,
});
/** Reject-and-hide (§7 "DELETE vendors: edit proposals"): a decided one is only hidden. */
export const deleteEditProposal = defineCall({
  id: 'vendors.editProposals.delete', method: 'DELETE', path: `${BASE}/edit-proposals/:proposal_id`, auth: scopes,
  params: proposalParams, response: vendorEditProposalSchema,
});

/** The payer stops seeing one of its network vendor's documents (§7 "DELETE vendors: documents"). */
export const deleteVendorDocument = defineCall({
  id: 'vendors.documents.delete', method: 'DELETE', path: `${BASE}/:payee_uuid/documents/:document_id`, auth: scopes,
  params: z.object({ payee_uuid: z.uuid(), document_id: z.uuid() }), response: z.object({ ok: z.literal(true) }),
});

/** The vendor's documents (W-9…) this payer sees: §6 bill-pay managers (a W-9 names the TIN). */
export const listVendorDocuments = defineCall({
  id: 'vendors.documents.list', method: 'GET', path: `${BASE}/:payee_uuid/documents`, auth: scopes,
  params: payeeParams, response: z.object({ data: z.array(networkDocumentSchema) }),
});
/** One document's bytes (file headers: attachment, sandbox CSP, nosniff). */
export const getVendorDocumentFile = defineCall({
  id: 'vendors.documents.file', method: 'GET', path: `${BASE}/:payee_uuid/documents/:document_id`, auth: scopes,
  params: z.object({ payee_uuid: z.uuid(), document_id: z.uuid() }), response: z.string(),
});
