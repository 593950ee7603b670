import { z } from 'zod';
import { networkDocumentKindSchema, networkDocumentSchema, networkPayerSchema, networkVendorProfileSchema, tinTypeSchema } from '../entities/network-vendor.ts';
import { portalPaymentSchema } from '../entities/portal-payment.ts';
import { vendorEditProposalSchema } from '../entities/vendor-edit-proposal.ts';
import { bankAccountTypeSchema, vendorAddressSchema } from '../entities/vendor.ts';
import { pageQuerySchema, paginatedSchema } from '../paging.ts';
import { isValidAccountNumber, isValidRoutingNumber } from '../vendor-rules.ts';
import { INVITE_PASSWORD_MIN_LENGTH } from './calls-admin.ts';
import { defineCall, uploadBodySchema } from './define-call.ts';
import { ANY_SURFACE } from './scopes.ts';

/**
 * Issue 31, the vendor portal (surface VENDOR_PORTAL) and its invitation links. Contract:
 * docs/design/issue-31-surfaces.md §2.4. Every number answers masked (last four).
 */
const portal = ['VENDOR_PORTAL'] as const;
const scopes = { scopes: ['default'] } as const;
const sensitive = { scopes: ['sensitive'] } as const;
const emailOtp = { scopes: ['email-otp'] } as const;
const BASE = '/v1/auth/vendor-network';

const inviteToken = z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'token must be a valid invite token');
const tokenAnswer = z.object({ id_token: z.string(), mfa_required: z.boolean() });

export const lookupNetworkInvite = defineCall({
  id: 'vendorNetwork.invites.lookup', method: 'GET', path: '/v1/public/vendor-network/invites/:token', auth: 'public',
  params: z.object({ token: inviteToken }),
  response: z.object({
    payer_name: z.string(), vendor_name: z.string(), masked_email: z.string(),
    status: z.enum(['INVITED', 'ACTIVE', 'DECLINED']),
    /** The email already has a Ledgerline identity: sign in, then accept signed in. */
    existing_account: z.boolean(),
  }),
});

/** The mailed link proves the mailbox: a new identity, network vendor (or the one already joined) and admin row. */
export const acceptNetworkInvite = defineCall({
  id: 'vendorNetwork.invites.accept', method: 'POST', path: '/v1/public/vendor-network/invites/:token/accept', auth: 'public',
  params: z.object({ token: inviteToken }),
  body: z.object({
    password: z.string().min(INVITE_PASSWORD_MIN_LENGTH, `password must be at least ${INVITE_PASSWORD_MIN_LENGTH} characters`).max(1024),
    first_name: z.string().trim().min(1).max(100),
    last_name: z.string().trim().min(1).max(100),
  }),
  response: tokenAnswer,
});

/** A signed-in identity of the invited email joins (AUTH_7018 for another email); from any surface. */
export const acceptNetworkInviteSignedIn = defineCall({
  id: 'vendorNetwork.invites.acceptSignedIn', method: 'POST', path: `${BASE}/invites/:token/accept`, auth: 'recent-token',
  surfaces: ANY_SURFACE, params: z.object({ token: inviteToken }), body: z.object({}), response: tokenAnswer,
});

export const getNetworkProfile = defineCall({
  id: 'vendorNetwork.profile.get', method: 'GET', path: `${BASE}/profile`, auth: scopes, surfaces: portal, response: networkVendorProfileSchema,
});

/** What a new detail did to each linked payer's vendor (D9). */
const propagationSchema = z.array(z.object({ vendor_id: z.uuid(), business_name: z.string(), outcome: z.enum(['filled', 'proposed', 'unchanged']) }));
const detailAnswer = z.object({ profile: networkVendorProfileSchema, payers: propagationSchema });

/** The vendor's legal name (the first payer's vendor name until changed); payers accept it as an edit proposal. */
export const patchNetworkProfile = defineCall({
  id: 'vendorNetwork.profile.patch', method: 'PATCH', path: `${BASE}/profile`, auth: scopes, surfaces: portal,
  body: z.object({ legal_name: z.string().trim().min(1).max(200) }), response: detailAnswer,
});

export const putNetworkAddress = defineCall({
  id: 'vendorNetwork.address.put', method: 'PUT', path: `${BASE}/address`, auth: sensitive, surfaces: portal,
  body: z.object({ address: vendorAddressSchema }), response: detailAnswer,
});

export const postAchDetails = defineCall({
  id: 'vendorNetwork.achDetails', method: 'POST', path: `${BASE}/ach-details`, auth: sensitive, surfaces: portal,
  body: z.object({
    holder_name: z.string().trim().min(1).max(200),
    routing_number: z.string().refine(isValidRoutingNumber, 'must be a valid 9-digit ABA routing number'),
    account_number: z.string().refine(isValidAccountNumber, 'must be 4 to 17 digits'),
    type: bankAccountTypeSchema,
  }),
  response: detailAnswer,
});

/** Checked by `tinCheck` (REQUEST_7001 naming `tin`), so the message says which rule failed. */
export const postTin = defineCall({
  id: 'vendorNetwork.tin', method: 'POST', path: `${BASE}/tin`, auth: sensitive, surfaces: portal,
  body: z.object({ tin_type: tinTypeSchema, tin: z.string().trim().min(1).max(20) }), response: detailAnswer,
});

/** USD wire details (lead's decision 3), separate from ACH. */
export const postWireAccount = defineCall({
  id: 'vendorNetwork.bankAccount.post', method: 'POST', path: `${BASE}/bank-account`, auth: sensitive, surfaces: portal,
  body: z.object({
    bank_name: z.string().trim().min(1).max(200),
    routing_number: z.string().refine(isValidRoutingNumber, 'must be a valid 9-digit ABA routing number'),
    account_number: z.string().refine(isValidAccountNumber, 'must be 4 to 17 digits'),
  }),
  response: networkVendorProfileSchema,
});
/** Removes the vendor's wire (default) or ACH details; payers keep their last accepted copy. */
export const deleteWireAccount = defineCall({
  id: 'vendorNetwork.bankAccount.delete', method: 'DELETE', path: `${BASE}/bank-account`, auth: sensitive, surfaces: portal,
  query: z.object({ kind: z.enum(['WIRE', 'ACH']).default('WIRE') }), response: networkVendorProfileSchema,
});

export const NETWORK_DOCUMENT_TYPES = ['application/pdf', 'image/png', 'image/jpeg'] as const;
export const uploadNetworkDocument = defineCall({
  id: 'vendorNetwork.documents.upload', method: 'POST', path: `${BASE}/documents`, auth: emailOtp, surfaces: portal,
  query: z.object({ kind: networkDocumentKindSchema }), body: uploadBodySchema,
  upload: { contentTypes: NETWORK_DOCUMENT_TYPES, maxBytes: 10 * 1024 * 1024 }, response: networkDocumentSchema,
});
export const listNetworkDocuments = defineCall({
  id: 'vendorNetwork.documents.list', method: 'GET', path: `${BASE}/documents`, auth: emailOtp, surfaces: portal,
  response: z.object({ data: z.array(networkDocumentSchema) }),
});
/** One of the vendor's own documents, as a file (file headers: attachment, sandbox CSP, nosniff). */
export const getNetworkDocumentFile = defineCall({
  id: 'vendorNetwork.documents.file', method: 'GET', path: `${BASE}/documents/:document_id`, auth: emailOtp, surfaces: portal,
  params: z.object({ document_id: z.uuid() }), response: z.string(),
});
export const deleteNetworkDocument = defineCall({
  id: 'vendorNetwork.documents.delete', method: 'DELETE', path: `${BASE}/documents/:document_id`, auth: emailOtp, surfaces: portal,
  params: z.object({ document_id: z.uuid() }), response: z.object({ ok: z.literal(true) }),
});

export const listNetworkPayers = defineCall({
  id: 'vendorNetwork.payers.list', method: 'GET', path: `${BASE}/payers`, auth: scopes, surfaces: portal,
  response: z.object({ data: z.array(networkPayerSchema) }),
});

export const listPortalPayments = defineCall({
  id: 'vendorNetwork.payments.list', method: 'GET', path: `${BASE}/payments`, auth: scopes, surfaces: portal, retry: 'paged',
  query: pageQuerySchema.extend({
    business_id: z.uuid().optional(),
    status: z.enum(['UNPAID', 'SCHEDULED', 'PAID', 'FAILED']).optional(),
  }),
  response: paginatedSchema(portalPaymentSchema),
});

export const listNetworkEditProposals = defineCall({
  id: 'vendorNetwork.editProposals.list', method: 'GET', path: `${BASE}/edit-proposals`, auth: scopes, surfaces: portal,
  response: z.object({ data: z.array(vendorEditProposalSchema) }),
});
export const withdrawNetworkEditProposal = defineCall({
  id: 'vendorNetwork.editProposals.withdraw', method: 'DELETE', path: `${BASE}/edit-proposals/:proposal_id`, auth: scopes, surfaces: portal,
  params: z.object({ proposal_id: z.uuid() }), response: vendorEditProposalSchema,
});
