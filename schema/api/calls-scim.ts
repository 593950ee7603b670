/**
 * Issue 32: SCIM integrations (bearer tokens per integration) for /scim/v2. Calls are declared here (defineCall) and listed in SCIM_CALLS; the catalogue
 * (calls.ts) includes them.
 *
 * An admin or IT admin (`canManageIntegrations`) lists the business's integrations; creating one
 * (its bearer token is answered once and stored hashed) and revoking one change who may provision
 * people, so both need the `sensitive` scope (step-up), as client secrets do.
 */
import { z } from 'zod';
import { callGroup } from './call-group.ts';

const group = callGroup('/v1/auth/scim/integration', { scopes: ['default'] });
const sensitiveGroup = callGroup('/v1/auth/scim/integration', { scopes: ['sensitive'] });

const isoDate = z.iso.datetime({ offset: true });
export const SCIM_INTEGRATION_NAME_MAX = 80;

/** One integration as the admin sees it; never the token, only its last four characters. */
export const scimIntegrationSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  created_at: isoDate,
  created_by: z.object({ user_id: z.uuid(), name: z.string() }).nullable(),
  last_used_at: isoDate.nullable(),
  token_last_four: z.string(),
});
export type ScimIntegration = z.infer<typeof scimIntegrationSchema>;

export const scimIntegrationBodySchema = z.object({
  /** Absent: a new integration (and token); present: renames that integration. */
  id: z.uuid().optional(),
  name: z.string().trim().min(1).max(SCIM_INTEGRATION_NAME_MAX),
});
export type ScimIntegrationBody = z.infer<typeof scimIntegrationBodySchema>;

export const listScimIntegrations = group('scim.integrations.list', 'GET', '', {
  response: z.object({ integrations: z.array(scimIntegrationSchema) }),
});

/**
 * §7 `PUT scim/integration`: creates (201, with `token`, the only time it is shown) or renames
 * (200, `token` null). Another business's id answers 404.
 */
export const putScimIntegration = sensitiveGroup('scim.integrations.put', 'PUT', '', {
  body: scimIntegrationBodySchema,
  response: z.object({ integration: scimIntegrationSchema, token: z.string().nullable() }),
});

/** §7 `DELETE scim/integration/{id}`: revokes; the token stops working at once. */
export const deleteScimIntegration = sensitiveGroup('scim.integrations.delete', 'DELETE', '/:id', {
  params: z.object({ id: z.uuid() }),
  response: z.object({ id: z.uuid(), revoked: z.literal(true) }),
});

export const SCIM_CALLS = [listScimIntegrations, putScimIntegration, deleteScimIntegration] as const;
