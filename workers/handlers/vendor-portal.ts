import type { z } from 'zod';
import {
  acceptNetworkInvite, acceptNetworkInviteSignedIn, getNetworkProfile, listNetworkEditProposals, listNetworkPayers, listPortalPayments,
  lookupNetworkInvite, postAchDetails, postTin, postWireAccount, putNetworkAddress, withdrawNetworkEditProposal,
} from '../../schema/api/calls-vendor-network-portal.ts';
import { acceptEditProposal, inviteNetworkVendor, listPayerEditProposals, rejectEditProposal } from '../../schema/api/calls-vendor-network-payer.ts';
import type { NetworkPayer, NetworkVendorProfile } from '../../schema/entities/network-vendor.ts';
import type { PortalPayment } from '../../schema/entities/portal-payment.ts';
import type { VendorEditProposal } from '../../schema/entities/vendor-edit-proposal.ts';
import type { VendorAddress } from '../../schema/entities/vendor.ts';
import type { SignInResult } from '../contracts/session.ts';
import type { OnlineFailure } from '../contracts/views.ts';
import { bindDomain, custom, offlineFailure, onlineDomain, via, type OnlineApi, type OnlinePort } from '../online.ts';
import type { FinishSignIn } from './application.ts';

export type { NetworkPayer, NetworkVendorProfile, PortalPayment, VendorEditProposal };
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
});

export type VendorPortalApi = OnlineApi<typeof VENDOR_PORTAL_CALLS> & {
  /** A new identity from the mailed link: password and names; signs the vendor in to the portal. */
  acceptPortalInvite(token: string, body: { password: string; first_name: string; last_name: string }, email: string | null): Promise<SignInResult>;
  /** The signed-in identity of the invited email joins; signs in to the portal. */
  acceptPortalInviteSignedIn(token: string): Promise<SignInResult>;
};

export function vendorPortalHandlers(ctx: OnlinePort, finishSignIn: FinishSignIn): VendorPortalApi {
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
  };
}
