import { z } from 'zod';
import { mirroredFields, uuid } from './common.ts';
import { defineReference } from './define-entity.ts';

/** A department or a location: the business's two kinds of org unit hold the same row. */
export const orgUnitSchema = z.object({
  id: uuid,
  name: z.string().min(1),
  /** Its owners (users of the business; issue 14). Rows mirrored before owners were sent read as none. */
  owner_ids: z.array(uuid).default([]),
  ...mirroredFields,
});

export const departmentSchema = orgUnitSchema;
export type Department = z.infer<typeof departmentSchema>;

/** Table `departments`. */
export const departmentEntity = defineReference({
  name: 'departments', schema: departmentSchema, visibility: 'business', searchText: ['name'],
});
