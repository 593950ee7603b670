import type { z } from 'zod';
import type { flexSettingsSchema } from '../../../schema/api/calls-float.ts';
import { canUseFlexBills, canViewFinancingDetails, isAdmin } from '../../../schema/roles.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { systemAccount } from '../../ledger/ledger.ts';

/**
 * Issue 30, flex: the business's flex line (migration 063 `flex_settings`; no row = not onboarded,
 * AP clerks not allowed). Onboarding (admins) makes it ACTIVE with its limit (250,000.00 USD by
 * default) and its FLEX_LINE ledger account. The line's used amount is the ledger's: minus the
 * FLEX_LINE balance (principal drawn and not yet repaid), so it cannot drift from the postings.
 */
export type FlexSettings = z.infer<typeof flexSettingsSchema>;

export interface FlexLine {
  status: 'NOT_ONBOARDED' | 'ACTIVE';
  limit: number;
  currency: string;
  apClerksCanFlex: boolean;
  lineAccountId: string | null;
  onboardedAt: string | null;
  used: number;
}

export const DEFAULT_FLEX_LIMIT = 25_000_000;
export const FLEX_CURRENCY = 'USD';

/** The business's line; `lock`: the settings row FOR UPDATE (accepting an offer holds it, so two draws cannot pass the limit together). */
export async function readFlexLine(db: Queryable, businessId: string, lock = false): Promise<FlexLine> {
  const [row] = await db.query<{
    status: 'NOT_ONBOARDED' | 'ACTIVE'; limit_amount: string | number; currency: string; ap_clerks_can_flex: boolean;
    line_account_id: string | null; onboarded_at: string | null; balance: string | number | null;
  }>(
    `SELECT s.status, s.limit_amount, s.currency, s.ap_clerks_can_flex, s.line_account_id, ll_iso(s.onboarded_at) AS onboarded_at, a.balance
       FROM flex_settings s LEFT JOIN ledger_accounts a ON a.id = s.line_account_id
      WHERE s.business_id = $1${lock ? ' FOR UPDATE OF s' : ''}`,
    [businessId],
  );
  if (!row) {
    return { status: 'NOT_ONBOARDED', limit: DEFAULT_FLEX_LIMIT, currency: FLEX_CURRENCY, apClerksCanFlex: false, lineAccountId: null, onboardedAt: null, used: 0 };
  }
  return {
    status: row.status, limit: Number(row.limit_amount), currency: row.currency, apClerksCanFlex: row.ap_clerks_can_flex,
    lineAccountId: row.line_account_id, onboardedAt: row.onboarded_at, used: Math.max(0, -Number(row.balance ?? 0)),
  };
}

export const availableOn = (line: FlexLine) => Math.max(0, line.limit - line.used);

export function settingsDoc(line: FlexLine): FlexSettings {
  const money = (amount: number) => ({ amount, currency: line.currency });
  return {
    status: line.status,
    limit: money(line.status === 'ACTIVE' ? line.limit : 0),
    used: money(line.used),
    available: money(line.status === 'ACTIVE' ? availableOn(line) : 0),
    ap_clerks_can_flex: line.apClerksCanFlex,
    onboarded_at: line.onboardedAt,
  };
}

/** §6 "view financing details": admins and AP clerks (403 FORBIDDEN_7003 before any read). */
export function assertMayViewFlex(user: ActingUser): void {
  if (!canViewFinancingDetails(user)) throw new ApiError('FORBIDDEN_7003', 'Only an admin or an AP clerk can see flex financing.');
}

/** Onboarding and settings are the admins'. */
export function assertFlexAdmin(user: ActingUser): void {
  if (!isAdmin(user)) throw new ApiError('FORBIDDEN_7003', 'Only an admin can set up flex or change its settings.');
}

/**
 * §6 "flex bills": admins, or AP clerks while the business allows it (FLEX_7001). Someone who is
 * neither is refused before the setting is read.
 */
export async function assertMayUseFlex(db: Queryable, user: ActingUser): Promise<void> {
  if (!canViewFinancingDetails(user)) throw new ApiError('FLEX_7001');
  const line = await readFlexLine(db, user.business_id);
  if (!canUseFlexBills(user, { ap_clerks_can_flex: line.apClerksCanFlex })) throw new ApiError('FLEX_7001');
}

/** The ACTIVE line, or FLEX_7005 (not onboarded yet). */
export function activeLine(line: FlexLine): FlexLine & { lineAccountId: string } {
  if (line.status !== 'ACTIVE' || !line.lineAccountId) throw new ApiError('FLEX_7005');
  return line as FlexLine & { lineAccountId: string };
}

/**
 * accept_terms: ACTIVE with the default limit and the FLEX_LINE account (created once, race-safe).
 * Onboarding again changes nothing but `ap_clerks_can_flex` when given.
 */
export async function onboardFlex(tx: Queryable, user: ActingUser, body: { ap_clerks_can_flex?: boolean | undefined }, now: Date): Promise<FlexSettings> {
  const at = now.toISOString();
  const lineAccount = await systemAccount(tx, user.business_id, 'FLEX_LINE', FLEX_CURRENCY);
  await tx.query(
    `INSERT INTO flex_settings (business_id, status, limit_amount, currency, ap_clerks_can_flex, line_account_id, onboarded_at, onboarded_by, updated_at)
     VALUES ($1, 'ACTIVE', $2, $3, coalesce($4, false), $5, $6, $7, $6)
     ON CONFLICT (business_id) DO UPDATE SET
       status = 'ACTIVE',
       line_account_id = coalesce(flex_settings.line_account_id, EXCLUDED.line_account_id),
       onboarded_at = coalesce(flex_settings.onboarded_at, EXCLUDED.onboarded_at),
       onboarded_by = coalesce(flex_settings.onboarded_by, EXCLUDED.onboarded_by),
       ap_clerks_can_flex = coalesce($4, flex_settings.ap_clerks_can_flex),
       updated_at = EXCLUDED.updated_at`,
    [user.business_id, DEFAULT_FLEX_LIMIT, FLEX_CURRENCY, body.ap_clerks_can_flex ?? null, lineAccount, at, user.id],
  );
  return settingsDoc(await readFlexLine(tx, user.business_id));
}

/** PATCH settings: whether AP clerks may pay bills with flex (before onboarding too). */
export async function updateFlexSettings(tx: Queryable, businessId: string, apClerksCanFlex: boolean, now: Date): Promise<FlexSettings> {
  await tx.query(
    `INSERT INTO flex_settings (business_id, ap_clerks_can_flex, updated_at) VALUES ($1, $2, $3)
     ON CONFLICT (business_id) DO UPDATE SET ap_clerks_can_flex = EXCLUDED.ap_clerks_can_flex, updated_at = EXCLUDED.updated_at`,
    [businessId, apClerksCanFlex, now.toISOString()],
  );
  return settingsDoc(await readFlexLine(tx, businessId));
}
