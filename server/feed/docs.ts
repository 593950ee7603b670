import type { MirroredCollection } from '../../schema/sync-feed.ts';

/**
 * The wire shape of every mirrored row, built in SQL as jsonb so that lists, single reads and
 * the change feed all send exactly the entity shapes of schema/entities (and PGlite and
 * PostgreSQL format timestamps identically, via ll_iso). Each expression reads alias `r`.
 */
const mirrored = `'business_id', r.business_id, 'change_seq', r.change_seq, 'updated_at', ll_iso(r.updated_at), 'deleted', r.deleted`;

export const DOC_SQL: Record<MirroredCollection, string> = {
  transactions: `jsonb_build_object(
    'id', r.id, 'card_id', r.card_id, 'user_id', r.user_id, 'merchant_name', r.merchant_name,
    'merchant_category', r.merchant_category, 'amount', r.amount, 'currency', r.currency,
    'occurred_at', ll_iso(r.occurred_at), 'state', r.state, 'memo', r.memo,
    'gl_account_id', r.gl_account_id, 'department_id', r.department_id, 'location_id', r.location_id,
    'tracking', r.tracking, ${mirrored})`,
  users: `jsonb_build_object(
    'id', r.id, 'role', r.role, 'first_name', r.first_name, 'last_name', r.last_name, 'email', r.email,
    'is_manager', r.is_manager, 'manager_id', r.manager_id, 'department_id', r.department_id,
    'location_id', r.location_id, 'status', r.status, ${mirrored})`,
  departments: `jsonb_build_object('id', r.id, 'name', r.name, ${mirrored})`,
  locations: `jsonb_build_object('id', r.id, 'name', r.name, ${mirrored})`,
  gl_accounts: `jsonb_build_object(
    'id', r.id, 'code', r.code, 'name', r.name, 'classification', r.classification, 'active', r.active, ${mirrored})`,
  tracking_categories: `jsonb_build_object('id', r.id, 'name', r.name, 'options', r.options, ${mirrored})`,
  cards: `jsonb_build_object(
    'id', r.id, 'user_id', r.user_id, 'display_name', r.display_name, 'last_four', r.last_four,
    'is_physical', r.is_physical, 'state', r.state, ${mirrored})`,
};

/** The table behind each collection. */
export const TABLE: Record<MirroredCollection, string> = {
  transactions: 'transactions',
  users: 'spend_users',
  departments: 'departments',
  locations: 'locations',
  gl_accounts: 'gl_accounts',
  tracking_categories: 'tracking_categories',
  cards: 'cards',
};

/** The full §3 spend user (identity call), relative to no acting user. */
export const SPEND_USER_DOC_SQL = `jsonb_build_object(
  'id', r.id, 'role', r.role, 'business_id', r.business_id, 'external_firm', r.external_firm,
  'has_finished_onboarding', r.has_finished_onboarding, 'is_business_locked', r.is_business_locked,
  'is_manager', r.is_manager, 'user_permissions', r.user_permissions, 'payroll_currency', r.payroll_currency,
  'has_accepted_cardholder_agreement', r.has_accepted_cardholder_agreement, 'impersonator', NULL,
  'acting_user_is_in_reporting_chain', false, 'first_name', r.first_name, 'last_name', r.last_name,
  'external_firm_role', r.external_firm_role, 'email', r.email, 'manager_id', r.manager_id,
  'department_id', r.department_id, 'location_id', r.location_id, 'status', r.status)`;
