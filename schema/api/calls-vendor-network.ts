/**
 * Issue 31, §7 "Vendors and vendor network": the vendor portal's calls (surface VENDOR_PORTAL
 * unless noted) and the paying business's side (inviting a vendor, edit proposals; BUSINESS).
 * Contract: docs/design/issue-31-surfaces.md §2.4.
 */

/** The served calls of this file (a call enters with its handler, server/routes/vendor-network.ts). */
export const VENDOR_NETWORK_CALLS = [] as const;
