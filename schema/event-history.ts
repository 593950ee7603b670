import { z } from 'zod';

/**
 * Issue 32, §7 "event history per entity type": who changed which field of an entity, from what
 * to what, when, and from which device or through which integration. Recorded by the database's
 * triggers (migration 077) whoever writes, so no writer can forget it.
 */
export const EVENT_ENTITY_TYPES = ['transaction', 'reimbursement', 'bill', 'card', 'vendor', 'user'] as const;
export type EventEntityType = (typeof EVENT_ENTITY_TYPES)[number];

export const eventActorSchema = z.object({
  /** `user`: a person in the app; `api_client` / `scim` / `hris`: an integration (on behalf of `user_id` when an API client acts as someone); `system`: a job. */
  kind: z.enum(['user', 'api_client', 'scim', 'hris', 'system']),
  user_id: z.uuid().nullable(),
  /** "Jane Roe", "API client Ledger Sync (for Jane Roe)", "SCIM Okta", "System". */
  label: z.string(),
});

export const entityEventSchema = z.object({
  id: z.string(),
  /** The field changed, or `created` for the entity's creation (its first event: from and to are null). */
  field: z.string(),
  /** The values as stored (amounts in minor units, ids as ids). */
  from: z.unknown(),
  to: z.unknown(),
  /** Names for ids (a GL account, a department, a person), when the value is one. */
  from_label: z.string().nullable(),
  to_label: z.string().nullable(),
  actor: eventActorSchema,
  /** The device the change was sent from, when the request named one: the client compares it with its own. */
  device_id: z.string().nullable(),
  /** The device's name when it is known ("Chrome on Windows", read from its browser when it first wrote). */
  device_name: z.string().nullable(),
  at: z.iso.datetime({ offset: true }),
});
export type EntityEvent = z.infer<typeof entityEventSchema>;

export const entityHistorySchema = z.object({
  data: z.array(entityEventSchema),
  page: z.object({ next: z.string().nullable() }),
  /** The entity's currency, for fields that are amounts (a claim's amount, a card's limit). */
  currency: z.string().nullable(),
});
export type EntityHistory = z.infer<typeof entityHistorySchema>;

/** Fields whose values are minor units of the entity's currency. */
export const MONEY_FIELDS: ReadonlySet<string> = new Set(['amount']);

/** "gl_account_id" → "GL account". */
export function fieldLabel(field: string): string {
  const known: Record<string, string> = {
    gl_account_id: 'GL account', department_id: 'Department', location_id: 'Location', manager_id: 'Manager',
    vendor_id: 'Vendor', entity_id: 'Entity', invoice_file_id: 'Invoice file', receipt_ids: 'Receipts',
    default_gl_account_id: 'Default GL account', default_department_id: 'Default department', display_name: 'Name',
    allowed_categories: 'Allowed categories', distance_miles: 'Distance (miles)',
  };
  if (known[field]) return known[field];
  const words = field.replace(/_/g, ' ');
  return words[0]!.toUpperCase() + words.slice(1);
}
