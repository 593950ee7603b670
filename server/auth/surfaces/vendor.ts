import { canAccessVendorPortal } from '../../../schema/roles.ts';
import type { SurfaceMembership } from './membership.ts';

/**
 * The vendor portal (issue 31): an identity holds a network vendor's portal while it is one of its
 * admins (`network_vendor_admins`) and, as §6 asks, holds a vendor network admin spend user
 * (`canAccessVendorPortal`: the hidden VENDOR_NETWORK_ADMIN user made in each paying business on
 * join). Read on every request, so removing the admin row ends its tokens at once. The picker
 * labels each with the network vendor's legal name, detail "Vendor".
 */
export const vendorPortalMembership: SurfaceMembership<'VENDOR_PORTAL'> = {
  holds: async (db, identityId, claim) => {
    const rows = await db.query<{ role: string }>(
      `SELECT su.role FROM network_vendor_admins a
         JOIN network_vendor_links l ON l.network_vendor_id = a.network_vendor_id AND l.status = 'ACTIVE'
         JOIN spend_users su ON su.id = l.spend_user_id AND su.identity_id = a.identity_id AND NOT su.deleted
        WHERE a.network_vendor_id = $1 AND a.identity_id = $2`,
      [claim.network_vendor_id, identityId],
    );
    return canAccessVendorPortal(rows);
  },
  choices: async (db, identityId) => {
    const rows = await db.query<{ id: string; legal_name: string }>(
      `SELECT nv.id::text, nv.legal_name FROM network_vendor_admins a JOIN network_vendors nv ON nv.id = a.network_vendor_id
        WHERE a.identity_id = $1 ORDER BY lower(nv.legal_name), nv.id`,
      [identityId],
    );
    return rows.map((r) => ({ target: { kind: 'VENDOR_PORTAL' as const, network_vendor_id: r.id }, label: r.legal_name, detail: 'Vendor' }));
  },
};
