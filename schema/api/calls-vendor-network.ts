/**
 * Issue 31, §7 "Vendors and vendor network": the vendor portal's calls (surface VENDOR_PORTAL
 * unless noted) and the paying business's side (inviting a vendor, edit proposals; BUSINESS).
 * Contract: docs/design/issue-31-surfaces.md §2.4. The entries live in the two files below.
 */
import {
  acceptEditProposal, createNetworkVendor, deleteEditProposal, deleteVendorDocument, getVendorDocumentFile, inviteNetworkVendor,
  listPayerEditProposals, listVendorDocuments, networkFailureReminder, rejectEditProposal,
} from './calls-vendor-network-payer.ts';
import {
  acceptNetworkInvite, acceptNetworkInviteSignedIn, deleteNetworkDocument, deleteWireAccount, getNetworkDocumentFile, getNetworkProfile,
  listNetworkDocuments,
  listNetworkEditProposals, listNetworkPayers, listPortalPayments, lookupNetworkInvite, patchNetworkProfile, postAchDetails, postTin,
  postWireAccount, putNetworkAddress, uploadNetworkDocument, withdrawNetworkEditProposal,
} from './calls-vendor-network-portal.ts';

/** The served calls of this area (a call enters with its handler, server/routes/vendor-network*.ts). */
export const VENDOR_NETWORK_CALLS = [
  createNetworkVendor, inviteNetworkVendor, networkFailureReminder, listPayerEditProposals, acceptEditProposal, rejectEditProposal,
  deleteEditProposal, deleteVendorDocument, listVendorDocuments, getVendorDocumentFile,
  lookupNetworkInvite, acceptNetworkInvite, acceptNetworkInviteSignedIn, getNetworkProfile, patchNetworkProfile, putNetworkAddress, postAchDetails, postTin,
  postWireAccount, deleteWireAccount, uploadNetworkDocument, listNetworkDocuments, getNetworkDocumentFile, deleteNetworkDocument, listNetworkPayers,
  listPortalPayments, listNetworkEditProposals, withdrawNetworkEditProposal,
] as const;
