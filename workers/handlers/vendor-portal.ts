import type { z } from 'zod';
import { vendorNetworkApplicationsPut } from '../../schema/api/calls-financing-starts.ts';
import { verifyEmailOtp } from '../../schema/api/calls-identity.ts';
import {
  acceptNetworkInvite, acceptNetworkInviteSignedIn, deleteNetworkDocument, deleteWireAccount, getNetworkDocumentFile, getNetworkProfile,
  listNetworkDocuments, listNetworkEditProposals, listNetworkPayers, listPortalPayments, lookupNetworkInvite, patchNetworkProfile,
  postAchDetails, postTin, postWireAccount, putNetworkAddress, uploadNetworkDocument, withdrawNetworkEditProposal,
} from '../../schema/api/calls-vendor-network-portal.ts';
import {
  acceptEditProposal, deleteVendorDocument, getVendorDocumentFile, inviteNetworkVendor, listPayerEditProposals, listVendorDocuments,
  rejectEditProposal,
} from '../../schema/api/calls-vendor-network-payer.ts';
import type { CallDef } from '../../schema/api/define-call.ts';
import type { NETWORK_DOCUMENT_KINDS, NetworkDocument, NetworkPayer, NetworkVendorProfile } from '../../schema/entities/network-vendor.ts';
import type { PortalPayment } from '../../schema/entities/portal-payment.ts';
import type { VendorEditProposal } from '../../schema/entities/vendor-edit-proposal.ts';
import type { VendorAddress } from '../../schema/entities/vendor.ts';
import type { CallOptions } from '../../sync/index.ts';
import type { ActionResult, OnlineFailure } from '../contracts/views.ts';
import type { SignInResult } from '../contracts/session.ts';
import { answerOf, bindDomain, custom, offlineFailure, onlineDomain, via, type OnlineApi, type OnlinePort } from '../online.ts';
import type { FinishSignIn } from './application.ts';

export type NetworkDocumentKind = (typeof NETWORK_DOCUMENT_KINDS)[number];
export type { NetworkDocument, NetworkPayer, NetworkVendorProfile, PortalPayment, VendorEditProposal };
/** The vendor's own application for financing, started from the portal (calls-financing-starts.ts). */
export type VendorApplicationStart = z.infer<typeof vendorNetworkApplicationsPut.response>;
export type PortalInvite = z.infer<typeof lookupNetworkInvite.response>;
export type PortalPaymentFilter = { business_id?: string; status?: 'UNPAID' | 'SCHEDULED' | 'PAID' | 'FAILED'; cursor?: string };
/** What one detail did at each payer (D9): filled there, sent as a change to accept, or already the same. */
export type PortalPropagation = { vendor_id: string; business_name: string; outcome: 'filled' | 'proposed' | 'unchanged' }[];
export type PortalAchBody = z.input<typeof postAchDetails.body>;
export type PortalWireBody = z.input<typeof postWireAccount.body>;
export type PortalTinBody = z.input<typeof postTin.body>;
/** A read the portal keeps: the server's answer, or offline the last one with when it was read. */
export type PortalRead<T> = { ok: true; data: T; read_at: string; offline: boolean } | OnlineFailure;

export const PORTAL_OFFLINE = offlineFailure('You’re offline. This needs a connection: nothing was sent.');
export const PORTAL_PAGE_SIZE = 25;

/** The last answer of each read, by its key, in the worker's memory (the pages' offline view). */
const lastReads = new Map<string, { data: unknown; read_at: string }>();

function kept<T>(key: string, r: { ok: true; data: T } | OnlineFailure): PortalRead<T> {
  if (r.ok) {
    const read_at = new Date().toISOString();
    lastReads.set(key, { data: r.data, read_at });
    return { ok: true, data: r.data, read_at, offline: false };
  }
  const last = lastReads.get(key);
  if ('offline' in r && r.offline && last) return { ok: true, data: last.data as T, read_at: last.read_at, offline: true };
  return r;
}

/** A document's bytes as a Blob typed by the server's Content-Type (view or download). */
function fileOf<C extends CallDef, A extends unknown[]>(def: C, opts: (...args: A) => CallOptions<C>) {
  return custom((_send, port, offline) => async (...args: A): Promise<{ ok: true; file: Blob } | OnlineFailure> => {
    if (!port.hub.online) return offline;
    const r = answerOf(port, await port.requireHttp().blob(def, opts(...args)), offline);
    return r.ok ? { ok: true, file: r.data } : r;
  });
}

/**
 * Issue 31, the vendor portal's calls (schema/api/calls-vendor-network-portal.ts), online only:
 * reads keep their last answer for offline (`PortalRead`), writes answer what happened at each
 * payer. The sensitive saves answer `step_up` until the person confirms it's them.
 */
export const VENDOR_PORTAL_CALLS = onlineDomain(PORTAL_OFFLINE, {
  portalInvite: via(lookupNetworkInvite, (token: string) => ({ params: { token } }), (invite: PortalInvite) => ({ invite })),
  portalPayments: custom((send) => async (filter: PortalPaymentFilter) => {
    const query = { page_size: PORTAL_PAGE_SIZE, ...filter };
    const r = await send(listPortalPayments, { query });
    return kept(`payments:${JSON.stringify(query)}`, r.ok ? { ok: true, data: { rows: r.data.data as PortalPayment[], next: r.data.page.next } } : r);
  }),
  portalProfile: custom((send) => async () => kept('profile', await send(getNetworkProfile, {}))),
  portalPayers: custom((send) => async () => {
    const r = await send(listNetworkPayers, {});
    return kept('payers', r.ok ? { ok: true, data: r.data.data } : r);
  }),
  portalChanges: custom((send) => async () => {
    const r = await send(listNetworkEditProposals, {});
    return kept('changes', r.ok ? { ok: true, data: r.data.data } : r);
  }),
  withdrawPortalChange: via(withdrawNetworkEditProposal, (id: string) => ({ params: { proposal_id: id } }), (proposal) => ({ proposal })),
  savePortalAddress: via(putNetworkAddress, (address: VendorAddress) => ({ body: { address } }), (d) => ({ profile: d.profile, payers: d.payers })),
  savePortalAch: via(postAchDetails, (body: PortalAchBody) => ({ body }), (d) => ({ profile: d.profile, payers: d.payers })),
  savePortalTin: via(postTin, (body: PortalTinBody) => ({ body }), (d) => ({ profile: d.profile, payers: d.payers })),
  // The payer's side (a business token, AP roles): the vendor drawer's "Vendor network" section.
  inviteNetworkVendor: via(inviteNetworkVendor, (vendorId: string, email: string) => ({ params: { payee_uuid: vendorId }, body: { email } }), (invite) => ({ invite })),
  pendingVendorProposals: via(listPayerEditProposals, () => ({ query: { status: 'PENDING' as const } }), (d) => ({ proposals: d.data })),
  acceptVendorProposal: via(acceptEditProposal, (id: string) => ({ params: { proposal_id: id } }), (proposal) => ({ proposal })),
  rejectVendorProposal: via(rejectEditProposal, (id: string) => ({ params: { proposal_id: id } }), (proposal) => ({ proposal })),
  savePortalWire: via(postWireAccount, (body: PortalWireBody) => ({ body }), (profile) => ({ profile, payers: [] as PortalPropagation })),
  /** Removes the wire or ACH details (sensitive); payers keep their last accepted copy. */
  deletePortalBank: via(deleteWireAccount, (kind: 'WIRE' | 'ACH') => ({ query: { kind } }), (profile) => ({ profile })),
  savePortalLegalName: via(patchNetworkProfile, (legal_name: string) => ({ body: { legal_name } }), (d) => ({ profile: d.profile, payers: d.payers })),
  // Documents (W-9…): the email-otp step-up, proven by a mailed code (`verifyPortalEmailCode`).
  portalDocuments: via(listNetworkDocuments, () => ({}), (d) => ({ documents: d.data })),
  uploadPortalDocument: via(uploadNetworkDocument, (kind: NetworkDocumentKind, file: Blob) => ({ query: { kind }, file: { body: file, contentType: file.type } }),
    (document) => ({ document })),
  portalDocumentFile: fileOf(getNetworkDocumentFile, (id: string) => ({ params: { document_id: id } })),
  deletePortalDocument: via(deleteNetworkDocument, (id: string) => ({ params: { document_id: id } })),
  /** The vendor's own company applies for Ledgerline; `id` is the client's (the same id again is the same application). */
  startVendorApplication: via(vendorNetworkApplicationsPut, (id: string) => ({ body: { id } }), (start) => ({ start })),
  // The payer's side: the network vendor's shared documents.
  vendorDocuments: via(listVendorDocuments, (vendorId: string) => ({ params: { payee_uuid: vendorId } }), (d) => ({ documents: d.data })),
  vendorDocumentFile: fileOf(getVendorDocumentFile, (vendorId: string, id: string) => ({ params: { payee_uuid: vendorId, document_id: id } })),
  stopSharingVendorDocument: via(deleteVendorDocument, (vendorId: string, id: string) => ({ params: { payee_uuid: vendorId, document_id: id } })),
});

export type VendorPortalApi = OnlineApi<typeof VENDOR_PORTAL_CALLS> & {
  /** A new identity from the mailed link: password and names; signs the vendor in to the portal. */
  acceptPortalInvite(token: string, body: { password: string; first_name: string; last_name: string }, email: string | null): Promise<SignInResult>;
  /** The signed-in identity of the invited email joins; signs in to the portal. */
  acceptPortalInviteSignedIn(token: string): Promise<SignInResult>;
  /** The code mailed by `sendEmailCode`: earns the email-otp step-up the documents need, kept for its lifetime. */
  verifyPortalEmailCode(code: string): Promise<ActionResult>;
};

/** What the handlers need of the worker's context: the online port and the step-up token's keeper. */
type PortalPort = OnlinePort & { readonly stepUps: { set(token: string, expiresAt?: number): void } };

export function vendorPortalHandlers(ctx: PortalPort, finishSignIn: FinishSignIn): VendorPortalApi {
  return {
    ...bindDomain(ctx, VENDOR_PORTAL_CALLS),
    async acceptPortalInvite(token, body, email) {
      if (!ctx.hub.online) return { ok: false, error: PORTAL_OFFLINE.error };
      const res = await ctx.requireHttp().call(acceptNetworkInvite, { params: { token }, body });
      if (!res.ok) return { ok: false, error: res.error };
      return finishSignIn(res.data.id_token, res.data.mfa_required, email);
    },
    async acceptPortalInviteSignedIn(token) {
      if (!ctx.hub.online) return { ok: false, error: PORTAL_OFFLINE.error };
      const res = await ctx.requireHttp().call(acceptNetworkInviteSignedIn, { params: { token }, body: {} });
      if (!res.ok) return { ok: false, error: res.error };
      return finishSignIn(res.data.id_token, res.data.mfa_required, null);
    },
    async verifyPortalEmailCode(code) {
      if (!ctx.hub.online) return { ok: false, error: PORTAL_OFFLINE.error };
      const res = answerOf(ctx, await ctx.requireHttp().call(verifyEmailOtp, { body: { code } }), PORTAL_OFFLINE);
      if (!res.ok) return { ok: false, error: res.error };
      ctx.stepUps.set(res.data.id_token, Date.parse(res.data.expires_at));
      return { ok: true };
    },
  };
}
