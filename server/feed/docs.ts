import { MIRRORED_COLLECTIONS, type MirroredCollection } from '../../schema/collections.ts';
import { COLLECTIONS } from '../collections.ts';

/**
 * Each collection's wire doc SQL, from the registry (server/collections.ts); kept for the domain
 * writes that still build their docs from it by name (domain/admin-users.ts).
 */
export const DOC_SQL = Object.fromEntries(
  MIRRORED_COLLECTIONS.map((c) => [c, COLLECTIONS[c].docSql]),
) as Readonly<Record<MirroredCollection, string>>;

/** The full §3 spend user (identity call), relative to no acting user. */
export const SPEND_USER_DOC_SQL = `jsonb_build_object(
  'id', r.id, 'role', r.role, 'business_id', r.business_id, 'external_firm', r.external_firm,
  'has_finished_onboarding', r.has_finished_onboarding, 'is_business_locked', r.is_business_locked,
  'is_manager', r.is_manager, 'user_permissions', r.user_permissions, 'payroll_currency', r.payroll_currency,
  'has_accepted_cardholder_agreement', r.has_accepted_cardholder_agreement, 'impersonator', NULL,
  'acting_user_is_in_reporting_chain', false, 'first_name', r.first_name, 'last_name', r.last_name,
  'external_firm_role', r.external_firm_role, 'email', r.email, 'manager_id', r.manager_id,
  'department_id', r.department_id, 'location_id', r.location_id, 'status', r.status)`;
