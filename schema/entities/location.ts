import type { z } from 'zod';
import { defineReference } from './define-entity.ts';
import { orgUnitSchema } from './department.ts';

export const locationSchema = orgUnitSchema;
export type Location = z.infer<typeof locationSchema>;

/** Table `locations`. */
export const locationEntity = defineReference({
  name: 'locations', schema: locationSchema, visibility: 'business', searchText: ['name'],
});
