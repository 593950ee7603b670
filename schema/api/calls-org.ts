import { z } from 'zod';
import { businessEntitySchema } from './calls-admin.ts';
import { defineCall } from './define-call.ts';

/**
 * Issue 14, organisation administration beyond issue 3's calls (calls-admin.ts): a business
 * entity's owners, set whole like a department's (`admin.departments.owners`). Spread into
 * CATALOGUE by calls.ts as ORG_CALLS; `admin.` ids are admin-only (tenant-isolation convention).
 */
export const setEntityOwners = defineCall({
  id: 'admin.entities.owners', method: 'PUT', path: '/v1/auth/businesses/entities/:entity_uuid/owners',
  auth: { scopes: ['default'] },
  params: z.object({ entity_uuid: z.uuid() }),
  body: z.object({ user_ids: z.array(z.uuid()).max(100) }),
  response: businessEntitySchema,
});

export const ORG_CALLS = [setEntityOwners] as const;
