import { z } from 'zod';
import { mirroredFields, uuid } from './common.ts';
import { defineEntity } from './define-entity.ts';

export const locationSchema = z.object({
  id: uuid,
  name: z.string().min(1),
  /** Its owners (users of the business; issue 14). Rows mirrored before owners were sent read as none. */
  owner_ids: z.array(uuid).default([]),
  ...mirroredFields,
});
export type Location = z.infer<typeof locationSchema>;

export const locationEntity = defineEntity({
  name: 'locations',
  schema: locationSchema,
  idField: 'id',
  mirror: { kind: 'ref', indexes: [] },
  visibility: 'business',
  searchText: ['name'],
});
