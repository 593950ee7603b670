import { z } from 'zod';
import { isoDateTime, mirroredFields, uuid } from './common.ts';
import { defineReference } from './define-entity.ts';

/**
 * A business entity (legal entity, subsidiary) as mirrored (issue 14): reference data in `refs`,
 * visible to every member, so a bill's or a user's entity is named on the device, offline too.
 * Written only through the admin calls (calls-admin.ts, calls-org.ts); `owner_ids` are the
 * entity's owners (users of the business), as departments' and locations'.
 */
export const businessEntityRowSchema = z.object({
  id: uuid,
  name: z.string().min(1),
  /** ISO 3166-1 alpha-2. */
  country: z.string().length(2),
  /** ISO 4217. */
  currency: z.string().length(3),
  owner_ids: z.array(uuid).default([]),
  created_at: isoDateTime,
  ...mirroredFields,
});
export type BusinessEntityRow = z.infer<typeof businessEntityRowSchema>;

/** Table `business_entities`. */
export const businessEntityEntity = defineReference({
  name: 'entities', schema: businessEntityRowSchema, visibility: 'business', searchText: ['name'],
});
