import type { Queryable } from '../../db/db.ts';
import { DEFAULT_WALLET_SETTINGS, type WalletSettingsValues } from '../../../schema/treasury-rules.ts';

/**
 * Issue 30: the business's wallet settings (migration 058 `wallet_settings`; no row = the
 * defaults): the investment account's yield rate and the external transfer fee schedule that
 * schema/treasury-rules.ts `quoteTransfer` reads.
 */
export async function walletSettings(db: Queryable, businessId: string): Promise<WalletSettingsValues> {
  const [row] = await db.query<WalletSettingsValues>(
    `SELECT yield_rate_bps, external_transfer_fee::bigint AS external_transfer_fee, external_settlement_days
       FROM wallet_settings WHERE business_id = $1`,
    [businessId],
  );
  if (!row) return { ...DEFAULT_WALLET_SETTINGS };
  return {
    yield_rate_bps: Number(row.yield_rate_bps),
    external_transfer_fee: Number(row.external_transfer_fee),
    external_settlement_days: Number(row.external_settlement_days),
  };
}

/** Writes the fields given (the rest keep their value, or the default), in one upsert. */
export async function updateWalletSettings(
  tx: Queryable, businessId: string, patch: Partial<WalletSettingsValues>, by: string, at: Date,
): Promise<WalletSettingsValues> {
  const d = DEFAULT_WALLET_SETTINGS;
  // One statement: two admins' concurrent changes of different fields both stay.
  await tx.query(
    `INSERT INTO wallet_settings (business_id, yield_rate_bps, external_transfer_fee, external_settlement_days, updated_by, updated_at)
     VALUES ($1, coalesce($2, $7::int), coalesce($3, $8::bigint), coalesce($4, $9::int), $5, $6)
     ON CONFLICT (business_id) DO UPDATE SET
       yield_rate_bps = coalesce($2, wallet_settings.yield_rate_bps),
       external_transfer_fee = coalesce($3, wallet_settings.external_transfer_fee),
       external_settlement_days = coalesce($4, wallet_settings.external_settlement_days),
       updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`,
    [businessId, patch.yield_rate_bps ?? null, patch.external_transfer_fee ?? null, patch.external_settlement_days ?? null, by,
      at.toISOString(), d.yield_rate_bps, d.external_transfer_fee, d.external_settlement_days],
  );
  return walletSettings(tx, businessId);
}
