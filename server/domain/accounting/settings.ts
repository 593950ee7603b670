import {
  XERO_MAX_LINES, type AccountingCurrent, type XeroDateFormat, type AccountingPreferences, type AccountingProvider,
} from '../../../schema/api/calls-accounting.ts';
import { canManageBillPayAccounting } from '../../../schema/roles.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { lastSyncCommit } from './sync-commit-reads.ts';

/**
 * The business's accounting settings (issue 12): the connected file-based provider and the
 * export preferences, one `accounting_settings` row (made on first write; defaults until then).
 */

export const PROVIDER_NAMES: Record<AccountingProvider, string> = {
  csv: 'CSV export',
  quickbooks_desktop: 'QuickBooks Desktop',
  xero_csv: 'Xero (bank statement CSV)',
};

/** §6 "manage bill pay accounting": admin, AP clerk (AP_ACCESS) or bookkeeper; before any lookup. */
export function assertMayManageAccounting(user: ActingUser): void {
  if (!canManageBillPayAccounting(user)) {
    throw new ApiError('FORBIDDEN_7003', 'Only administrators, bookkeepers and AP clerks can manage accounting.');
  }
}

type SettingsRow = {
  provider_type: AccountingProvider | null;
  connected_at: string | null;
  connected_by: string | null;
  default_provider: AccountingProvider | null;
  iif_card_account: string;
  iif_ap_account: string;
  iif_reimbursement_account: string;
  xero_date_format: XeroDateFormat;
};

const DEFAULTS: SettingsRow = {
  provider_type: null, connected_at: null, connected_by: null, default_provider: null,
  iif_card_account: 'Corporate Card', iif_ap_account: 'Accounts Payable', iif_reimbursement_account: 'Employee Reimbursements Payable',
  xero_date_format: 'DD/MM/YYYY',
};

export async function readSettings(db: Queryable, businessId: string, lock = false): Promise<SettingsRow> {
  const rows = await db.query<SettingsRow>(
    `SELECT provider_type, ll_iso(connected_at) AS connected_at, connected_by::text, default_provider,
            iif_card_account, iif_ap_account, iif_reimbursement_account, xero_date_format
       FROM accounting_settings WHERE business_id = $1${lock ? ' FOR UPDATE' : ''}`,
    [businessId],
  );
  return rows[0] ?? DEFAULTS;
}

function preferencesOf(s: SettingsRow): AccountingPreferences {
  return {
    default_provider: s.default_provider, iif_card_account: s.iif_card_account, iif_ap_account: s.iif_ap_account,
    iif_reimbursement_account: s.iif_reimbursement_account, xero_max_lines_per_file: XERO_MAX_LINES,
    xero_date_format: s.xero_date_format,
  };
}

export async function readCurrent(db: Queryable, businessId: string): Promise<AccountingCurrent> {
  const s = await readSettings(db, businessId);
  return {
    provider: s.provider_type && s.connected_at && s.connected_by
      ? { provider_type: s.provider_type, connected_at: s.connected_at, connected_by: s.connected_by }
      : null,
    preferences: preferencesOf(s),
    last_commit: await lastSyncCommit(db, businessId),
  };
}

/** Makes the row when missing, so every write below is one UPDATE of a locked row. */
async function ensureRow(tx: Queryable, businessId: string): Promise<void> {
  await tx.query('INSERT INTO accounting_settings (business_id) VALUES ($1) ON CONFLICT (business_id) DO NOTHING', [businessId]);
}

/** Connecting replaces the provider connected before (the files are produced here either way). */
export async function connectProvider(tx: Queryable, user: ActingUser, provider: AccountingProvider, now: Date): Promise<AccountingCurrent> {
  await ensureRow(tx, user.business_id);
  await tx.query(
    `UPDATE accounting_settings SET provider_type = $2, connected_at = $3, connected_by = $4, disconnected_at = NULL,
            default_provider = coalesce(default_provider, $2), updated_at = $3 WHERE business_id = $1`,
    [user.business_id, provider, now.toISOString(), user.id],
  );
  return readCurrent(tx, user.business_id);
}

export async function disconnectProvider(tx: Queryable, user: ActingUser, provider: AccountingProvider, now: Date): Promise<AccountingCurrent> {
  const s = await readSettings(tx, user.business_id, true);
  assertConnected(s, provider);
  await tx.query(
    `UPDATE accounting_settings SET provider_type = NULL, connected_at = NULL, connected_by = NULL, disconnected_at = $2, updated_at = $2
      WHERE business_id = $1`,
    [user.business_id, now.toISOString()],
  );
  return readCurrent(tx, user.business_id);
}

/** ACCOUNTING_7304 unless `provider` is the one connected. */
export function assertConnected(s: Pick<SettingsRow, 'provider_type'>, provider: AccountingProvider): void {
  if (s.provider_type === provider) return;
  const now = s.provider_type ? ` ${PROVIDER_NAMES[s.provider_type]} is connected now.` : ' No accounting provider is connected.';
  throw new ApiError('ACCOUNTING_7304', `Connect ${PROVIDER_NAMES[provider]} first.${now}`);
}

export type PreferencesPatch = Partial<Pick<SettingsRow, 'default_provider' | 'iif_card_account' | 'iif_ap_account' | 'iif_reimbursement_account' | 'xero_date_format'>>;

export async function updatePreferences(tx: Queryable, businessId: string, patch: PreferencesPatch, now: Date): Promise<AccountingPreferences> {
  await ensureRow(tx, businessId);
  const has = (k: keyof PreferencesPatch) => patch[k] !== undefined;
  await tx.query(
    `UPDATE accounting_settings SET
        default_provider = CASE WHEN $2 THEN $3 ELSE default_provider END,
        iif_card_account = coalesce($4, iif_card_account),
        iif_ap_account = coalesce($5, iif_ap_account),
        iif_reimbursement_account = coalesce($6, iif_reimbursement_account),
        xero_date_format = coalesce($8, xero_date_format),
        updated_at = $7
      WHERE business_id = $1`,
    [businessId, has('default_provider'), patch.default_provider ?? null, patch.iif_card_account ?? null, patch.iif_ap_account ?? null,
      patch.iif_reimbursement_account ?? null, now.toISOString(), patch.xero_date_format ?? null],
  );
  return preferencesOf(await readSettings(tx, businessId));
}
