import { maskBankAccount } from '../../schema/vendor-rules.ts';
import { sealNetwork } from '../domain/vendor-network/shared.ts';
import { seededTokenHash, type SurfaceIdentity, type SurfaceSeedContext } from './surfaces-context.ts';

/**
 * Issue 31: the demo's network vendor, as joinNetwork (domain/vendor-network/invites.ts) leaves it
 * after vendor@ accepted the demo admin's invite: the network vendor (the payer's vendor's name, an
 * address, ACH details sealed under AAD `network_vendor:<id>:<field>` with the vendor bank key), its
 * admin row, the hidden VENDOR_NETWORK_ADMIN spend user in the demo business (the seq after `seq`)
 * and the ACTIVE link. The payer's vendor keeps its own seq: its doc's `network` is read live from
 * the link (a seeded row is first sent with the link already there).
 *
 * The vendor: the one with an unpaid bill (pending, approved, scheduled or failed) and the most
 * payments, by name then id; without bills (a seed with --bills 0) the first vendor by name.
 * With no vendor at all nothing is seeded (the seq is answered unchanged).
 */
const DAY = 86_400_000;
export const DEMO_VENDOR_BANK = { account_type: 'CHECKING', routing_number: '021000021', account_number: '000123456789' } as const;

export async function insertVendorNetworkDemo(ctx: SurfaceSeedContext, admin: SurfaceIdentity, seq: number): Promise<number> {
  const { tx, rng, now, data } = ctx;
  const [vendor] = await tx.query<{ id: string; name: string }>(
    `SELECT v.id::text, v.name FROM vendors v
      WHERE v.business_id = $1 AND NOT v.deleted
      ORDER BY EXISTS (SELECT 1 FROM bills b WHERE b.vendor_id = v.id AND NOT b.deleted
                         AND b.status IN ('PENDING_APPROVAL', 'APPROVED', 'SCHEDULED', 'PAYMENT_FAILED')) DESC,
               (SELECT count(*) FROM bill_payments p JOIN bills b ON b.id = p.bill_id WHERE b.vendor_id = v.id) DESC, v.name, v.id
      LIMIT 1`,
    [data.business.id],
  );
  const [networkVendorId, linkId, spendUserId] = [rng.uuid(), rng.uuid(), rng.uuid()];
  if (!vendor) return seq;
  const joinedAt = new Date(now.getTime() - 20 * DAY);
  const masked = maskBankAccount(DEMO_VENDOR_BANK);
  await tx.query(
    `INSERT INTO network_vendors (id, legal_name, email, address, bank_type, bank_holder_name, bank_routing_cipher, bank_account_cipher,
                                  bank_routing_last_four, bank_account_last_four, created_at, updated_at)
     VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $8, $9, $10, $11, $11)`,
    [
      networkVendorId, vendor.name, admin.email,
      JSON.stringify({ line1: '500 Harbor Way', line2: 'Suite 210', city: 'Oakland', state: 'CA', postal_code: '94607', country: 'US' }),
      DEMO_VENDOR_BANK.account_type, vendor.name,
      await sealNetwork(tx, networkVendorId, 'routing_number', DEMO_VENDOR_BANK.routing_number),
      await sealNetwork(tx, networkVendorId, 'account_number', DEMO_VENDOR_BANK.account_number),
      masked.routing_last_four, masked.last_four, joinedAt,
    ],
  );
  await tx.query('INSERT INTO network_vendor_admins (network_vendor_id, identity_id, created_at) VALUES ($1, $2, $3)', [
    networkVendorId, admin.id, joinedAt,
  ]);
  seq += 1;
  await tx.query(
    `INSERT INTO spend_users (id, business_id, identity_id, role, first_name, last_name, email, status, has_accepted_cardholder_agreement,
                              change_seq, updated_at)
     VALUES ($1, $2, $3, 'VENDOR_NETWORK_ADMIN', $4, $5, $6, 'ACTIVE', false, $7, $8)`,
    [spendUserId, data.business.id, admin.id, admin.first_name, admin.last_name, admin.email, seq, joinedAt],
  );
  await tx.query(
    `INSERT INTO network_vendor_links (id, vendor_id, business_id, network_vendor_id, invited_email, invited_by, invite_token_hash, status,
                                       invited_at, joined_at, spend_user_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'ACTIVE', $8, $9, $10)`,
    [linkId, vendor.id, data.business.id, networkVendorId, admin.email, ctx.admin.user_id, seededTokenHash(`vendor-invite:${linkId}`),
      new Date(joinedAt.getTime() - 2 * DAY), joinedAt, spendUserId],
  );
  return seq;
}
